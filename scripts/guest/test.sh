#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside the guest for "make test": records the booted kernel, the
# KUnit results of the built-in suites and the kselftests, as files in
# the result directory.  The host parses them; nothing here decides
# pass or fail.
set -u
. "$(dirname "$0")/common.sh"

uname -r > "$OUT/uname.txt"
uname -v >> "$OUT/uname.txt"
cp /proc/config.gz "$OUT/" 2>/dev/null

# KUnit: built-in suites ran at boot; module suites run when loaded.
# debugfs keeps each suite's KTAP while its module is loaded.  A part
# of a split run that leaves KUnit to another guest has KUNIT=0 (and
# boots with kunit.enable=0).
if [ "${KUNIT:-1}" = 1 ]; then
	kmods=$(find "/lib/modules/$(uname -r)/" -name '*_kunit*.ko*' -printf '%f\n' |
		sed 's/\.ko.*//')
	for m in $kmods; do
		modprobe "$m" || echo "modprobe $m failed: $?" >> "$OUT/kunit-modules.err"
	done
	mkdir -p "$OUT/kunit"
	for d in /sys/kernel/debug/kunit/*/; do
		[ -r "$d/results" ] && cat "$d/results" > "$OUT/kunit/$(basename "$d").ktap"
	done
	for m in $kmods; do
		modprobe -r "$m"
	done
	sync
fi

# kselftests through the standard runner, TAP to a file, one runner
# call per test so that each test's time is recorded (timing.txt) and
# its result reaches the host before the next starts: a guest killed
# at its timeout still reports every test that finished.  The runner
# reopens /dev/stdout for each test's output, which loses lines on a
# regular file: give it a pipe.  ftracetest writes its logs next to
# itself: run from a writable copy.
# KSFT_TESTS picks what runs: "collection" or "collection:test" words
# (default: every installed test).
ksft_selected() {
	local t=$1 w
	[ -z "${KSFT_TESTS:-}" ] && return 0
	for w in $KSFT_TESTS; do
		[ "$w" = "$t" ] || [ "$w" = "${t%%:*}" ] && return 0
	done
	return 1
}
# tracefs_leftovers TEST: tracing instances and enabled events TEST left
# behind, a line each in leftovers.txt, then undone.  A kselftest cut at
# its timeout may not finish its cleanup, and every event it left on in
# an instance slows the tests after it (2026-11-27, debug kernel:
# markers:stress.sh cut in its first test after static_keys'
# events_batch.sh was cut with 442 events on in its instance).
TRACEFS=/sys/kernel/tracing
tracefs_leftovers() {
	local d n

	[ -d $TRACEFS/instances ] || return 0
	for d in $TRACEFS/instances/*/; do
		[ -d "$d" ] || continue
		n=$(grep -c . "$d/set_event" 2>/dev/null)
		echo "$1: instance $(basename "$d") left, ${n:-0} events enabled" \
			>> "$OUT/leftovers.txt"
		echo 0 > "$d/events/enable" 2>/dev/null
		rmdir "$d" 2>/dev/null
	done
	n=$(grep -c . $TRACEFS/set_event 2>/dev/null)
	if [ "${n:-0}" -gt 0 ]; then
		echo "$1: $n events left enabled" >> "$OUT/leftovers.txt"
		echo 0 > $TRACEFS/events/enable 2>/dev/null
	fi
	return 0
}
# stamp_results: each TAP result line of stdin ("ok 3 ...", "# not ok
# 12 ...", nested or not), after the seconds since the epoch at which it
# came, bash's clock (no fork per line), for the host to tell how long
# each case took: case-times.txt.
stamp_results() {
	local l

	grep --line-buffered -E '^(# )*(not )?ok [0-9]+ ' |
		while IFS= read -r l; do
			printf '%(%s)T %s\n' -1 "$l"
		done
}
# FTRACE_CASES: the ftracetest cases or test.d directories this guest
# runs (default: all), for a run split over guests side by side.
if [ -x "$KSFT/run_kselftest.sh" ]; then
	rm -rf /tmp/ksft && cp -a "$KSFT" /tmp/ksft
	if [ -n "${FTRACE_CASES:-}" ] && [ -f /tmp/ksft/ftrace/ftracetest-ktap ]; then
		sed -i "s|^\./ftracetest -K -v\$|& $FTRACE_CASES|" \
			/tmp/ksft/ftrace/ftracetest-ktap
		grep -q -- "-v $FTRACE_CASES\$" /tmp/ksft/ftrace/ftracetest-ktap ||
			echo "FTRACE_CASES not applied to ftracetest-ktap" >> "$OUT/errors.txt"
	fi
	: > "$OUT/kselftest.tap"
	: > "$OUT/timing.txt"
	: > "$OUT/case-times.txt"
	for t in $(cd /tmp/ksft && ./run_kselftest.sh -l); do
		ksft_selected "$t" || continue
		start=$(date +%s)
		echo "$start start $t" >> "$OUT/case-times.txt"
		(cd /tmp/ksft && ./run_kselftest.sh ${KSFT_TIMEOUT:+-o $KSFT_TIMEOUT} \
			-t "$t" 2>&1; echo "runner exit $?") |
			tee -p -a "$OUT/kselftest.tap" | stamp_results >> "$OUT/case-times.txt"
		echo "$t $(($(date +%s) - start))" >> "$OUT/timing.txt"
		tracefs_leftovers "$t"
		sync
	done
fi
# A mainline ftracetest case that failed in the full run is run again
# alone, so that the host can tell a failure that follows from earlier
# cases (a timing or leftover dependence of the suite) from one that
# does not: "pass|fail <case file>" lines in ftrace-alone.txt.
if [ -f "$OUT/kselftest.tap" ] && [ -x /tmp/ksft/ftrace/ftracetest ]; then
	: > "$OUT/ftrace-alone.txt"
	sed -n 's/^# # execute[^:]*: \(.*\.tc\)$/\1/p' "$OUT/kselftest.tap" | sort -u |
	while read -r tc; do
		if (cd /tmp/ksft/ftrace && ./ftracetest "$tc" > /dev/null 2>&1); then
			echo "pass $tc" >> "$OUT/ftrace-alone.txt"
		else
			echo "fail $tc" >> "$OUT/ftrace-alone.txt"
		fi
	done
fi
# Self-checking test modules: loading fails if a check fails.
if [ "${MODTESTS:-1}" = 1 ]; then
	: > "$OUT/modtests.txt"
	for m in test_static_key_base:test_static_keys; do
		for mod in ${m//:/ }; do
			modprobe "$mod"
			echo "$mod $?" >> "$OUT/modtests.txt"
		done
		for mod in $(echo ${m//:/ } | tac -s ' '); do
			modprobe -r "$mod" 2>/dev/null
		done
	done
fi

dmesg > "$OUT/dmesg.txt"
finish
