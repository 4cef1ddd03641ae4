#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# description: markers connect to probes by name in any load order
# requires: /sys/kernel/debug/markers/list, marker-example.ko, probe-example.ko
#
# Loads samples/markers in each order, hits the sites from user space,
# checks the hit counts and the debugfs listing, and unloads modules
# while probes are connected.  probe-example also counts tracepoints,
# connected by name: sched_switch, and foo_bar of samples/trace_events
# (trace-events-sample.ko, which fires it once a second) as its module
# comes and goes.  MARKERS_MODDIR may name a directory of
# the .ko files when modprobe cannot find them.

DIR=$(dirname "$0")
. "$DIR/../kselftest/ktap_helpers.sh"
. "$DIR/markers_lib.sh"

DEBUGFS=/sys/kernel/debug
LIST=$DEBUGFS/markers/list
TRIGGER=$DEBUGFS/marker-example/trigger
COUNTS=$DEBUGFS/probe-example/counts
TPS=$DEBUGFS/markers/tracepoints

cleanup() {
	loaded probe-example && unload probe-example
	loaded trace-events-sample && unload trace-events-sample
	loaded marker-example && unload marker-example
}

# count NAME: hits of NAME in probe-example's counts, -1 if absent
count() {
	awk -v n="$1" 'BEGIN { c = -1 } $1 == n { c = $2 } END { print c }' \
		"$COUNTS" 2>/dev/null || echo -1
}

# listed NAME FIELD=VALUE...: the listing line of NAME has each field
listed() {
	local name=$1 line f

	shift
	line=$(grep "^$name " "$LIST") || return 1
	for f in "$@"; do
		case " $line " in
		*" $f "*) ;;
		*) echo "# $LIST: $line (expected $f)"; return 1 ;;
		esac
	done
}

hit() {
	local i

	for i in $(seq "$1"); do
		cat "$TRIGGER" >/dev/null || return 1
	done
}

ktap_print_header

[ "$(id -u)" -eq 0 ] || markers_skip_all "must run as root"
mountpoint -q $DEBUGFS || mount -t debugfs none $DEBUGFS
[ -e "$LIST" ] || markers_skip_all "no $LIST: kernel without CONFIG_MARKERS"
markers_require_modules marker-example probe-example
trap cleanup EXIT

ktap_set_plan 12

test_mode() {
	[ "$(stat -c %a "$LIST")" = 400 ]
}
ktap_test_result "listing is root only" test_mode

test_site_first() {
	load marker-example || return 1
	listed subsys_mark1 'format="nr=%d' 'file=%p"' sites=1 enabled=0 probes=0 \
		owners=marker_example || return 1
	hit 1 || return 1
	load probe-example || return 1
	listed subsys_mark1 sites=1 enabled=1 probes=1 || return 1
	listed subsys_mark4 'format="' '"' sites=1 enabled=1 probes=1 || return 1
	hit 2 || return 1
	[ "$(count subsys_mark1)" -eq 2 ] && [ "$(count subsys_mark4)" -eq 2 ] &&
		[ "$(count subsys_mark2)" -ge 2 ] &&
		[ "$(count subsys_mark3)" -eq "$(count subsys_mark2)" ]
}
ktap_test_result "sites then probe: each open counted once" test_site_first

test_site_module_goes() {
	unload marker-example || return 1
	listed subsys_mark1 sites=0 enabled=1 probes=1 owners=- || return 1
	[ "$(count subsys_mark1)" -eq 2 ]
}
ktap_test_result "site module unloads while connected" test_site_module_goes

test_site_module_returns() {
	load marker-example || return 1
	listed subsys_mark1 sites=1 enabled=1 probes=1 || return 1
	hit 3 || return 1
	[ "$(count subsys_mark1)" -eq 5 ]
}
ktap_test_result "site module reloads: probe reconnects" \
	test_site_module_returns

test_probe_goes() {
	unload probe-example || return 1
	listed subsys_mark1 sites=1 enabled=0 probes=0 || return 1
	hit 1
}
ktap_test_result "probe module unloads: sites switched off" test_probe_goes

test_probe_first() {
	unload marker-example || return 1
	! grep -q "^subsys_mark1 " "$LIST" || return 1
	load probe-example || return 1
	listed subsys_mark1 'format=""' sites=0 probes=1 || return 1
	load marker-example || return 1
	listed subsys_mark1 sites=1 enabled=1 probes=1 || return 1
	hit 1 || return 1
	[ "$(count subsys_mark1)" -eq 1 ] && [ "$(count subsys_mark4)" -eq 1 ]
}
ktap_test_result "probe pending, then sites load and connect" \
	test_probe_first

