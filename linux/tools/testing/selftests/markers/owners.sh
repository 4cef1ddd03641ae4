#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# description: owners removed under their users: a marker module unloaded
#	under eprobes, triggers, synthetic events and perf events on its
#	events; an instance removed and links closed while a hit is in flight;
#	a module load failed after its markers were seen
# requires: events/markers, marker-example.ko, marker-decode.ko,
#	test_markers_hold.ko (CONFIG_TEST_MARKERS_HOLD), hist triggers,
#	synthetic_events, eprobes, taskset
#
# A marker event may be used by what its module knows nothing of: an
# eprobe, an enable_event trigger on another event, a hist trigger, a
# synthetic event, a perf event.  Each holds the event through an rmmod
# of the markers' module, and the event records again once the module is
# back.  Once its user is gone, with the module away, the event goes: at
# once for the users that hold it through its registration, at the next
# update of the marker events for those that hold a reference to it
# (trace_markers.c), made here by switching another marker event.
#
# What a probe uses must outlive the hits in flight.  test_markers_hold
# connects a probe to a marker before the probe under test and holds the
# first hit in it, on one CPU, while this script removes from another
# what the next probe of the same hit uses: a trace instance (other hits
# firing meanwhile), a raw tracepoint link, a perf event.  The removal
# must not return before the hold ends; if it did, the held hit's next
# probe would run on what it freed.  The hold also says whether the probe
# under test was unregistered during it, so that, where the hold is
# preemptible, a pass shows the removal waited after unregistering.  Run
# on a KASAN kernel, a removal that does not wait also shows as a
# use-after-free report.
#
# A module notifier that fails a load undoes the notifier chain only up
# to itself.  test_markers_hold fails marker-example's load between the
# markers core's notifier and the marker events' one, and holds it there
# while marker-decode's load updates the marker events, which then have
# marker-example's too: those must go with the failed load.
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
MASK=
TRACING_ON=
BPF_PID=
HELD_PID=

# untrigger EVENT TRIGGER: TRIGGER removed from EVENT's triggers, if there.
# Appended, not written with ">": an open with O_TRUNC removes every
# trigger of the event at once, and an event whose module is gone may be
# removed with its last user before the write that follows the open.
untrigger() {
	[ -e "$EV/$1/trigger" ] && grep -q "^${2%%:*}" "$EV/$1/trigger" &&
		echo "!$2" >> "$EV/$1/trigger" 2>/dev/null
	return 0
}

# users_remove: every user the tests make, whichever are left
users_remove() {
	[ -d "$INST" ] && echo 0 > "$INST/events/enable" && rmdir "$INST"
	untrigger subsys_mark3 "$MATCH"
	untrigger subsys_mark1 "$SAVE"
	untrigger subsys_mark3 'hist:keys=count'
	untrigger decode_int 'enable_event:markers:subsys_mark3'
	[ -d $T/events/synthetic/owners_lat ] &&
		echo 0 > $T/events/synthetic/owners_lat/enable &&
		echo '!owners_lat u64 lat' >> $T/synthetic_events
	[ -d $T/events/ogrp ] && echo 0 > $T/events/ogrp/enable &&
		echo '-:ogrp/mark3' >> $T/dynamic_events
	[ -d $EV/subsys_mark3 ] && echo 0 > $EV/subsys_mark3/enable
	loaded test_markers_hold && unload test_markers_hold
	return 0
}

# stop_jobs: the background jobs of a test, ended
stop_jobs() {
	[ -n "$TMP" ] && touch "$TMP/stop"
	exec 3>&-
	[ -n "$BPF_PID" ] && kill "$BPF_PID" 2>/dev/null
	[ -n "$HELD_PID" ] && kill "$HELD_PID" 2>/dev/null
	# a hit still held ends now, not after the hold's longest wait
	[ -e $HOLD/step ] && echo removed > $HOLD/step
	wait
	BPF_PID=
	HELD_PID=
	[ -n "$MASK" ] && taskset -p "$MASK" $$ > /dev/null
}

# reset: no user left, both sample modules loaded with their events
reset() {
	stop_jobs
	users_remove
	loaded marker-example || load marker-example
	loaded marker-decode || load marker-decode
	wait_for test -d $EV/subsys_mark3 && wait_for test -d $EV/decode_int
}

cleanup() {
	stop_jobs
	users_remove
	loaded marker-example && unload marker-example
	loaded marker-decode && unload marker-decode
	echo > $T/trace
	[ -n "$TRACING_ON" ] && echo "$TRACING_ON" > $T/tracing_on
	[ -n "$TMP" ] && rm -rf "$TMP"
}

