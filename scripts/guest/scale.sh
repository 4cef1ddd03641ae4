#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside the guest for "make bench", case scale: for each generated
# module marker_scale_<N> (N markers, one site each), the guest time of
# loading it, enabling all its marker events with one markers_enable
# write (connecting a probe to each by name, one static key batch),
# disabling them, and unloading it, 3 times.  Writes scale.csv:
#   scale,<operation>,<N>,<guest ns>,ns   (one row per repetition)
# Usage: scale.sh <outdir> <kselftest-dir> <module dir> <N>...
set -u
. "$(dirname "$0")/common.sh"

DIR=$3
shift 3
T=/sys/kernel/tracing
CSV=$OUT/scale.csv
exec > >(tee "$OUT/scale.log") 2>&1
: > "$CSV"

now() { date +%s%N; }
# step <op> <N> <command...>: one row, or a note row if the command fails
step() {
	local op=$1 n=$2 t0 t1
	shift 2
	t0=$(now)
	if "$@"; then
		t1=$(now)
		echo "scale,$op,$n,$((t1 - t0)),ns" >> "$CSV"
	else
		echo "scale,$op,$n,0,skip:$* failed" >> "$CSV"
	fi
}
enable() { echo "$1" > "$T/markers_enable"; }

# The modules are read from memory, and insmod and rmmod are in the page
# cache before the first timed step; each N runs REPS times (the table
# takes the median), so that the constant part of a step (a process, a
# grace period) varies less between N.
REPS=3
TMP=$(mktemp -d)
for n in "$@"; do
	[ -e "$DIR/marker_scale_$n.ko" ] && cp "$DIR/marker_scale_$n.ko" "$TMP/"
done
insmod /dev/null 2>/dev/null
rmmod marker_scale_none 2>/dev/null
for n in "$@"; do
	mod=$TMP/marker_scale_$n.ko
	[ -e "$mod" ] || { echo "scale,all,$n,0,skip:no $mod" >> "$CSV"; continue; }
	for rep in $(seq $REPS); do
		step load "$n" insmod "$mod"
		step enable "$n" enable "scale${n}_*"
		step disable "$n" enable "!scale${n}_*"
		step unload "$n" rmmod "marker_scale_$n"
	done
	echo "== N=$n done"
done
rm -rf "$TMP"
finish
