#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# description: owners removed under their users: a marker module unloaded
#	under eprobes, triggers, synthetic events and perf events on its
#	events; an instance removed and links closed while a hit is in flight
# requires: events/markers, marker-example.ko, marker-decode.ko,
#	test_markers_hold.ko (CONFIG_TEST_MARKERS_HOLD), taskset
#
# A marker event may be used by what its module knows nothing of: an
# eprobe, an enable_event trigger on another event, a hist trigger, a
# synthetic event, a perf event.  Each holds the event through an rmmod
# of the markers' module, works again once the module is back, and lets
# the event go when it is removed, module present or not.
#
# What a probe uses must outlive the hits in flight.  test_markers_hold
# connects a probe to a marker before the probe under test and holds the
# first hit in it, on CPU 0, while this script removes from CPU 1 what
# the next probe of the same hit uses: a trace instance (other hits
# firing on CPU 1 meanwhile), a raw tracepoint link, a perf event's BPF
# program.  The removal must not return before the hold ends; if it did,
# the held hit's next probe would run on what it freed.  Run on a KASAN
# kernel, that also shows as a use-after-free report.
# MARKERS_MODDIR may name a directory of the .ko files.

DIR=$(dirname "$(readlink -f "$0")")
. "$DIR/../kselftest/ktap_helpers.sh"
. "$DIR/markers_lib.sh"

T=/sys/kernel/tracing
EV=$T/events/markers
TRIGGER=/sys/kernel/debug/marker-example/trigger
DECODE=/sys/kernel/debug/marker-decode/trigger
HOLD=/sys/module/test_markers_hold/parameters
INST=$T/instances/markers_owners
EPROBE='e:ogrp/mark3 markers.subsys_mark3 cnt=$count:u64'
SAVE='hist:keys=common_pid:ts0=common_timestamp.usecs'
MATCH='hist:keys=common_pid:lat=common_timestamp.usecs-$ts0:'
MATCH+='onmatch(markers.subsys_mark1).trace(owners_lat,$lat)'
TMP=

cleanup() {
	[ -n "$TMP" ] && touch "$TMP/stop"
	wait
	echo 0 > $T/tracing_on
	[ -d "$INST" ] && echo 0 > "$INST/events/enable" && rmdir "$INST"
	echo "!$MATCH" > $EV/subsys_mark3/trigger 2>/dev/null
	echo "!$SAVE" > $EV/subsys_mark1/trigger 2>/dev/null
	echo '!hist:keys=count' > $EV/subsys_mark3/trigger 2>/dev/null
	echo '!enable_event:markers:subsys_mark3' > \
		$EV/decode_int/trigger 2>/dev/null
	echo '!owners_lat u64 lat' >> $T/synthetic_events 2>/dev/null
	[ -d $T/events/ogrp ] && echo 0 > $T/events/ogrp/enable &&
		echo '-:ogrp/mark3' >> $T/dynamic_events
	echo 0 > $EV/subsys_mark3/enable 2>/dev/null
	loaded test_markers_hold && unload test_markers_hold
	loaded marker-example && unload marker-example
	loaded marker-decode && unload marker-decode
	echo > $T/trace
	echo 1 > $T/tracing_on
	[ -n "$TMP" ] && rm -rf "$TMP"
}

# hit N: open marker-example's trigger and read N bytes once
hit() {
	dd if=$TRIGGER of=/dev/null bs="$1" count=1 2>/dev/null
}

# has FILE PATTERN: FILE holds a line matching the extended regex
has() {
	grep -qE "$2" "$1" ||
		{ echo "# no /$2/ in $1:"; sed 's/^/#   /' "$1" | tail -5; return 1; }
}

# gone EVENT: the markers event EVENT is removed (its module is gone and
# nothing holds it)
gone() {
	wait_for test ! -d "$EV/$1" || { echo "# markers/$1 stayed"; return 1; }
}

# unload_held EVENT: rmmod marker-example with EVENT in use; the event
# must stay
unload_held() {
	unload marker-example || { echo "# rmmod marker-example failed"; return 1; }
	[ -d "$EV/$1" ] || { echo "# markers/$1 went under its user"; return 1; }
}

# reload: marker-example back, with its events
reload() {
	load marker-example && wait_for test -d $EV/subsys_mark1
}

test_eprobe() {
	echo "$EPROBE" >> $T/dynamic_events || return 1
	echo 1 > $T/events/ogrp/mark3/enable
	unload_held subsys_mark3 || return 1
	reload || return 1
	echo > $T/trace
	hit 24
	has $T/trace ' mark3: \(markers.subsys_mark3\) cnt=24$' || return 1
	unload marker-example || return 1
	# removed while the module is away: the event goes with it
	echo 0 > $T/events/ogrp/mark3/enable
	echo '-:ogrp/mark3' >> $T/dynamic_events || return 1
	gone subsys_mark3 && reload
}

