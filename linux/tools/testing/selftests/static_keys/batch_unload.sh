#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# description: a static key batch and a tracepoint batch hold the module
#	of what they queued until they are applied or discarded
# requires: test_static_key_batch_hold.ko, test_static_key_batch_owner.ko
#
# test_static_key_batch_hold queues the key of test_static_key_batch_owner
# in a static key batch, and registers a probe on its tracepoint in a
# tracepoint batch.  Each batch must take one reference on the owner
# from the queue to the apply or discard, so that unloading the owner is
# refused meanwhile: the batch would switch its freed key or tracepoint.
# After it, the owner unloads.  The probe runs only once the tracepoint
# is switched on, by the apply or, one by one, by the discard.
#
# With fail-nth (FAILSLAB), a probe registered without a batch is then
# removed while the batch keeps the tracepoint's static call on it, each
# allocation of the removal failed in turn.

DIR=$(dirname "$0")
. "$DIR/../kselftest/ktap_helpers.sh"

HOLD=test_static_key_batch_hold
OWNER=test_static_key_batch_owner
P=/sys/module/$HOLD/parameters
FS=/sys/kernel/debug/failslab
FN_HELPER=$DIR/fail_nth

step() {
	echo "$1" > $P/step
}

refcnt() {
	cat /sys/module/$OWNER/refcnt
}

# param_is NAME WANT: the holder's parameter NAME reads WANT
param_is() {
	local got

	got=$(cat "$P/$1")
	[ "$got" = "$2" ] && return 0
	echo "# $1 \"$got\", want \"$2\""
	return 1
}

# state_is WANT: the holder's "owner key probe tracepoint hits" is WANT
state_is() {
	param_is state "$1"
}

# held N: the owner has N references and refuses to unload
held() {
	[ "$(refcnt)" = "$1" ] ||
		{ echo "# $OWNER refcnt $(refcnt), want $1"; return 1; }
	if rmmod $OWNER 2>/dev/null; then
		echo "# $OWNER unloaded while a batch held it"
		return 1
	fi
	[ -d /sys/module/$OWNER ] || { echo "# $OWNER gone"; return 1; }
}

# end_batches WHAT HOW QUEUED WANT: queue WHAT (queue_key, queue_tp or
# both), check the state QUEUED and that the owner is held, fire the
# tracepoint, end the batches with HOW (apply or discard), check the
# state WANT and that the owner is no longer held, fire again, then
# unload the owner
end_batches() {
	local what=$1 how=$2 queued=$3 want=$4 hits refs=0 w

	hits=$(cut -d' ' -f5 $P/state)
	modprobe $OWNER || { echo "# modprobe $OWNER failed"; return 1; }
	state_is "1 0 0 0 $hits" || return 1
	for w in $what; do
		step "$w" || { echo "# step $w failed"; return 1; }
		refs=$((refs + 1))
	done
	state_is "$queued $hits" || return 1
	held $refs || return 1
	# Queued, not applied: the probe is not called yet.
	step fire || return 1
	state_is "$queued $hits" || return 1
	step "$how" || { echo "# step $how failed"; return 1; }
	[ "$(refcnt)" = 0 ] || { echo "# $OWNER still held after $how"; return 1; }
	state_is "$want $hits" || return 1
	step fire || return 1
	if [ "${want##* }" = 1 ]; then
		hits=$((hits + 1))
	fi
	state_is "$want $hits" || return 1
	rmmod $OWNER || { echo "# rmmod $OWNER failed after $how"; return 1; }
	state_is "0 0 0 0 $hits"
}

# fs_set: fail-nth reaches GFP_KERNEL allocations, quietly; fs_restore
# puts failslab back as it was (also from the EXIT trap).
FS_SAVED=
fs_set() {
	FS_SAVED="$(cat $FS/ignore-gfp-wait) $(cat $FS/verbose)"
	echo N > $FS/ignore-gfp-wait
	echo 0 > $FS/verbose
}

fs_restore() {
	[ -n "$FS_SAVED" ] || return 0
	echo "${FS_SAVED% *}" > $FS/ignore-gfp-wait
	echo "${FS_SAVED#* }" > $FS/verbose
	FS_SAVED=
}

# hits: the second probe's hits and the first's, "plain first"
hits() {
	echo "$(cut -d' ' -f2 $P/plain) $(cut -d' ' -f5 $P/state)"
}

