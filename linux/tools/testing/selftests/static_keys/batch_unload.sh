#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# description: a static key batch and a tracepoint batch hold the module
#	of what they queued until they are applied or discarded
# requires: test_static_key_batch_hold.ko, test_static_key_batch_owner.ko
#
# test_static_key_batch_hold queues the key of test_static_key_batch_owner
# in a static key batch and registers a probe on its tracepoint in a
# tracepoint batch.  Between that and the apply (or the discard), the
# owner must refuse to unload: the batches would switch its freed key and
# tracepoint.  After it, the owner unloads.  The probe runs only once the
# tracepoint is switched on, by the apply or, one by one, by the discard.

DIR=$(dirname "$0")
. "$DIR/../kselftest/ktap_helpers.sh"

HOLD=test_static_key_batch_hold
OWNER=test_static_key_batch_owner
P=/sys/module/$HOLD/parameters

step() {
	echo "$1" > $P/step
}

# state_is WANT: the holder's "owner key probe tracepoint hits" is WANT
state_is() {
	local got

	got=$(cat $P/state)
	[ "$got" = "$1" ] && return 0
	echo "# state \"$got\", want \"$1\""
	return 1
}

# unload_refused: rmmod of the owner fails and leaves it loaded
unload_refused() {
	if rmmod $OWNER 2>/dev/null; then
		echo "# $OWNER unloaded while a batch held it"
		return 1
	fi
	[ -d /sys/module/$OWNER ] || { echo "# $OWNER gone"; return 1; }
	echo "# rmmod $OWNER refused, refcnt $(cat /sys/module/$OWNER/refcnt)"
}

# end_batches HOW WANT: queue, try to unload the owner, end the batches
# with HOW (apply or discard), check the state WANT, fire the tracepoint
# once, then unload the owner
end_batches() {
	local how=$1 want=$2

	modprobe $OWNER || { echo "# modprobe $OWNER failed"; return 1; }
	state_is "1 0 0 0 0" || return 1
	step queue || return 1
	state_is "1 0 1 0 0" || return 1
	unload_refused || return 1
	# Queued, not applied: the probe is not called yet.
	step fire || return 1
	state_is "1 0 1 0 0" || return 1
	step "$how" || return 1
	[ "$(cat /sys/module/$OWNER/refcnt)" = 0 ] ||
		{ echo "# $OWNER still held after $how"; return 1; }
	state_is "$want 0" || return 1
	step fire || return 1
	state_is "$want 1" || return 1
	rmmod $OWNER || { echo "# rmmod $OWNER failed after $how"; return 1; }
	state_is "0 0 0 0 1"
}

test_apply() {
	end_batches apply "1 1 1 1"
}

# The discard drops the queued key change; the registration stands, its
# tracepoint switched on its own.
test_discard() {
	end_batches discard "1 0 1 1"
}

skip_all() {
	ktap_skip_all "$1"
	exit "$KSFT_SKIP"
}

ktap_print_header
[ -r /proc/modules ] || skip_all "no module support"
modprobe $HOLD 2>/dev/null ||
	skip_all "no $HOLD module (CONFIG_TEST_STATIC_KEY_BATCH_UNLOAD=n?)"
# After a failed step, end any open batch before unloading.
trap 'step discard; rmmod $OWNER 2>/dev/null; rmmod $HOLD' EXIT

ktap_set_plan 2
ktap_test_result "unload refused between queue and apply, then allowed" test_apply
# A fresh holder: its hit count starts at 0 again.
rmmod $HOLD && modprobe $HOLD
ktap_test_result "unload refused between queue and discard, then allowed" test_discard
ktap_finished