# enable_event on decode_int (marker-decode) switches subsys_mark3 on
test_enable_event() {
	echo 'enable_event:markers:subsys_mark3' > $EV/decode_int/trigger ||
		return 1
	unload_held subsys_mark3 || return 1
	reload || return 1
	echo > $T/trace
	cat $DECODE > /dev/null
	[ "$(cat $EV/subsys_mark3/enable)" = "1*" ] ||
		{ echo "# enable: $(cat $EV/subsys_mark3/enable)"; return 1; }
	hit 40
	has $T/trace ' subsys_mark3: reads=[0-9]+ count=28$' || return 1
	unload marker-example || return 1
	echo '!enable_event:markers:subsys_mark3' > $EV/decode_int/trigger ||
		return 1
	gone subsys_mark3 && reload
}

test_hist() {
	echo 'hist:keys=count' > $EV/subsys_mark3/trigger || return 1
	unload_held subsys_mark3 || return 1
	reload || return 1
	hit 16
	hit 16
	has $EV/subsys_mark3/hist '^\{ count: +16 \} hitcount: +2$' || return 1
	unload marker-example || return 1
	echo '!hist:keys=count' > $EV/subsys_mark3/trigger || return 1
	gone subsys_mark3 && reload
}

test_synthetic() {
	echo 'owners_lat u64 lat' >> $T/synthetic_events || return 1
	echo "$SAVE" > $EV/subsys_mark1/trigger || return 1
	echo "$MATCH" > $EV/subsys_mark3/trigger || return 1
	echo 1 > $T/events/synthetic/owners_lat/enable
	unload_held subsys_mark1 && unload_held subsys_mark3 || return 1
	reload || return 1
	echo > $T/trace
	hit 8
	has $T/trace ' owners_lat: lat=[0-9]+$' || return 1
	unload marker-example || return 1
	echo 0 > $T/events/synthetic/owners_lat/enable
	echo "!$MATCH" > $EV/subsys_mark3/trigger || return 1
	echo "!$SAVE" > $EV/subsys_mark1/trigger || return 1
	echo '!owners_lat u64 lat' >> $T/synthetic_events || return 1
	gone subsys_mark1 && gone subsys_mark3 && reload
}

# bpf_wait OBJECT COUNT: marker_bpf attaches OBJECT's programs and waits;
# "bpf_go" lets it read marker-decode's trigger COUNT times, print the
# programs' counts to $TMP/bpf.txt, close its links and exit
bpf_wait() {
	local i

	rm -f "$TMP/go" "$TMP/bpf.txt"
	mkfifo "$TMP/go"
	"$DIR/marker_bpf" -w "$DIR/$1" $DECODE "$2" < "$TMP/go" \
		> "$TMP/bpf.txt" 2>&1 &
	BPF_PID=$!
	exec 3> "$TMP/go"
	for i in $(seq 600); do
		grep -qx attached "$TMP/bpf.txt" && return 0
		kill -0 $BPF_PID 2>/dev/null || break
		sleep 0.1
	done
	bpf_go
	return 1
}

bpf_go() {
	echo go >&3
	exec 3>&-
	wait $BPF_PID || { sed 's/^/# /' "$TMP/bpf.txt"; return 1; }
}

# A perf event with a BPF program on a marker event (libbpf attaches
# SEC("tracepoint/...") programs through perf_event_open())
test_perf() {
	bpf_wait marker_bpf.bpf.o 2 || return 1
	unload marker-decode || { bpf_go; echo "# rmmod marker-decode failed"; return 1; }
	[ -d $EV/decode_int ] || { bpf_go; echo "# decode_int went under perf"; return 1; }
	load marker-decode || { bpf_go; return 1; }
	bpf_go || return 1
	has "$TMP/bpf.txt" '^hits 2$'
}

# hold_load MARKER: the hold module's probe on MARKER, first of its probes
hold_load() {
	load test_markers_hold marker="$1" || { echo "# no test_markers_hold"; return 1; }
}

# hold_fire PATH: one read of PATH from CPU 0, held in the hold; this
# shell moves to CPU 1
hold_fire() {
	local i

	taskset -p -c 1 $$ > /dev/null || return 1
	taskset -c 0 dd if="$1" of=/dev/null bs=8 count=1 2>/dev/null &
	HELD_PID=$!
	for i in $(seq 100); do
		[ "$(cut -d' ' -f1 $HOLD/state)" = 1 ] && return 0
		sleep 0.1
	done
	echo "# the hit never reached the hold"
	return 1
}

