#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# description: enabling many trace events patches code once: events/enable,
#	a system's enable file and set_event with "*", in the top instance
#	and in an instance (also while the top instance has events on),
#	cost one static key batch each way
# requires: <debugfs>/static_keys/stats, tracefs
#
# Each write must apply exactly one static key batch, which sends 3 IPI
# rounds per text_poke batch of up to batch_max pokes (the batches' own
# counters of <debugfs>/static_keys/stats, which other text patching
# does not move).  The keys of the tracepoints must follow: on while
# their event is, off after.  events/enable, and with syscall events
# (FTRACE_SYSCALLS) their system's enable file and set_event glob, must
# also patch no code outside the batch: every IPI round of the write is
# one of the batch's.  The last case switches every event on and off
# while tracepoints fire on every CPU.

DIR=$(dirname "$0")
. "$DIR/../kselftest/ktap_helpers.sh"
. "$DIR/batch_lib.sh"

T=/sys/kernel/tracing
INST=$T/instances/events_batch_selftest
LOAD_PIDS=

cleanup() {
	[ -n "$LOAD_PIDS" ] && kill $LOAD_PIDS 2>/dev/null
	wait 2>/dev/null
	echo 0 > $T/events/enable
	[ -d $INST ] && { echo 0 > $INST/events/enable; rmdir $INST; }
	rm -rf "$BATCH_TMP"
}

skip_all() {
	ktap_skip_all "$1"
	rm -rf "$BATCH_TMP"
	exit "$KSFT_SKIP"
}

# Truncating set_event disables every event of the instance at DIR.
set_event_truncate() {
	local dir=$1 s0 s1 k0

	k0=$(tp_keys_on)
	echo 1 > "$dir/events/enable" || return 1
	snap s0
	: > "$dir/set_event" || return 1
	snap s1
	still_enabled "$dir" && [ "$(tp_keys_on)" = "$k0" ] || return 1
	check_one_batch "truncating set_event" s0 s1
}

# An instance's events/enable while the top instance has the sched events
# on: a tracepoint with one probe gets a second one, and the static call
# moves from that probe to the iterator in the batch too.
switch_beside_top() {
	local ret

	echo 1 > $T/events/sched/enable || return 1
	switch_both $INST $INST/events/enable "instance beside sched"
	ret=$?
	echo 0 > $T/events/sched/enable
	return $ret
}

# Every enabled event records: sched_switch.  Recording stops right after
# a short sleep, and is tried again if the records were overwritten
# meanwhile (every event of a slow kernel fills a buffer quickly).
test_records() {
	local try sw=0

	echo 1 > $T/events/enable || return 1
	for try in 1 2 3; do
		echo > $T/trace
		sleep 0.1
		echo 0 > $T/tracing_on
		sw=$(grep -c ' sched_switch: ' $T/trace)
		echo 1 > $T/tracing_on
		[ "$sw" -gt 0 ] && break
	done
	echo 0 > $T/events/enable
	echo "# records: $sw sched_switch (read $try)"
	[ "$sw" -gt 0 ]
}

# rounds VAR: "all own", the IPI rounds of all code patching and those
# of static key batches, from one read of the stats
rounds() {
	printf -v "$1" '%s' "$(awk '$1 == "ipi_rounds" { a = $2 }
		$1 == "own_ipi_rounds" { o = $2 } END { print a, o }' $STATS)"
}

# only_batches CMD...: CMD succeeds and patches no code outside static
# key batches: the syscall events' shared sys_enter and sys_exit probes
# join the write's batch, and so do the static calls tracepoint regfuncs
# retarget (lock:contended_release's, on x86 with PARAVIRT_SPINLOCKS).
# Other code patching on the machine (ftrace, BPF trampolines, a
# deferred key decrement) may fall in the same window, so a mismatch is
# tried again, 3 times in all.
only_batches() {
	local try r0 r1
	local -a a b

	for try in 1 2 3; do
		rounds r0
		"$@" || return 1
		rounds r1
		read -r -a a <<< "$r0"
		read -r -a b <<< "$r1"
		echo "# IPI rounds: $((b[0] - a[0])) in all," \
			"$((b[1] - a[1])) of static key batches"
		[ $((b[0] - a[0])) = $((b[1] - a[1])) ] && return 0
	done
	return 1
}

# sys_keys_off: sys_enter and sys_exit have no probe yet (their keys are
# off), so that enabling syscall events must switch them
sys_keys_off() {
	awk '$1 == "__tracepoint_sys_enter" || $1 == "__tracepoint_sys_exit" {
		n += $2 } END { exit n != 0 }' $KEYS
}

# Enable and disable every event while tracepoints fire on every CPU
# (forks, execs, reads, context switches).
test_storm() {
	storm /proc/self/stat
}

ktap_print_header
[ "$(id -u)" -eq 0 ] || skip_all "must run as root"
mountpoint -q $DEBUGFS || mount -t debugfs none $DEBUGFS
mountpoint -q $T || mount -t tracefs nodev $T
[ -w $T/events/enable ] || skip_all "no $T/events/enable (CONFIG_EVENT_TRACING=n?)"
batch_lib_ready ||
	skip_all "no batch counters in $STATS, or no text_poke batch counts"
trap cleanup EXIT
echo 0 > $T/events/enable
K_IDLE=$(tp_keys_on)
T_HELD=$(enabled_events $T)

ktap_set_plan 10
ktap_test_result "events/enable: every event, one static key batch each way, nothing outside" \
	only_batches switch_both $T $T/events/enable all
ktap_test_result "events/sched/enable: one static key batch each way" \
	switch_both $T $T/events/sched/enable "sched"
ktap_test_result "set_event 'sched:*': one static key batch each way" \
	set_event_both $T 'sched:*'
ktap_test_result "truncating set_event: one static key batch" \
	set_event_truncate $T
mkdir $INST || exit "$KSFT_FAIL"
ktap_test_result "instance events/enable: one static key batch each way" \
	switch_both $INST $INST/events/enable instance
ktap_test_result "instance events/enable beside the top's sched events: one batch each way" \
	switch_beside_top
SYS_SKIP=
[ -d $T/events/syscalls ] ||
	SYS_SKIP="no syscall events (CONFIG_FTRACE_SYSCALLS=n)"
[ -n "$SYS_SKIP" ] || sys_keys_off ||
	SYS_SKIP="sys_enter or sys_exit already has a probe (perf, BPF?)"
if [ -z "$SYS_SKIP" ]; then
	ktap_test_result "events/syscalls/enable: one batch each way, nothing patched outside" \
		only_batches switch_both $T $T/events/syscalls/enable syscalls
	ktap_test_result "instance set_event 'syscalls:*': one batch each way, nothing outside" \
		only_batches set_event_both $INST 'syscalls:*'
else
	ktap_test_skip "events/syscalls/enable: $SYS_SKIP"
	ktap_test_skip "instance set_event 'syscalls:*': $SYS_SKIP"
fi
ktap_test_result "all events record once enabled in one batch" test_records
ktap_test_result "every event on and off (up to 10 times) while tracepoints fire" \
	test_storm
ktap_finished
