#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# description: enabling many trace events patches code once: events/enable,
#	a system's enable file and set_event with "*", in the top instance
#	and in an instance (also while the top instance has events on),
#	cost one static key batch each way
# requires: static_keys/stats
#
# The IPI rounds of each write are counted in <debugfs>/static_keys/stats:
# every round must come from the one static key batch the write applies,
# 3 per text_poke batch of up to batch_max pokes.  The keys of the
# tracepoints must follow: on while their event is, off after.  The last
# case switches every event on and off while the sample markers and
# tracepoints fire on every CPU.

DIR=$(dirname "$0")
. "$DIR/../kselftest/ktap_helpers.sh"
. "$DIR/markers_lib.sh"

DEBUGFS=/sys/kernel/debug
KEYS=$DEBUGFS/static_keys/keys
T=/sys/kernel/tracing
INST=$T/instances/events_batch_selftest
LOAD_PIDS=
TMP=$(mktemp -d)

cleanup() {
	[ -n "$LOAD_PIDS" ] && kill $LOAD_PIDS 2>/dev/null
	wait 2>/dev/null
	echo 0 > $T/events/enable
	[ -d $INST ] && { echo 0 > $INST/events/enable; rmdir $INST; }
	unload marker-example
	rm -rf "$TMP"
}

# tp_keys_on: tracepoint static keys that are on
tp_keys_on() {
	awk '$1 ~ /^__tracepoint_/ && $2 == 1' $KEYS | wc -l
}

# enabled_events DIR: events enabled in the instance at DIR
enabled_events() {
	grep -c . "$1/set_event"
}

# still_enabled DIR: succeed if no event of the instance at DIR is
# enabled but those a trigger held before the test (soft mode, which
# events/enable leaves alone), or name some that are
still_enabled() {
	local held=0

	[ "$1" = $T ] && held=$T_HELD
	[ "$(enabled_events "$1")" = "$held" ] && return 0
	echo "# still enabled: $(head -n 4 "$1/set_event" | tr '\n' ' ')"
	return 1
}

# snap VAR: the counters that a write moves, as "batches sites calls
# rounds", and the state of every key in $TMP/VAR
snap() {
	printf -v "$1" '%s %s %s %s' "$(stat_get applied_batches)" \
		"$(stat_get applied_sites)" "$(stat_get applied_calls)" \
		"$(stat_get ipi_rounds)"
	awk '{ print $1, $2 }' $KEYS | sort > "$TMP/$1"
}

# own_keys A B: keys other than tracepoints' and marker sites' that went
# on or off between snapshots A and B.  A regfunc that flips a key of
# its own with static_branch_inc() patches it outside the batch, which
# the IPI round count then shows; naming the key says whose it is.
own_keys() {
	comm -13 "$TMP/$1" "$TMP/$2" |
		awk '$1 !~ /^__tracepoint_/ && $1 !~ /^__mark_site/ { print $1 }'
}

# check_one_batch WHAT A B: the write between snapshots A and B applied
# one static key batch, patched something, and sent no IPI round but
# its batch's 3 per text_poke batch
check_one_batch() {
	local what=$1 max pokes want own
	local -a a b

	read -r -a a <<< "${!2}"
	read -r -a b <<< "${!3}"
	max=$(stat_get batch_max)
	pokes=$(( b[1] - a[1] + b[2] - a[2] ))
	own=$(own_keys "$2" "$3" | tr '\n' ' ')
	want=$(( 3 * ((pokes + max - 1) / max) ))
	own=${own% }
	[ -n "$own" ] && own="; other keys switched: $own"
	echo "# $what: $((b[0] - a[0])) static key batch, $pokes pokes" \
		"($((b[1] - a[1])) jump sites, $((b[2] - a[2])) static call" \
		"sites), $((b[3] - a[3])) IPI rounds$own"
	[ $((b[0] - a[0])) = 1 ] && [ "$pokes" -gt 0 ] &&
		[ $((b[3] - a[3])) = "$want" ] ||
		{ echo "# want 1 batch and $want IPI rounds"; return 1; }
}

# switch_both DIR FILE WHAT: write 1 then 0 to FILE; each write is one
# batch, events and tracepoint keys go on and come back off
switch_both() {
	local dir=$1 file=$2 what=$3 s0 s1 s2 k0 k1 n

	k0=$(tp_keys_on)
	snap s0
	echo 1 > "$file" || return 1
	snap s1
	k1=$(tp_keys_on)
	n=$(enabled_events "$dir")
	echo "# $what: $n events enabled, tracepoint keys on $k0 -> $k1"
	[ "$n" -gt 0 ] && [ "$k1" -gt "$k0" ] || return 1
	check_one_batch "$what on" s0 s1 || return 1
	echo 0 > "$file" || return 1
	snap s2
	still_enabled "$dir" || return 1
	[ "$(tp_keys_on)" = "$k0" ] ||
		{ echo "# tracepoint keys on after: $(tp_keys_on), want $k0"; return 1; }
	check_one_batch "$what off" s1 s2
}