# hold_end WHAT: the held hit returned; the removal must have started
# while it was held, and not returned before the hold ended
hold_end() {
	local state

	[ -n "$HELD_PID" ] && wait $HELD_PID
	HELD_PID=
	taskset -p -c 0-$(($(nproc) - 1)) $$ > /dev/null
	state=$(cat $HOLD/state)
	unload test_markers_hold
	echo "# hold: entered ended removing removed = $state"
	case "$state" in
	"1 1 1 0") return 0 ;;
	"1 1 1 1") echo "# $1 returned while a hit was still to call its probe" ;;
	*) echo "# $1 did not run during the hold" ;;
	esac
	return 1
}

firer() {
	while [ ! -e "$TMP/stop" ]; do
		dd if=$TRIGGER of=/dev/null bs=8 count=1 2>/dev/null
	done
}

test_instance() {
	local ret=0

	mkdir "$INST" || return 1
	hold_load subsys_mark3 || { rmdir "$INST"; return 1; }
	echo 1 > "$INST/events/markers/enable"
	hold_fire $TRIGGER || { hold_end "rmdir"; rmdir "$INST"; return 1; }
	rm -f "$TMP/stop"
	taskset -c 1 bash -c "$(declare -f firer); TMP=$TMP TRIGGER=$TRIGGER firer" &
	echo removing > $HOLD/step
	rmdir "$INST" || ret=1
	echo removed > $HOLD/step
	touch "$TMP/stop"
	hold_end "rmdir of the instance" || ret=1
	wait
	return $ret
}

# close_held OBJECT WHAT: a BPF program of OBJECT on decode_int, closed
# while a hit of decode_int is held
close_held() {
	local ret=0

	hold_load decode_int || return 1
	bpf_wait "$1" 0 || { unload test_markers_hold; return 1; }
	hold_fire $DECODE || { bpf_go; hold_end "$2"; return 1; }
	echo removing > $HOLD/step
	bpf_go || ret=1
	echo removed > $HOLD/step
	hold_end "$2" || ret=1
	return $ret
}

test_raw_tp_close() {
	close_held marker_raw.bpf.o "closing the raw_tp link"
}

test_perf_close() {
	close_held marker_bpf.bpf.o "closing the perf event"
}

ktap_print_header

markers_require_trace
markers_require_modules marker-example marker-decode
load test_markers_hold marker=subsys_mark1 && unload test_markers_hold ||
	markers_skip_all "test_markers_hold module missing (CONFIG_TEST_MARKERS_HOLD)"
command -v taskset > /dev/null || markers_skip_all "taskset not installed"
TMP=$(mktemp -d)
trap cleanup EXIT
load marker-example && wait_for test -d $EV/subsys_mark3 ||
	markers_skip_all "marker-example has no events"
load marker-decode && wait_for test -d $EV/decode_int ||
	markers_skip_all "marker-decode has no events"

ktap_set_plan 8

ktap_test_result "rmmod under an eprobe, the eprobe deleted without the module" \
	test_eprobe
ktap_test_result "rmmod under an enable_event trigger of another module's event" \
	test_enable_event
ktap_test_result "rmmod under a hist trigger" test_hist
ktap_test_result "rmmod under a synthetic event's triggers" test_synthetic

if [ ! -x "$DIR/marker_bpf" ]; then
	ktap_test_skip "rmmod under a perf event (marker_bpf not built: needs clang and libbpf)"
else
	ktap_test_result "rmmod under a perf event with a BPF program" test_perf
fi

if [ "$(nproc)" -lt 2 ]; then
	ktap_test_skip "rmdir of an instance during a held hit (needs 2 CPUs)"
	ktap_test_skip "raw_tp link closed during a held hit (needs 2 CPUs)"
	ktap_test_skip "perf event closed during a held hit (needs 2 CPUs)"
	ktap_finished
	exit
fi
ktap_test_result "rmdir of an instance waits for a held hit, hits on every CPU" \
	test_instance
if [ ! -x "$DIR/marker_bpf" ]; then
	ktap_test_skip "raw_tp link closed during a held hit (marker_bpf not built)"
	ktap_test_skip "perf event closed during a held hit (marker_bpf not built)"
else
	ktap_test_result "closing a raw_tp link waits for a held hit" \
		test_raw_tp_close
	ktap_test_result "closing a perf event waits for a held hit" \
		test_perf_close
fi

ktap_finished
