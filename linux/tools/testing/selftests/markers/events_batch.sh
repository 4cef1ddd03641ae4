#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# description: marker events join the static key batch of a multi-event
#	write: set_event 'markers:*' costs one batch each way, and every
#	event, markers included, records and switches while the sample's
#	sites fire
# requires: marker-example.ko, ../static_keys/batch_lib.sh,
#	<debugfs>/static_keys/stats
#
# The counting is the static_keys selftest's (batch_lib.sh): each write
# applies one static key batch of 3 IPI rounds per text_poke batch.

DIR=$(dirname "$0")
. "$DIR/../kselftest/ktap_helpers.sh"
. "$DIR/markers_lib.sh"
[ -r "$DIR/../static_keys/batch_lib.sh" ] ||
	markers_skip_all "no ../static_keys/batch_lib.sh (static_keys selftests not installed)"
. "$DIR/../static_keys/batch_lib.sh"

T=/sys/kernel/tracing
LOAD_PIDS=

cleanup() {
	[ -n "$LOAD_PIDS" ] && kill $LOAD_PIDS 2>/dev/null
	wait 2>/dev/null
	echo 0 > $T/events/enable
	unload marker-example
	rm -rf "$BATCH_TMP"
}

# Every enabled event records: a marker event of marker-example when
# its trigger is read, and sched_switch when a task sleeps, each counted
# in a buffer cleared for it.  The shell reads the trigger and stops
# recording itself, with no process started in between: with every
# event on, a slow kernel (KASAN under TCG) fills a buffer with the kmem
# and sched events of one exec, overwriting the marker's record.  On a
# fast kernel no task switch may happen in that window, so sched_switch
# is counted around a sleep(1), whose own switches are the latest
# records.  Tried again if the records were lost anyway.
test_records() {
	local try sw=0 mk=0

	echo 1 > $T/events/enable || return 1
	for try in 1 2 3; do
		echo > $T/trace
		read -r _ < $DEBUGFS/marker-example/trigger
		echo 0 > $T/tracing_on
		mk=$(grep -c ' subsys_mark1: ' $T/trace)
		echo > $T/trace
		echo 1 > $T/tracing_on
		sleep 0.2
		echo 0 > $T/tracing_on
		sw=$(grep -c ' sched_switch: ' $T/trace)
		echo 1 > $T/tracing_on
		[ "$sw" -gt 0 ] && [ "$mk" -gt 0 ] && break
	done
	echo 0 > $T/events/enable
	echo "# records: $sw sched_switch, $mk subsys_mark1 (read $try)"
	[ "$sw" -gt 0 ] && [ "$mk" -gt 0 ]
}

# Enable and disable every event while the marker sites fire on every CPU.
test_storm() {
	storm $DEBUGFS/marker-example/trigger
}

ktap_print_header
[ "$(id -u)" -eq 0 ] || markers_skip_all "must run as root"
mountpoint -q $DEBUGFS || mount -t debugfs none $DEBUGFS
mountpoint -q $T || mount -t tracefs nodev $T
batch_lib_ready ||
	markers_skip_all "no batch counters in $STATS, or no text_poke batch counts"
markers_require_modules marker-example
trap cleanup EXIT
echo 0 > $T/events/enable
load marker-example || exit "$KSFT_FAIL"
K_IDLE=$(tp_keys_on)
T_HELD=$(enabled_events $T)

ktap_set_plan 3
ktap_test_result "set_event 'markers:*': one static key batch each way" \
	set_event_both $T 'markers:*'
ktap_test_result "all events, markers too, record once enabled in one batch" \
	test_records
ktap_test_result "every event on and off (up to 10 times) while the marker sites fire" \
	test_storm
ktap_finished