test_unload_all() {
	unload probe-example && unload marker-example || return 1
	! grep -q "^subsys_mark" "$LIST"
}
ktap_test_result "both unloaded: markers gone from the listing" \
	test_unload_all

test_param() {
	load probe-example markers=subsys_mark3 || return 1
	load marker-example || return 1
	hit 2 || return 1
	[ "$(wc -l < "$COUNTS")" -eq 1 ] && [ "$(count subsys_mark3)" -ge 2 ] &&
		listed subsys_mark1 enabled=0 probes=0
}
ktap_test_result "probe-example markers= selects markers" test_param

test_reverse_unload() {
	unload marker-example || return 1
	listed subsys_mark3 sites=0 probes=1 || return 1
	unload probe-example || return 1
	! grep -q "^subsys_mark" "$LIST"
}
ktap_test_result "sites unload first, then probe" test_reverse_unload

test_churn() {
	local i

	for i in $(seq 5); do
		load marker-example && load probe-example || return 1
		hit 1 || return 1
		[ "$(count subsys_mark1)" -eq 1 ] || return 1
		unload marker-example && unload probe-example || return 1
	done
	! grep -q "^subsys_mark" "$LIST"
}
ktap_test_result "load and unload five times" test_churn

# tpline NAME FIELDS: the line of tracepoint NAME starts with FIELDS
tpline() {
	grep -q "^$1 $2 proto=\"" "$TPS" && return 0
	echo "# $TPS: $(grep "^$1 " "$TPS") (expected $2)"
	return 1
}

# A probe connects to a tracepoint by its name, as to a marker.
test_tracepoint() {
	tpline sched_switch "owner=vmlinux probes=0" || return 1
	load probe-example markers=sched_switch || return 1
	tpline sched_switch "owner=vmlinux probes=1" || return 1
	listed sched_switch sites=0 enabled=1 probes=1 owners=tracepoint ||
		return 1
	sleep 0.1
	[ "$(count sched_switch)" -gt 0 ] || return 1
	unload probe-example || return 1
	tpline sched_switch "owner=vmlinux probes=0" &&
		listed sched_switch enabled=0 probes=0
}
if [ -e "$TPS" ]; then
	ktap_test_result "probe connects to tracepoint sched_switch by name" \
		test_tracepoint
else
	ktap_test_skip "no $TPS: kernel without CONFIG_MARKERS_TRACEPOINTS"
fi

# A module's tracepoint: probes wait for its name, connect when the
# module comes, and wait again when it goes, in either load order.
test_module_tracepoint() {
	load probe-example markers=foo_bar || return 1
	listed foo_bar 'format=""' sites=0 probes=1 owners=- || return 1
	load trace-events-sample || return 1
	tpline foo_bar "owner=trace_events_sample probes=1" || return 1
	listed foo_bar sites=0 enabled=1 probes=1 owners=tracepoint || return 1
	sleep 2
	[ "$(count foo_bar)" -gt 0 ] || return 1
	unload trace-events-sample || return 1
	! grep -q "^foo_bar " "$TPS" || return 1
	listed foo_bar 'format=""' probes=1 owners=- || return 1
	unload probe-example || return 1
	! grep -q "^foo_bar " "$LIST" || return 1
	# Tracepoint first, probe last out: the marker stays bound until
	# the tracepoint goes.
	load trace-events-sample && load probe-example markers=foo_bar ||
		return 1
	tpline foo_bar "owner=trace_events_sample probes=1" || return 1
	unload probe-example || return 1
	listed foo_bar enabled=0 probes=0 owners=tracepoint || return 1
	unload trace-events-sample || return 1
	! grep -q "^foo_bar " "$LIST"
}
if [ ! -e "$TPS" ]; then
	ktap_test_skip "no $TPS: kernel without CONFIG_MARKERS_TRACEPOINTS"
elif ! load trace-events-sample; then
	ktap_test_skip "no trace-events-sample.ko (CONFIG_SAMPLE_TRACE_EVENTS=m)"
elif ! unload trace-events-sample; then
	ktap_test_fail "trace-events-sample does not unload"
else
	ktap_test_result "module tracepoint foo_bar: probes follow its module" \
		test_module_tracepoint
fi

ktap_finished