# set_event_both DIR GLOB: as switch_both, through DIR/set_event
set_event_both() {
	local dir=$1 glob=$2 s0 s1 s2 k0 n

	k0=$(tp_keys_on)
	snap s0
	echo "$glob" > "$dir/set_event" || return 1
	snap s1
	n=$(enabled_events "$dir")
	echo "# set_event '$glob': $n events enabled"
	[ "$n" -gt 0 ] || return 1
	check_one_batch "'$glob' on" s0 s1 || return 1
	echo "!$glob" >> "$dir/set_event" || return 1
	snap s2
	still_enabled "$dir" && [ "$(tp_keys_on)" = "$k0" ] || return 1
	check_one_batch "'$glob' off" s1 s2
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

# Every enabled event records: sched_switch, and a marker event of
# marker-example when its trigger is read.  Recording stops right after
# the read, and the read is tried again if the records were overwritten
# meanwhile (every event of a slow kernel fills a buffer quickly).
test_records() {
	local try sw=0 mk=0

	echo 1 > $T/events/enable || return 1
	for try in 1 2 3; do
		echo > $T/trace
		cat $DEBUGFS/marker-example/trigger > /dev/null
		echo 0 > $T/tracing_on
		sw=$(grep -c ' sched_switch: ' $T/trace)
		mk=$(grep -c ' subsys_mark1: ' $T/trace)
		echo 1 > $T/tracing_on
		[ "$sw" -gt 0 ] && [ "$mk" -gt 0 ] && break
	done
	echo 0 > $T/events/enable
	echo "# records: $sw sched_switch, $mk subsys_mark1 (read $try)"
	[ "$sw" -gt 0 ] && [ "$mk" -gt 0 ]
}

# Enable and disable every event while the sites fire on every CPU.
test_storm() {
	local i cpu

	for cpu in $(seq 0 $(( $(nproc) - 1 ))); do
		( while :; do
			cat $DEBUGFS/marker-example/trigger > /dev/null
		done ) &
		LOAD_PIDS="$LOAD_PIDS $!"
		taskset -p -c "$cpu" $! > /dev/null 2>&1
	done
	for i in $(seq 10); do
		echo 1 > $T/events/enable && echo 0 > $T/events/enable ||
			return 1
	done
	kill $LOAD_PIDS
	wait 2>/dev/null
	LOAD_PIDS=
	still_enabled $T && [ "$(tp_keys_on)" = "$K_IDLE" ]
}

ktap_print_header
[ "$(id -u)" -eq 0 ] || markers_skip_all "must run as root"
mountpoint -q $DEBUGFS || mount -t debugfs none $DEBUGFS
mountpoint -q $T || mount -t tracefs nodev $T
[ -r "$MARKERS_STATS" ] && [ -r $KEYS ] ||
	markers_skip_all "no static_keys/stats (CONFIG_JUMP_LABEL_DEBUGFS)"
[ "$(stat_get batch_max)" -gt 0 ] ||
	markers_skip_all "the architecture counts no text_poke batches"
markers_require_modules marker-example
trap cleanup EXIT
echo 0 > $T/events/enable
load marker-example || exit "$KSFT_FAIL"
K_IDLE=$(tp_keys_on)
T_HELD=$(enabled_events $T)

ktap_set_plan 9
ktap_test_result "events/enable: every event, one static key batch each way" \
	switch_both $T $T/events/enable all
ktap_test_result "events/sched/enable: one static key batch each way" \
	switch_both $T $T/events/sched/enable "sched"
ktap_test_result "set_event 'sched:*': one static key batch each way" \
	set_event_both $T 'sched:*'
ktap_test_result "set_event 'markers:*': one static key batch each way" \
	set_event_both $T 'markers:*'
ktap_test_result "truncating set_event: one static key batch" \
	set_event_truncate $T
mkdir $INST || exit "$KSFT_FAIL"
ktap_test_result "instance events/enable: one static key batch each way" \
	switch_both $INST $INST/events/enable instance
ktap_test_result "instance events/enable beside the top's sched events: one batch each way" \
	switch_beside_top
ktap_test_result "all events record once enabled in one batch" test_records
ktap_test_result "every event on and off 10 times while the sites fire" \
	test_storm
ktap_finished
