#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# description: ftrace's own tools on marker events, by field name:
#	filters, triggers, histograms, synthetic events, eprobes, snapshot
# requires: events/markers, marker-example.ko, hist triggers,
#	synthetic_events, eprobes
#
# Drives samples/markers/marker-example.c: opening its trigger file hits
# subsys_mark1 ("nr=%d file=%p"); each read() hits subsys_mark2
# ("comm=%s") and subsys_mark3 ("reads=%llu count=%lx", the module's read
# count and the read size).  "dd bs=N count=1" opens the file and reads
# it once with count N, in one task.  MARKERS_MODDIR may name a directory
# of the .ko files.

DIR=$(dirname "$0")
. "$DIR/../kselftest/ktap_helpers.sh"
. "$DIR/markers_lib.sh"

T=/sys/kernel/tracing
EV=$T/events/markers
TRIGGER=/sys/kernel/debug/marker-example/trigger
SAVE='hist:keys=common_pid:ts0=common_timestamp.usecs:nr0=nr'
MATCH='hist:keys=common_pid:lat=common_timestamp.usecs-$ts0:'
MATCH+='onmatch(markers.subsys_mark1).trace(mark_lat,$lat,$nr0)'
EPROBE='e:mgrp/mark3 markers.subsys_mark3 cnt=$count:u64 rd=$reads:u64'
EPROBE_STR='e:mgrp/mark2 markers.subsys_mark2 who=$comm:string'

# hit N: open the trigger file and read N bytes once
hit() {
	dd if=$TRIGGER of=/dev/null bs="$1" count=1 2>/dev/null
}

# has FILE PATTERN: FILE holds a line matching the extended regex
has() {
	grep -qE "$2" "$1" ||
		{ echo "# no /$2/ in $1:"; sed 's/^/#   /' "$1" | tail -8; return 1; }
}

# Every trigger of every markers event, the dynamic events, the
# synthetic event and the snapshot are removed; triggers that reference
# others first.
cleanup() {
	local d t

	echo 0 > $T/tracing_on
	[ -d $T/events/mgrp ] && echo 0 > $T/events/mgrp/enable
	[ -d $T/events/synthetic/mark_lat ] &&
		echo 0 > $T/events/synthetic/mark_lat/enable
	echo "!$MATCH" > $EV/subsys_mark3/trigger 2>/dev/null
	for d in "$EV"/subsys_mark*/; do
		while read -r t _; do
			case "$t" in
			\#*|"") ;;
			*) echo "!$t" > "$d/trigger" ;;
			esac
		done < "$d/trigger"
		echo 0 > "$d/filter"
		echo 0 > "$d/enable"
	done
	echo '-:mgrp/mark3' >> $T/dynamic_events 2>/dev/null
	echo '-:mgrp/mark2' >> $T/dynamic_events 2>/dev/null
	echo '!mark_lat u64 lat; int nr' >> $T/synthetic_events 2>/dev/null
	[ -e $T/snapshot ] && echo 0 > $T/snapshot
	echo > $T/trace
	echo 1 > $T/tracing_on
}

ktap_print_header

markers_require_trace
[ -e $T/synthetic_events ] ||
	markers_skip_all "kernel without CONFIG_HIST_TRIGGERS and CONFIG_SYNTH_EVENTS"
grep -qF 'e[:[<group>/][<event>]]' $T/README ||
	markers_skip_all "kernel without CONFIG_EPROBE_EVENTS"
[ -e $T/snapshot ] || markers_skip_all "kernel without CONFIG_TRACER_SNAPSHOT"
markers_require_modules marker-example
load marker-example
trap 'cleanup; unload marker-example' EXIT

ktap_set_plan 8

test_filter_names() {
	echo > $T/trace
	echo 'count == 0x20 && reads > 0' > $EV/subsys_mark3/filter || return 1
	echo 'comm ~ "d*"' > $EV/subsys_mark2/filter || return 1
	echo 1 > $EV/subsys_mark3/enable
	echo 1 > $EV/subsys_mark2/enable
	hit 16
	hit 32
	echo 0 > $EV/subsys_mark3/enable
	echo 0 > $EV/subsys_mark2/enable
	echo 0 > $EV/subsys_mark3/filter
	echo 0 > $EV/subsys_mark2/filter
	has $T/trace ' subsys_mark3: reads=[0-9]+ count=20$' &&
		! grep -q 'count=10$' $T/trace &&
		[ "$(grep -c ' subsys_mark2: comm=dd$' $T/trace)" = 2 ]
}
ktap_test_result "filters by field name, numbers and strings" test_filter_names

test_trigger_names() {
	echo > $T/trace
	echo 'snapshot if count == 0x30' > $EV/subsys_mark3/trigger || return 1
	echo 1 > $EV/subsys_mark3/enable
	hit 16
	hit 48
	hit 64
	echo 0 > $EV/subsys_mark3/enable
	echo '!snapshot if count == 0x30' > $EV/subsys_mark3/trigger
	# The snapshot was taken at the 48-byte read: it ends with it.
	has $T/snapshot ' subsys_mark3: reads=[0-9]+ count=30$' &&
		! grep -q 'count=40$' $T/snapshot &&
		has $T/trace ' subsys_mark3: reads=[0-9]+ count=40$'
}
ktap_test_result "snapshot trigger on a field name" test_trigger_names

