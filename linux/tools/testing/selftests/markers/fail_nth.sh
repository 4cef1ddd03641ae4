#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# description: every allocation of a marker operation fails in turn, and
#	each time the operation fails cleanly or succeeds, and undoing it
#	leaves the state as it was
# requires: FAILSLAB, FAIL_PAGE_ALLOC, FAULT_INJECTION_DEBUG_FS,
#	marker-example.ko, probe-example.ko; CONFIG_MARKERS_BPF and a BPF
#	filesystem at /sys/fs/bpf for the raw_tp attach
#
# As static_keys/fail_nth.sh, with its helper: loading and unloading a
# module with markers (the markers core registers its sites, and the
# loading task creates their trace events), a probe module connecting
# and disconnecting probes one by one, markers_enable switching marker
# events in one static key batch and back, and a raw tracepoint BPF link
# on a marker (pinned, so that the checks before the undo see it
# attached).  Each attempt must return 0 or ENOMEM and leave no static
# key half switched, and once undone leave the marker list, the static
# keys it touched, set_event and the markers events as before.  Then
# kmemleak must report nothing markers allocated.

DIR=$(dirname "$(readlink -f "$0")")
FN_HELPER=$DIR/../static_keys/fail_nth
. "$DIR/../kselftest/ktap_helpers.sh"
. "$DIR/markers_lib.sh"
[ -e "$DIR/../static_keys/fail_nth_lib.sh" ] ||
	markers_skip_all "static_keys selftests (fail_nth) not installed beside markers"
. "$DIR/../static_keys/fail_nth_lib.sh"

T=/sys/kernel/tracing
ME=$T/markers_enable
PIN=/sys/fs/bpf/markers_fail_nth_raw_tp

cleanup() {
	[ -e $ME ] && echo '!*' > $ME 2>/dev/null
	rm -f $PIN
	loaded probe-example && unload probe-example
	loaded marker-example && unload marker-example
	fail_nth_restore
}

# modpath MODULE: the module's file, as load() finds it
modpath() {
	modinfo -n "$1" 2>/dev/null && return 0
	[ -n "$MARKERS_MODDIR" ] && [ -e "$MARKERS_MODDIR/$1.ko" ] &&
		echo "$MARKERS_MODDIR/$1.ko"
}

ktap_print_header
markers_require_trace
markers_require_modules marker-example probe-example
EXAMPLE=$(modpath marker-example)
PROBE=$(modpath probe-example)
[ -n "$EXAMPLE" ] && [ -n "$PROBE" ] ||
	markers_skip_all "marker-example.ko or probe-example.ko not found"
trap cleanup EXIT
fail_nth_setup
ktap_set_plan 8

state() {
	cat $FN_DEBUGFS/markers/list
	fail_nth_keys
	cat $T/set_event
	ls $T/events/markers 2>/dev/null
}

# Before each undo (fail_nth_lib.sh's fn_half): a marker event that
# set_event lists has a probe on its marker.
markers_half() {
	awk 'FILENAME == ARGV[1] { if (sub(/^markers:/, "")) ev[$0] = 1; next }
	     ($1 in ev) && / enabled=0 / { print "event markers:" $1 " listed: " $0; bad = 1 }
	     END { exit bad }' $T/set_event $FN_DEBUGFS/markers/list
}
FN_HALF_EXTRA=markers_half

load_example() {
	load marker-example
}
# every marker of marker-example with sites has its event
example_events() {
	local m

	for m in $(awk '/owners=.*marker_example/ && !/ sites=0 / { print $1 }' \
		   $FN_DEBUGFS/markers/list); do
		[ -d $T/events/markers/$m ] || return 1
	done
}
# what example_events misses, and what the event core and the log say
example_missing() {
	local m

	for m in $(awk '/owners=.*marker_example/ && !/ sites=0 / { print $1 }' \
		   $FN_DEBUGFS/markers/list); do
		[ -d $T/events/markers/$m ] && continue
		echo "# no events/markers/$m/; in available_events:" \
		     "$(grep -c "^markers:$m\$" $T/available_events)"
	done
	dmesg | tail -n 5 | sed 's/^/# dmesg: /'
}
# after a load: its events exist (maybe from the work item's retry)
check_unload() {
	if [ "$1" = ok ] && ! wait_for example_events; then
		echo "# marker-example loaded without all its events"
		example_missing
		return 1
	fi
	unload_all
}
unload_all() {
	loaded probe-example && unload probe-example
	loaded marker-example && unload marker-example
	return 0
}
load_both() {
	load marker-example && load probe-example
}
enable_subsys() {
	load marker-example && echo 'subsys_*' > $ME
}
disable_unload() {
	echo '!subsys_*' > $ME
	unload_all
}
# no_probe MARKER: no probe on MARKER, or no such marker (a raw_tp link
# released when its pin is removed goes from a work item)
no_probe() {
	! grep -q "^$1 " $FN_DEBUGFS/markers/list ||
		grep -Eq "^$1 .* enabled=[01] probes=0 owners=" $FN_DEBUGFS/markers/list
}
unpin_unload() {
	rm -f $PIN
	wait_for no_probe subsys_mark1 ||
		{ echo "# the raw_tp link's probe stayed on subsys_mark1"; return 1; }
	unload_all
}

fail_nth_test "marker module load: each allocation failed in turn" \
	load state check_unload : -- insmod "$EXAMPLE"
fail_nth_test "marker module unload: each allocation failed in turn" \
	unload state unload_all load_example -- rmmod marker_example
fail_nth_test "probe register (probe module load): each allocation failed in turn" \
	register state unload_all load_example -- insmod "$PROBE"
fail_nth_test "probe unregister (probe module unload): each allocation failed in turn" \
	unregister state unload_all load_both -- rmmod probe_example
fail_nth_test "markers_enable, one batch: each allocation failed in turn" \
	batch_register state disable_unload load_example -- \
	write $ME 'subsys_*'
fail_nth_test "markers_enable !glob, one batch: each allocation failed in turn" \
	batch_unregister state disable_unload enable_subsys -- \
	write $ME '!subsys_*'
if grep -q ' bpf_get_raw_marker$' /proc/kallsyms; then
	mountpoint -q /sys/fs/bpf || mount -t bpf none /sys/fs/bpf
	rm -f $PIN
	if ! mountpoint -q /sys/fs/bpf; then
		ktap_test_skip "raw_tp link on a marker (no BPF filesystem at /sys/fs/bpf)"
	elif ! wait_for no_probe subsys_mark1; then
		ktap_test_fail "raw_tp link on a marker: a probe stayed on subsys_mark1 from before"
	else
		fail_nth_test "raw_tp link on a marker: each allocation failed in turn" \
			raw_tp state unpin_unload load_example -- \
			rawtp subsys_mark1 $PIN
	fi
else
	ktap_test_skip "raw_tp link on a marker (kernel without CONFIG_MARKERS_BPF)"
fi

ktap_test_result "kmemleak: nothing of markers leaked" \
	fail_nth_leaks 'marker|tm_|bpf_markers|jump_label|static_key|tracepoint'

ktap_finished
