#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# description: every allocation of a batched write fails in turn, and
#	each time the write fails cleanly or succeeds, and undoing it
#	leaves the state as it was
# requires: FAILSLAB, FAIL_PAGE_ALLOC, FAULT_INJECTION_DEBUG_FS; the
#	test_dynamic_debug, test_static_key_batch_hold and _owner modules
#
# The fail-nth file of /proc fails the n-th fault point (slab or page
# allocation) of the thread that writes it.  For each operation below,
# fail_nth_sweep() runs it with n = 1, 2, ... until it completes with
# nothing failed: an events/enable write (one static key batch over
# every event's tracepoint), a set_event glob, a dynamic debug control
# write, and the queue and apply steps of test_static_key_batch_hold's
# static key and tracepoint batches.  Each attempt must return 0 or
# ENOMEM and leave no static key half switched (fail_nth_lib.sh), and
# once undone leave set_event, the keys it touched and the dynamic
# debug sites as before.  Then kmemleak must report nothing the batches
# allocated.

DIR=$(dirname "$(readlink -f "$0")")
. "$DIR/../kselftest/ktap_helpers.sh"
. "$DIR/fail_nth_lib.sh"

TRACEFS=/sys/kernel/tracing
HOLD=test_static_key_batch_hold
OWNER=test_static_key_batch_owner
DDCTL=/proc/dynamic_debug/control

# The holder keeps the owner while a batch is queued; the owner uses the
# holder's exports: discard, then unload the owner, then the holder.
unload_both() {
	[ -e /sys/module/$HOLD ] && echo discard > /sys/module/$HOLD/parameters/step
	rmmod $OWNER 2>/dev/null
	rmmod $HOLD 2>/dev/null
	return 0
}

cleanup() {
	echo 0 > $TRACEFS/events/enable 2>/dev/null
	unload_both
	rmmod test_dynamic_debug 2>/dev/null
	fail_nth_restore
}

ktap_print_header
trap cleanup EXIT
fail_nth_setup
mountpoint -q $TRACEFS || mount -t tracefs nodev $TRACEFS
modprobe test_dynamic_debug 2>/dev/null
ktap_set_plan 7

# Runs after each attempt: bash's own reads where they do, as each
# process started costs about a second under TCG.
state() {
	local l ev

	mapfile -t ev < $TRACEFS/set_event
	[ ${#ev[@]} -eq 0 ] || printf '%s\n' "${ev[@]}"
	fail_nth_keys
	grep test_dynamic_debug $DDCTL 2>/dev/null
	[ -r /sys/module/$HOLD/parameters/state ] &&
		read -r l < /sys/module/$HOLD/parameters/state && echo "$l"
}

# The first enable expands the ring buffers once: not part of the sweep.
echo 1 > $TRACEFS/events/enable
echo 0 > $TRACEFS/events/enable

undo_events() {
	echo 0 > $TRACEFS/events/enable
}
fail_nth_test "events/enable: each allocation failed in turn" \
	events_enable state undo_events : -- \
	write $TRACEFS/events/enable 1

# The subsystem with the most events, as a set_event glob.
SYS=$(sed 's/:.*//' $TRACEFS/available_events | sort | uniq -c | sort -rn |
      awk 'NR == 1 { print $2 }')
undo_glob() {
	echo "!$SYS:*" >> $TRACEFS/set_event
}
fail_nth_test "set_event glob $SYS:*: each allocation failed in turn" \
	set_event state undo_glob : -- \
	write $TRACEFS/set_event "$SYS:*"

if grep -q test_dynamic_debug $DDCTL 2>/dev/null; then
	undo_dyndbg() {
		echo "module test_dynamic_debug -p" > $DDCTL
	}
	fail_nth_test "dynamic debug control write: each allocation failed in turn" \
		dyndbg state undo_dyndbg : -- \
		write $DDCTL "module test_dynamic_debug +p"
else
	ktap_test_skip "dynamic debug control write (no test_dynamic_debug module)"
fi

if modprobe $OWNER && modprobe $HOLD; then
	unload_both
	load_both() {
		modprobe $OWNER && modprobe $HOLD
	}
	queue_key() {
		load_both && echo queue_key > /sys/module/$HOLD/parameters/step
	}
	queue_tp() {
		load_both && echo queue_tp > /sys/module/$HOLD/parameters/step
	}
	fail_nth_test "static key batch queue: each allocation failed in turn" \
		key_queue state unload_both load_both -- \
		write /sys/module/$HOLD/parameters/step queue_key
	fail_nth_test "static key batch apply: each allocation failed in turn" \
		key_apply state unload_both queue_key -- \
		write /sys/module/$HOLD/parameters/step apply
	fail_nth_test "tracepoint batch apply: each allocation failed in turn" \
		tp_apply state unload_both queue_tp -- \
		write /sys/module/$HOLD/parameters/step apply
else
	ktap_test_skip "static key batch queue (no $HOLD module)"
	ktap_test_skip "static key batch apply (no $HOLD module)"
	ktap_test_skip "tracepoint batch apply (no $HOLD module)"
fi

ktap_test_result "kmemleak: nothing of the batches leaked" \
	fail_nth_leaks 'jump_label|static_key|tracepoint|text_poke|ddebug|trace_event|event_enable'

ktap_finished
