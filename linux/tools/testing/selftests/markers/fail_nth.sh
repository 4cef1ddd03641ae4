#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# description: every allocation of a marker operation fails in turn, and
#	each time the operation fails cleanly or succeeds, and undoing it
#	leaves the state as it was
# requires: FAILSLAB, FAIL_PAGE_ALLOC, FAULT_INJECTION_DEBUG_FS,
#	marker-example.ko, probe-example.ko; CONFIG_MARKERS_BPF for the
#	raw_tp attach
#
# As static_keys/fail_nth.sh, with its helper: loading and unloading a
# module with markers (the markers core registers its sites, and the
# loading task creates their trace events), a probe module connecting
# and disconnecting probes one by one, markers_enable switching marker
# events in one static key batch and back, and a raw tracepoint BPF link
# on a marker.  Each attempt must return 0 or ENOMEM, and once undone
# leave the marker list, the static keys, set_event and the markers
# events as before.  Then kmemleak must report nothing markers allocated.

DIR=$(dirname "$(readlink -f "$0")")
FN_HELPER=$DIR/../static_keys/fail_nth
. "$DIR/../kselftest/ktap_helpers.sh"
. "$DIR/../static_keys/fail_nth_lib.sh"
. "$DIR/markers_lib.sh"

T=/sys/kernel/tracing
ME=$T/markers_enable

cleanup() {
	[ -e $ME ] && echo '!*' > $ME 2>/dev/null
	loaded probe-example && unload probe-example
	loaded marker-example && unload marker-example
	fail_nth_restore
}

ktap_print_header
[ -e "$DIR/../static_keys/fail_nth_lib.sh" ] ||
	markers_skip_all "static_keys selftests not installed beside markers"
fail_nth_setup
markers_require_trace
markers_require_modules marker-example probe-example
EXAMPLE=$(modinfo -n marker-example)
PROBE=$(modinfo -n probe-example)
trap cleanup EXIT
ktap_set_plan 8

state() {
	cat $FN_DEBUGFS/markers/list
	cat $FN_DEBUGFS/static_keys/keys
	cat $T/set_event
	ls $T/events/markers 2>/dev/null
}

load_example() {
	load marker-example
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

ktap_test_result "marker module load: each allocation failed in turn" \
	fail_nth_sweep load state unload_all : -- insmod "$EXAMPLE"
ktap_test_result "marker module unload: each allocation failed in turn" \
	fail_nth_sweep unload state unload_all load_example -- rmmod marker_example
ktap_test_result "probe register (probe module load): each allocation failed in turn" \
	fail_nth_sweep register state unload_all load_example -- insmod "$PROBE"
ktap_test_result "probe unregister (probe module unload): each allocation failed in turn" \
	fail_nth_sweep unregister state unload_all load_both -- rmmod probe_example
ktap_test_result "markers_enable, one batch: each allocation failed in turn" \
	fail_nth_sweep batch_register state disable_unload load_example -- \
	write $ME 'subsys_*'
ktap_test_result "markers_enable !glob, one batch: each allocation failed in turn" \
	fail_nth_sweep batch_unregister state disable_unload enable_subsys -- \
	write $ME '!subsys_*'
if grep -q ' bpf_get_raw_marker$' /proc/kallsyms; then
	ktap_test_result "raw_tp link on a marker: each allocation failed in turn" \
		fail_nth_sweep raw_tp state unload_all load_example -- rawtp subsys_mark1
else
	ktap_test_skip "raw_tp link on a marker (kernel without CONFIG_MARKERS_BPF)"
fi

ktap_test_result "kmemleak: nothing of markers leaked" \
	fail_nth_leaks 'marker|tm_|bpf_markers|jump_label|static_key|tracepoint'

ktap_finished
