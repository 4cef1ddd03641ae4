#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside the guest for "make bench", case scale: for each generated
# module marker_scale_<N> (N markers, one site each), the guest time of
# loading it, enabling all its marker events with one markers_enable
# write (connecting a probe to each by name, one static key batch),
# disabling them, and unloading it.  Writes scale.csv:
#   scale,<operation>,<N>,<guest ns>,ns
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

for n in "$@"; do
	mod=$DIR/marker_scale_$n.ko
	[ -e "$mod" ] || { echo "scale,all,$n,0,skip:no $mod" >> "$CSV"; continue; }
	step load "$n" insmod "$mod"
	step enable "$n" enable "scale${n}_*"
	step disable "$n" enable "!scale${n}_*"
	step unload "$n" rmmod "marker_scale_$n"
	echo "== N=$n done"
done
finish