# run NAME FUNC: FUNC's result as test NAME, then the state reset for the
# next test, whatever FUNC left
run() {
	local ret=0

	"$2" || ret=1
	reset || { echo "# could not reset the sample modules"; ret=1; }
	if [ $ret = 0 ]; then
		ktap_test_pass "$1"
	else
		ktap_test_fail "$1"
	fi
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

# gone EVENT: the markers event EVENT is removed, its module being gone
# and its users too.  An event held by a reference (an eprobe, an
# enable_event trigger) goes at the next update of the marker events
# after the reference is dropped, and some users drop theirs from a work
# item: switch the event on and off, which makes an update, until it goes.
gone() {
	local i

	for i in $(seq 25); do
		[ -d "$EV/$1" ] || return 0
		{ echo 1 > "$EV/$1/enable"; echo 0 > "$EV/$1/enable"; } 2>/dev/null
		sleep 0.2
	done
	[ -d "$EV/$1" ] || return 0
	echo "# markers/$1 stayed: $(grep "^$1 " /sys/kernel/debug/markers/list)"
	return 1
}

# unload_held EVENT...: rmmod marker-example with the EVENTs in use; they
# must stay
unload_held() {
	local e

	unload marker-example || { echo "# rmmod marker-example failed"; return 1; }
	for e in "$@"; do
		[ -d "$EV/$e" ] || { echo "# markers/$e went under its user"; return 1; }
	done
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
	# deleted while the module is away: the event goes with it
	echo 0 > $T/events/ogrp/mark3/enable
	echo '-:ogrp/mark3' >> $T/dynamic_events || return 1
	gone subsys_mark3
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
	echo '!enable_event:markers:subsys_mark3' >> $EV/decode_int/trigger ||
		return 1
	# what the trigger enabled stays enabled, as for any event
	[ "$(cat $EV/subsys_mark3/enable)" = 1 ] ||
		{ echo "# enable: $(cat $EV/subsys_mark3/enable)"; return 1; }
	echo 0 > $EV/subsys_mark3/enable
	gone subsys_mark3
}

test_hist() {
	echo 'hist:keys=count' > $EV/subsys_mark3/trigger || return 1
	unload_held subsys_mark3 || return 1
	reload || return 1
	hit 16
	hit 16
	has $EV/subsys_mark3/hist '^\{ count: +16 \} hitcount: +2$' || return 1
	unload marker-example || return 1
	echo '!hist:keys=count' >> $EV/subsys_mark3/trigger || return 1
	gone subsys_mark3
}

test_synthetic() {
	echo 'owners_lat u64 lat' >> $T/synthetic_events || return 1
	echo "$SAVE" > $EV/subsys_mark1/trigger || return 1
	echo "$MATCH" > $EV/subsys_mark3/trigger || return 1
	echo 1 > $T/events/synthetic/owners_lat/enable
	unload_held subsys_mark1 subsys_mark3 || return 1
	reload || return 1
	echo > $T/trace
	hit 8
	has $T/trace ' owners_lat: lat=[0-9]+$' || return 1
	unload marker-example || return 1
	echo 0 > $T/events/synthetic/owners_lat/enable
	echo "!$MATCH" >> $EV/subsys_mark3/trigger || return 1
	echo "!$SAVE" >> $EV/subsys_mark1/trigger || return 1
	echo '!owners_lat u64 lat' >> $T/synthetic_events || return 1
	gone subsys_mark1 && gone subsys_mark3
}

# bpf_wait OBJECT COUNT: marker_bpf, on CPU $CPU_B, attaches OBJECT's
# programs and waits; "bpf_go" lets it read marker-decode's trigger COUNT
# times, print the programs' counts to $TMP/bpf.txt, close its links and
# exit.  The fifo is open for reading here too, so that writing to it
# cannot fail once marker_bpf is gone.
bpf_wait() {
	local i

	rm -f "$TMP/go" "$TMP/bpf.txt"
	mkfifo "$TMP/go"
	exec 3<> "$TMP/go"
	taskset -c "$CPU_B" "$DIR/marker_bpf" -w "$DIR/$1" $DECODE "$2" \
		< "$TMP/go" > "$TMP/bpf.txt" 2>&1 &
	BPF_PID=$!
	for i in $(seq 600); do
		grep -sqx attached "$TMP/bpf.txt" && return 0
		kill -0 $BPF_PID 2>/dev/null || break
		sleep 0.1
	done
	sed 's/^/# /' "$TMP/bpf.txt"
	return 1
}

bpf_go() {
	local ret=0

	echo go >&3
	wait $BPF_PID || { sed 's/^/# /' "$TMP/bpf.txt"; ret=1; }
	BPF_PID=
	exec 3>&-
	return $ret
}

# A perf event with a BPF program on a marker event (libbpf attaches
# SEC("tracepoint/...") programs through perf_event_open())
test_perf() {
	bpf_wait marker_bpf.bpf.o 2 || return 1
	unload marker-decode || { echo "# rmmod marker-decode failed"; return 1; }
	[ -d $EV/decode_int ] || { echo "# decode_int went under perf"; return 1; }
	load marker-decode || return 1
	bpf_go || return 1
	has "$TMP/bpf.txt" '^hits 2$'
}

# hold_load MARKER [PARAM...]: the hold module's probe on MARKER, first
# of its probes
hold_load() {
	local marker=$1

	shift
	load test_markers_hold marker="$marker" "$@" || { echo "# no test_markers_hold"; return 1; }
}

# hold_fire PATH: one read of PATH from CPU $CPU_A, held in the hold;
# this shell moves to CPU $CPU_B
hold_fire() {
	local i

	taskset -p -c "$CPU_B" $$ > /dev/null || return 1
	taskset -c "$CPU_A" dd if="$1" of=/dev/null bs=8 count=1 2>/dev/null 3>&- &
	HELD_PID=$!
	for i in $(seq 100); do
		[ "$(cut -d' ' -f1 $HOLD/state)" = 1 ] && return 0
		sleep 0.1
	done
	echo "# the hit never reached the hold"
	return 1
}

# hold_end WHAT: the held hit returned; the removal must have started
# while it was held, unregistered the probe under test during it, and
# not returned before the hold ended
hold_end() {
	local s

	[ -n "$HELD_PID" ] && wait $HELD_PID
	HELD_PID=
	taskset -p "$MASK" $$ > /dev/null
	s=$(cat $HOLD/state)
	unload test_markers_hold
	echo "# hold: entered ended removing removed unregistered preemptible cpu = $s"
	set -- $s
	if [ "$1 $2 $3" != "1 1 1" ]; then
		echo "# $WHAT did not start during the hold"
	elif [ "$4" != 0 ]; then
		echo "# $WHAT returned while a hit was still to call its probe"
	elif [ "$5" != 1 ] && [ "$6" = 1 ]; then
		echo "# $WHAT did not unregister its probe during the hold"
	else
		# Held with preemption off (sites that read with preemption
		# disabled), any RCU grace period of the removal waits for the
		# hold, maybe before the unregistering: only the return counts.
		[ "$5" = 1 ] || echo "# (not preemptible: unregistered after the hold)"
		return 0
	fi
	return 1
}

# firer: hit the trigger until $TMP/stop exists, from the shell itself:
# a process per hit would take most of the CPU the removal shares with
# it (on a KASAN kernel under TCG the rmdir of test_instance had not
# reached the probe after the 10 s hold, make test-debug 2026-11-27)
firer() {
	while [ ! -e "$TMP/stop" ]; do
		read -r _ < "$TRIGGER"
	done
}

test_instance() {
	local ret=0

	WHAT="rmdir of the instance"
	mkdir "$INST" || return 1
	# On a KASAN kernel under TCG the rmdir, sharing its CPU with the
	# firer, had not reached the probe after a hold of 10 s (owners.sh
	# on make test-debug's kernel, 2026-11-27): the hit is held until
	# the probe goes, then 10 s for the rmdir to free what it uses.
	hold_load subsys_mark3 hold_ms=10000 || return 1
	echo 1 > "$INST/events/markers/enable"
	hold_fire $TRIGGER || return 1
	rm -f "$TMP/stop"
	taskset -c "$CPU_B" bash -c \
		"$(declare -f firer); TMP=$TMP TRIGGER=$TRIGGER firer" 3>&- &
	echo removing > $HOLD/step
	rmdir "$INST" || ret=1
	echo removed > $HOLD/step
	touch "$TMP/stop"
	hold_end || ret=1
	return $ret
}

# close_held OBJECT: a BPF program of OBJECT on decode_int, closed while
# a hit of decode_int is held
close_held() {
	local ret=0

	hold_load decode_int || return 1
	bpf_wait "$1" 0 || return 1
	hold_fire $DECODE || return 1
	echo removing > $HOLD/step
	bpf_go || ret=1
	echo removed > $HOLD/step
	hold_end || ret=1
	return $ret
}

test_raw_tp_close() {
	WHAT="closing the raw_tp link"
	close_held marker_raw.bpf.o
}

test_perf_close() {
	WHAT="closing the perf event"
	close_held marker_bpf.bpf.o
}

# wait_long COMMAND...: wait_for (markers_lib.sh), four times as long
wait_long() {
	wait_for "$@" || wait_for "$@" || wait_for "$@" || wait_for "$@"
}

test_failed_load() {
	local pid ret=0

	unload marker-example && unload marker-decode || return 1
	wait_for test ! -d $EV/subsys_mark1 ||
		{ echo "# markers/subsys_mark1 stayed after rmmod"; return 1; }
	load test_markers_hold fail_load=marker_example hold_ms=60000 ||
		{ echo "# no test_markers_hold"; return 1; }
	load marker-example &
	pid=$!
	wait_long grep -q '^1 ' $HOLD/state ||
		{ echo "# the load never reached the hold"; return 1; }
	load marker-decode ||
		{ echo removed > $HOLD/step; echo "# no marker-decode"; return 1; }
	if ! grep -q '^1 0 ' $HOLD/state; then
		echo "# the hold ended before marker-decode's load returned"
		ret=1
	elif [ ! -d $EV/subsys_mark1 ]; then
		echo "# marker-decode's load made no event of the held module's markers"
		ret=1
	fi
	echo removed > $HOLD/step
	wait $pid && { echo "# marker-example's load did not fail"; ret=1; }
	loaded marker-example && { echo "# marker-example loaded"; ret=1; }
	wait_long test ! -d $EV/subsys_mark1 ||
		{ echo "# markers/subsys_mark1 stayed after the failed load"; ret=1; }
	[ -d $EV/decode_int ] || { echo "# markers/decode_int went too"; ret=1; }
	unload test_markers_hold
	return $ret
}

ktap_print_header

markers_require_trace
[ -e $T/synthetic_events ] && [ -e $T/dynamic_events ] ||
	markers_skip_all "no synthetic or dynamic events (SYNTH_EVENTS, EPROBE_EVENTS)"
grep -q 'e\[:' $T/README || markers_skip_all "kernel without eprobes (EPROBE_EVENTS)"
grep -q 'hist:' $T/README || markers_skip_all "kernel without hist triggers (HIST_TRIGGERS)"
command -v taskset > /dev/null || markers_skip_all "taskset not installed"
markers_require_modules marker-example marker-decode
loaded test_markers_hold && unload test_markers_hold
load test_markers_hold marker=subsys_mark1 && unload test_markers_hold ||
	markers_skip_all "test_markers_hold module missing (CONFIG_TEST_MARKERS_HOLD)"
TMP=$(mktemp -d)
MASK=$(taskset -p $$ | awk '{ print $NF }')
TRACING_ON=$(cat $T/tracing_on)
trap cleanup EXIT
reset || markers_skip_all "the sample modules have no events"
# two CPUs this shell may run on: the held hit's and the remover's
CPUS=($(taskset -c -p $$ | sed 's/.*: //' | tr ',' '\n' |
	awk -F- '{ for (c = $1; c <= ($2 == "" ? $1 : $2); c++) print c }'))
CPU_A=${CPUS[0]}
CPU_B=${CPUS[1]}

ktap_set_plan 9

run "rmmod under an eprobe, the eprobe deleted without the module" \
	test_eprobe
run "rmmod under an enable_event trigger of another module's event" \
	test_enable_event
run "rmmod under a hist trigger" test_hist
run "rmmod under a synthetic event's triggers" test_synthetic
run "a load failed by a later module notifier leaves no marker event" \
	test_failed_load

if [ ! -x "$DIR/marker_bpf" ]; then
	ktap_test_skip "rmmod under a perf event (marker_bpf not built: needs clang and libbpf)"
else
	run "rmmod under a perf event with a BPF program" test_perf
fi

if [ -z "$CPU_B" ]; then
	ktap_test_skip "rmdir of an instance during a held hit (needs 2 CPUs)"
	ktap_test_skip "raw_tp link closed during a held hit (needs 2 CPUs)"
	ktap_test_skip "perf event closed during a held hit (needs 2 CPUs)"
	ktap_finished
	exit
fi
run "rmdir of an instance waits for a held hit, hits on another CPU" \
	test_instance
if [ ! -x "$DIR/marker_bpf" ]; then
	ktap_test_skip "raw_tp link closed during a held hit (marker_bpf not built)"
	ktap_test_skip "perf event closed during a held hit (marker_bpf not built)"
else
	run "closing a raw_tp link waits for a held hit" test_raw_tp_close
	run "closing a perf event waits for a held hit" test_perf_close
fi

ktap_finished
