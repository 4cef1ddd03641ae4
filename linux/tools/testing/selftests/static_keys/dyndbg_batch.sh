#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# description: dynamic debug switches the static keys of one write in one
#	static key batch, and racing writers leave each key as its flags say
# requires: test_dynamic_debug.ko, <debugfs>/static_keys/stats,
#	<debugfs>/dynamic_debug/control
#
# Every pr_debug() site of lib/test_dynamic_debug.c is a static key.  A
# control write carrying several queries, and a write of a class
# parameter that changes several classes, must each apply exactly one
# static key batch (applied_batches of <debugfs>/static_keys/stats) that
# patches the jump sites of every pr_debug() whose printing changed.  After
# writers race on the same sites, a site prints when do_prints runs
# exactly when the control file shows it enabled ("=p").

DIR=$(dirname "$0")
. "$DIR/../kselftest/ktap_helpers.sh"

DEBUGFS=/sys/kernel/debug
CONTROL=$DEBUGFS/dynamic_debug/control
STATS=$DEBUGFS/static_keys/stats
MOD=test_dynamic_debug
PARAMS=/sys/module/$MOD/parameters
WRITERS=4
ROUNDS=40

stat_get() {
	awk -v k="$1" '$1 == k { print $2 }' $STATS
}

# sites [FLAGS]: the module's control lines, those showing FLAGS if given
sites() {
	grep "\[$MOD\]" $CONTROL | grep -- "${1:-}"
}

# printing: how many of the module's sites print
printing() {
	sites | grep -c ' =p[^ ]* '
}

# one_batch WHAT CMD...: CMD applies one static key batch patching at
# least one jump site per pr_debug() whose printing changed (a site the
# compiler copied, by inlining its function, has several)
one_batch() {
	local what=$1 b0 s0 p0 b1 s1 p1 changed

	shift
	b0=$(stat_get applied_batches)
	s0=$(stat_get applied_sites)
	p0=$(printing)
	"$@" || { echo "# $what: the write failed"; return 1; }
	b1=$(stat_get applied_batches)
	s1=$(stat_get applied_sites)
	p1=$(printing)
	changed=$((p1 > p0 ? p1 - p0 : p0 - p1))
	echo "# $what: printing sites $p0 -> $p1, batches +$((b1 - b0)), sites +$((s1 - s0))"
	[ "$changed" -gt 1 ] ||
		{ echo "# $what changed $changed sites, want several"; return 1; }
	[ $((b1 - b0)) = 1 ] && [ $((s1 - s0)) -ge "$changed" ]
}

# ctl QUERIES: one write(2) of QUERIES (bash's echo writes line by line)
ctl() {
	printf '%s\n' "$1" | dd of=$CONTROL bs=4096 iflag=fullblock conv=notrunc status=none
}

test_queries() {
	ctl "module $MOD -p" &&
	one_batch "3 queries, +p" ctl "module $MOD func do_cats +p; module $MOD func do_levels +p
module $MOD func test_dynamic_debug_exit +p" &&
	one_batch "1 query, -p" ctl "module $MOD -p"
}

test_class_param() {
	echo 0 > $PARAMS/p_disjoint_bits &&
	one_batch "class bits 0x3ff" eval "echo 0x3ff > $PARAMS/p_disjoint_bits" &&
	one_batch "class bits 0" eval "echo 0 > $PARAMS/p_disjoint_bits" &&
	one_batch "class levels 7" eval "echo 7 > $PARAMS/p_level_num" &&
	one_batch "class levels 0" eval "echo 0 > $PARAMS/p_level_num"
}

# writer N: ROUNDS writes switching sites of the module on and off
writer() {
	local n=$1 i

	for i in $(seq $ROUNDS); do
		case $(((n + i) % 4)) in
		0) ctl "module $MOD +p" ;;
		1) ctl "module $MOD -p" ;;
		2) ctl "module $MOD class D2_CORE +p; module $MOD class D2_KMS -p" ;;
		3) ctl "module $MOD class D2_CORE -p; module $MOD func do_cats +p" ;;
		esac 2>/dev/null
	done
}

# After racing writers, each site's message is printed by do_prints
# exactly when control shows the site enabled.
test_race() {
	local n line fmt want got ret=0

	for n in $(seq $WRITERS); do
		writer "$n" &
	done
	wait
	dmesg -C
	cat $PARAMS/do_prints > /dev/null
	while read -r line; do
		fmt=${line#*\"}
		fmt=${fmt%%\\n\"*}
		case "$line" in
		*' =p'*) want=1 ;;
		*) want=0 ;;
		esac
		got=$(dmesg | grep -cF "test_dd: $fmt")
		[ "$got" -gt 1 ] && got=1
		if [ "$got" != "$want" ]; then
			echo "# key and flags differ: printed $got, $line"
			ret=1
		fi
	done < <(sites | grep -E 'do_cats|do_levels')
	return $ret
}

skip_all() {
	ktap_skip_all "$1"
	exit "$KSFT_SKIP"
}

ktap_print_header
[ -w $CONTROL ] || skip_all "no $CONTROL (CONFIG_DYNAMIC_DEBUG=n?)"
[ -r $STATS ] || skip_all "no $STATS (static key batches not built?)"
modprobe $MOD 2>/dev/null || skip_all "no $MOD module (CONFIG_TEST_DYNAMIC_DEBUG=n?)"
trap 'ctl "module $MOD -p"; echo 0 > $PARAMS/p_disjoint_bits;
      echo 0 > $PARAMS/p_level_num; rmmod $MOD' EXIT

ktap_set_plan 3
ktap_test_result "one control write of 3 queries is one static key batch" test_queries
ktap_test_result "one class parameter write is one static key batch" test_class_param
ktap_test_result "after $WRITERS racing writers every site's key matches its flags" test_race
ktap_finished
