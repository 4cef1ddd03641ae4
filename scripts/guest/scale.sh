#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside the guest for "make bench", case scale: for each generated
# module marker_scale_<N> (N markers, one site each), the guest time of
# loading it, enabling all its marker events with one markers_enable
# write (connecting a probe to each by name, one static key batch),
# disabling them, and unloading it, 3 times.  Each step is one system
# call made by scripts/bench/scale_op (path in SCALE_OP), which reports
# the calling thread's CPU time and the wall time.  Writes scale.csv:
#   scale,<operation>,<N>,<guest ns>,ns       wall time
#   scale,<operation>_cpu,<N>,<guest ns>,ns   the caller's CPU time
# (one row each per repetition)
# Usage: scale.sh <outdir> <kselftest-dir> <module dir> <N>...
set -u
. "$(dirname "$0")/common.sh"

DIR=$3
shift 3
T=/sys/kernel/tracing
CSV=$OUT/scale.csv
exec > >(tee "$OUT/scale.log") 2>&1
: > "$CSV"

OP=${SCALE_OP:?}
# step <op> <N> <scale_op arguments...>: two rows, or a note row if it fails
step() {
	local op=$1 n=$2 cpu wall
	shift 2
	if read -r cpu wall < <("$OP" "$@") && [ -n "$wall" ]; then
		echo "scale,$op,$n,$wall,ns" >> "$CSV"
		echo "scale,${op}_cpu,$n,$cpu,ns" >> "$CSV"
	else
		echo "scale,$op,$n,0,skip:$* failed" >> "$CSV"
	fi
}

# The modules are read from memory, and insmod and rmmod are in the page
# cache before the first timed step; each N runs REPS times (the table
# takes the median), so that the constant part of a step (a process, a
# grace period) varies less between N.
REPS=3
TMP=$(mktemp -d)
for n in "$@"; do
	[ -e "$DIR/marker_scale_$n.ko" ] && cp "$DIR/marker_scale_$n.ko" "$TMP/"
done
"$OP" load /dev/null 2>/dev/null
"$OP" unload marker_scale_none 2>/dev/null
for n in "$@"; do
	mod=$TMP/marker_scale_$n.ko
	[ -e "$mod" ] || { echo "scale,all,$n,0,skip:no $mod" >> "$CSV"; continue; }
	for rep in $(seq $REPS); do
		step load "$n" load "$mod"
		step enable "$n" write "$T/markers_enable" "scale${n}_*"
		step disable "$n" write "$T/markers_enable" "!scale${n}_*"
		step unload "$n" unload "marker_scale_$n"
	done
	echo "== N=$n done"
done
rm -rf "$TMP"
finish
