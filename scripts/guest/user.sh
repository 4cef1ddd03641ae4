#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside the guest for "make bench", case user: the in-tree user of
# markers, the 9p virtio transport (p9_virtio_* markers).  Times fsync()
# of a file on the 9p root (one TFSYNC request each) with the markers
# off, and on the kernel with the series with every p9_virtio_* event
# enabled; then shows what a user can do with them (a histogram of
# request sizes by message type, and a few trace lines).  Writes user.csv:
#   user,<kernel label>_<state>,<rep>,<guest ns per fsync>,ns
# Usage: user.sh <outdir> <kselftest-dir> <kernel label> <fsync_loop>
set -u
. "$(dirname "$0")/common.sh"

LABEL=$3
LOOP=$4
N=2000
REPS=7
T=/sys/kernel/tracing
CSV=$OUT/user.csv
exec > >(tee "$OUT/user.log") 2>&1
: > "$CSV"

run() {
	local state=$1 i v

	for i in $(seq 1 $REPS); do
		v=$("$LOOP" "$LOOP" $N) || { echo "user,${LABEL}_$state,$i,0,skip:fsync_loop failed" >> "$CSV"; return; }
		echo "user,${LABEL}_$state,$i,$v,ns" >> "$CSV"
	done
}

grep -q ' 9p ' /proc/mounts || echo "user,$LABEL,0,0,skip:root is not 9p" >> "$CSV"
run off
if [ -d "$T/events/markers/p9_virtio_request" ]; then
	for e in "$T"/events/markers/p9_virtio_*/enable; do
		echo 1 > "$e" || echo "user,${LABEL}_events,0,0,skip:cannot enable ${e#$T/}" >> "$CSV"
	done
	echo > "$T/trace"
	run events
	echo 'hist:keys=type:vals=hitcount,size:sort=type' > \
		"$T/events/markers/p9_virtio_request/trigger"
	"$LOOP" "$LOOP" 100 > /dev/null
	cat "$T/events/markers/p9_virtio_request/hist" > "$OUT/user-hist.txt"
	echo '!hist:keys=type:vals=hitcount,size:sort=type' > \
		"$T/events/markers/p9_virtio_request/trigger"
	for e in "$T"/events/markers/p9_virtio_*/enable; do
		echo 0 > "$e"
	done
	timeout 5 cat "$T/trace_pipe" | head -n 8 > "$OUT/user-trace.txt"
	echo "== $(wc -l < "$OUT/user-hist.txt") histogram lines"
elif [ "$LABEL" = after ]; then
	echo "user,after_events,0,0,skip:no markers/p9_virtio_request event" >> "$CSV"
fi
finish