# stub_leaves: a probe registered without a batch (plain_tp) and one
# queued in the tracepoint batch make two, and the batch leaves the
# static call on the first until its apply (a hit calls only the
# first).  The first is removed without a batch (unplain_tp) with its
# N-th fault point failed, N = 1, 2, ... until nothing fails.  Either
# the removal fails with ENOMEM and the probe stays, or it returns 0 and
# the probe is never called again: where the smaller probe array cannot
# be allocated, the tracepoint code stubs the probe out in place, and
# the static call must no longer reach it.
stub_leaves() {
	local n=1 out h stubbed=0 done=0

	modprobe $OWNER || { echo "# modprobe $OWNER failed"; return 1; }
	fs_set
	while [ $n -le 100 ]; do
		step plain_tp && step queue_tp || { echo "# setup failed"; break; }
		read -r -a h <<< "$(hits)"
		step fire
		[ "$(hits)" = "$((h[0] + 1)) ${h[1]}" ] ||
			{ echo "# hits \"$(hits)\" after one, want the first probe's only"; break; }
		out=$("$FN_HELPER" $n write $P/step unplain_tp) ||
			{ echo "# fail_nth: $out"; break; }
		read -r -a h <<< "$(hits)"
		step fire
		case $out in
		"ok 0 injected="[01]*)
			param_is plain "0 ${h[0]}" || { echo "# n=$n: $out"; break; } ;;
		"err ENOMEM injected=1"*)
			[ "$(cut -d' ' -f1 $P/plain)" = 1 ] ||
				{ echo "# n=$n: $out, probe gone"; break; }
			step unplain_tp ;;
		*)	echo "# n=$n: $out"; break ;;
		esac
		step discard && step unqueue_tp || { echo "# undo failed"; break; }
		case $out in
		"ok 0 injected=1"*) stubbed=$((stubbed + 1)) ;;
		"ok 0 injected=0"*) done=1; break ;;
		esac
		n=$((n + 1))
	done
	fs_restore
	[ $done = 1 ] || { echo "# stopped at n=$n"; return 1; }
	echo "# $stubbed removal(s) returned 0 with a fault injected"
	[ $stubbed -gt 0 ] || { echo "# no removal stubbed the probe out"; return 1; }
	rmmod $OWNER
}

# cleanup: after a failed step, end any open batch and unload the owner
cleanup() {
	step discard 2>/dev/null
	rmmod $OWNER 2>/dev/null
	true
}

# run NAME FUNC: one test case, then clean up after it
run() {
	ktap_test_result "$1" "$2"
	cleanup
}

# The cases, one function each (ktap_test_result splits its arguments).
key_apply() {
	end_batches queue_key apply "1 0 0 0" "1 1 0 0"
}

key_discard() {
	end_batches queue_key discard "1 0 0 0" "1 0 0 0"
}

tp_apply() {
	end_batches queue_tp apply "1 0 1 0" "1 0 1 1"
}

# The discard switches the tracepoint on its own: the registration stands.
tp_discard() {
	end_batches queue_tp discard "1 0 1 0" "1 0 1 1"
}

both_apply() {
	end_batches "queue_key queue_tp" apply "1 0 1 0" "1 1 1 1"
}

skip_all() {
	ktap_skip_all "$1"
	exit "$KSFT_SKIP"
}

ktap_print_header
[ "$(id -u)" = 0 ] || skip_all "must run as root"
[ -r /proc/modules ] || skip_all "no module support"
modprobe -n -q $HOLD ||
	skip_all "no $HOLD module (CONFIG_TEST_STATIC_KEY_BATCH_UNLOAD=n?)"
if ! modprobe $HOLD; then
	ktap_print_msg "modprobe $HOLD failed"
	ktap_exit_fail_msg "cannot load $HOLD"
fi
trap 'fs_restore; cleanup; rmmod $HOLD' EXIT

ktap_set_plan 6
run "static key batch: unload refused until the apply" key_apply
run "static key batch: unload refused until the discard" key_discard
run "tracepoint batch: unload refused until the apply" tp_apply
run "tracepoint batch: unload refused until the discard" tp_discard
run "both batches: unload refused until one apply" both_apply
T6="tracepoint batch: a probe stubbed out leaves the static call"
if [ ! -e /proc/thread-self/fail-nth ] || [ ! -d $FS ]; then
	ktap_test_skip "$T6 (no FAILSLAB or FAULT_INJECTION_DEBUG_FS)"
elif [ ! -x "$FN_HELPER" ]; then
	ktap_test_skip "$T6 (fail_nth helper not built)"
elif zgrep -qE '^CONFIG_CFI(_CLANG)?=y' /proc/config.gz 2>/dev/null; then
	# The iterator calls tp_stub_func(void) as a probe: a CFI trap.
	ktap_test_skip "$T6 (CFI kernel: tp_stub_func is not of a probe's type)"
else
	run "$T6" stub_leaves
fi
ktap_finished
