#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside the guest for "make bench", case macro: hackbench (perf
# bench sched messaging) and a pipe ping-pong (perf bench sched pipe),
# REPS times each after one warm-up run.  With "probe", the same again
# with probe-example counting the standard markers.  Writes macro.csv:
#   macro,<kernel>_<bench>,<rep>,<guest ns>,ns
# hackbench rows are the run's total time, pipe rows the time of one
# round trip (perf prints both at 1 ns of guest time or better here).
# Usage: macro.sh <outdir> <kselftest-dir> <kernel label> [probe]
set -u
. "$(dirname "$0")/common.sh"
. "$KSFT/markers/markers_lib.sh"

LABEL=$3
PROBE=${4:-}
REPS=${MACRO_REPS:-21}
# Sized for TCG: one group of 20 senders and 20 receivers exchanging 200
# messages each (about 0.5 s of guest time, printed to the ms); 10000
# pipe round trips.
HACKBENCH="sched messaging -g 1 -l 200"
PIPE="sched pipe -l 10000"
STD=syscall_entry,syscall_exit,trap_entry,irq_entry,irq_exit,sched_switch_mark
CSV=$OUT/macro.csv
exec > >(tee "$OUT/macro.log") 2>&1

# measure <perf bench args>: guest ns of the run ("Total time"), or of one
# operation when perf prints usecs/op.
measure() {
	"$PERF" bench "$@" 2>&1 | tee -a "$OUT/perf-bench.txt" |
		awk '/Total time:/ { t = $3 * 1e9 } /usecs\/op/ { op = $1 * 1e3 }
		     END { if (op) printf "%.0f\n", op; else if (t) printf "%.0f\n", t }'
}

# series <variant>: warm-up, then REPS rows per benchmark.
series() {
	local variant=$1 i t

	for b in hackbench pipe; do
		[ $b = hackbench ] && set -- $HACKBENCH || set -- $PIPE
		measure "$@" > /dev/null
		for i in $(seq 1 "$REPS"); do
			t=$(measure "$@")
			[ -n "$t" ] || { echo "macro,${variant}_$b,$i,0,skip:perf bench printed no total" >> "$CSV"; continue; }
			echo "macro,${variant}_$b,$i,$t,ns" >> "$CSV"
		done
	done
}

echo "== booted: $(uname -r), $(nproc) CPUs, kernel $LABEL"
: > "$CSV"
PERF=$(markers_find_perf)
if [ -z "$PERF" ]; then
	echo "macro,$LABEL,0,0,skip:no working perf binary" >> "$CSV"
	finish
	exit 0
fi
echo "== $PERF; markers known: $(grep -c . /sys/kernel/debug/markers/list 2>/dev/null)"
# Same user address layout in every run.
echo 0 > /proc/sys/kernel/randomize_va_space
series "$LABEL"
if [ "$PROBE" = probe ]; then
	if modprobe probe-example markers=$STD; then
		series "${LABEL}_probe"
		sed 's/^/counts: /' /sys/kernel/debug/probe-example/counts
		awk '{ print "macro,probe_hits_" $1 ",0," $2 ",hits" }' \
			/sys/kernel/debug/probe-example/counts >> "$CSV"
		rmmod probe-example
	else
		echo "macro,${LABEL}_probe,0,0,skip:probe-example failed to load" >> "$CSV"
	fi
fi
echo "== $(wc -l < "$CSV") rows"
finish
