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
# debugfs keeps each suite's KTAP while its module is loaded.
kmods=$(find "/lib/modules/$(uname -r)/" -name '*_kunit*.ko*' -printf '%f\n' | \
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

# kselftests through the standard runner, TAP to a file.  The runner
# reopens /dev/stdout for each test's output, which loses lines on a
# regular file: give it a pipe.
# ftracetest writes its logs next to itself: run from a writable copy.
# KSFT_COLLECTIONS limits the run (the debug job leaves ftrace out).
if [ -x "$KSFT/run_kselftest.sh" ]; then
	rm -rf /tmp/ksft && cp -a "$KSFT" /tmp/ksft
	colls=
	for c in ${KSFT_COLLECTIONS:-}; do
		colls="$colls -c $c"
	done
	(cd /tmp/ksft && ./run_kselftest.sh ${KSFT_TIMEOUT:+-o $KSFT_TIMEOUT} \
		$colls 2>&1; echo "runner exit $?") | \
		cat > "$OUT/kselftest.tap"
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

dmesg > "$OUT/dmesg.txt"
finish