test_hist_num() {
	local i

	echo 'hist:keys=count:vals=hitcount,reads:sort=count' > $EV/subsys_mark3/trigger ||
		return 1
	for i in 1 2 3; do hit 16; done
	for i in 1 2; do hit 32; done
	sed 's/^/# /' $EV/subsys_mark3/hist | grep -v '^# #' | grep .
	has $EV/subsys_mark3/hist '^\{ count: +16 \} hitcount: +3 ' &&
		has $EV/subsys_mark3/hist '^\{ count: +32 \} hitcount: +2 ' &&
		has $EV/subsys_mark3/hist '^ *Hits: 5$'
	local ret=$?
	echo '!hist:keys=count:vals=hitcount,reads:sort=count' > $EV/subsys_mark3/trigger
	return $ret
}
ktap_test_result "hist trigger keyed on a marker field" test_hist_num

test_hist_str() {
	echo 'hist:keys=comm' > $EV/subsys_mark2/trigger || return 1
	hit 8
	hit 8
	has $EV/subsys_mark2/hist '^\{ comm: dd +\} hitcount: +2$'
	local ret=$?
	echo '!hist:keys=comm' > $EV/subsys_mark2/trigger
	return $ret
}
ktap_test_result "hist trigger keyed on a marker string field" test_hist_str

# mark_lat: the time from a task's open of the trigger file (subsys_mark1)
# to its read (subsys_mark3), with subsys_mark1's nr field carried over
test_synthetic() {
	echo 'mark_lat u64 lat; int nr' >> $T/synthetic_events || return 1
	echo "$SAVE" > $EV/subsys_mark1/trigger || return 1
	echo "$MATCH" > $EV/subsys_mark3/trigger || return 1
	echo > $T/trace
	echo 1 > $T/events/synthetic/mark_lat/enable
	hit 8
	hit 8
	echo 0 > $T/events/synthetic/mark_lat/enable
	grep ' mark_lat: ' $T/trace | sed 's/^/# /'
	[ "$(grep -cE ' mark_lat: lat=[0-9]+ nr=1$' $T/trace)" = 2 ]
	local ret=$?
	echo "!$MATCH" > $EV/subsys_mark3/trigger
	echo "!$SAVE" > $EV/subsys_mark1/trigger
	echo '!mark_lat u64 lat; int nr' >> $T/synthetic_events
	return $ret
}
ktap_test_result "synthetic event: latency between two markers" test_synthetic

# eprobe DEFINITION EVENT PATTERN: the eprobe EVENT (mgrp/<name>) defined
# by DEFINITION records a line matching PATTERN for a 24-byte read
eprobe() {
	echo "$1" >> $T/dynamic_events ||
		{ tail -n 3 $T/error_log | sed 's/^/# /'; return 1; }
	echo > $T/trace
	echo 1 > $T/events/$2/enable
	hit 24
	echo 0 > $T/events/$2/enable
	grep " ${2#mgrp/}: " $T/trace | sed 's/^/# /'
	has $T/trace "$3"
	local ret=$?
	echo "-:$2" >> $T/dynamic_events
	return $ret
}

# (ktap_test_result splits its arguments at spaces)
test_eprobe() {
	eprobe "$EPROBE" mgrp/mark3 \
		' mark3: \(markers.subsys_mark3\) cnt=24 rd=[1-9][0-9]*$'
}
ktap_test_result "eprobe on a marker event, numeric fields" test_eprobe

test_eprobe_str() {
	eprobe "$EPROBE_STR" mgrp/mark2 ' mark2: \(markers.subsys_mark2\) who="dd"$'
}
ktap_test_result "eprobe on a marker event, string field" test_eprobe_str

# An eprobe holds the event it reads, as it holds a module's own events
# or a kprobe event: the marker's module may go, the event stays until
# the eprobe is deleted, and deleting it then puts what it took.  The
# event used to go with the module, and the put then read freed memory
# (a WARN in trace_dynevent.c when that memory held a dynamic event).
test_eprobe_unload() {
	local warns ret=0

	warns=$(dmesg | grep -c 'WARNING:.*trace_dynevent')
	echo "$EPROBE" >> $T/dynamic_events || return 1
	unload marker-example || { echo "# rmmod marker-example failed"; ret=1; }
	[ -d $EV/subsys_mark3 ] ||
		{ echo "# markers/subsys_mark3 removed under its eprobe"; ret=1; }
	echo '-:mgrp/mark3' >> $T/dynamic_events || ret=1
	[ "$(dmesg | grep -c 'WARNING:.*trace_dynevent')" = "$warns" ] ||
		{ dmesg | grep -A3 'WARNING:.*trace_dynevent' | tail -4 |
			sed 's/^/# /'; ret=1; }
	load marker-example || ret=1
	# back with its module, the event records again
	eprobe "$EPROBE" mgrp/mark3 \
		' mark3: \(markers.subsys_mark3\) cnt=24 rd=[1-9][0-9]*$' || ret=1
	return $ret
}
ktap_test_result "eprobe keeps its marker event through an rmmod" test_eprobe_unload

ktap_finished
