#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# description: markers are trace events: tracefs, filters, triggers,
#	instances, module unload, glob enable, trace-cmd and perf
# requires: events/markers, markers_enable, marker-example.ko
#
# Drives samples/markers/marker-example.c: opening its trigger file hits
# subsys_mark1 ("nr=%d file=%p") and subsys_mark4; each read() hits
# subsys_mark2 ("comm=%s", the reader's comm) and subsys_mark3
# ("reads=%llu count=%lx", the module's read count and the read size).
# "dd bs=N count=1" reads once with count N.  MARKERS_MODDIR may name a directory of the .ko files.

DIR=$(dirname "$0")
. "$DIR/../kselftest/ktap_helpers.sh"
. "$DIR/markers_lib.sh"

DEBUGFS=/sys/kernel/debug
TRIGGER=$DEBUGFS/marker-example/trigger
STATS=$DEBUGFS/static_keys/stats
T=/sys/kernel/tracing
EV=$T/events/markers
INST=$T/instances/markers_selftest
TMP=

reset_tracing() {
	echo 0 > $T/tracing_on
	echo '!*' > $T/markers_enable 2>/dev/null
	for d in "$EV"/*/; do
		[ -e "$d/filter" ] || continue
		echo 0 > "$d/filter"
		echo 0 > "$d/enable"
		while read -r t _; do
			case "$t" in
			\#*|"") ;;
			*) echo "!$t" > "$d/trigger" ;;
			esac
		done < "$d/trigger"
	done
	echo 1 > $T/options/hash-ptr
	echo > $T/trace
	echo 1 > $T/tracing_on
}

cleanup() {
	reset_tracing
	[ -d "$INST" ] && rmdir "$INST"
	loaded marker-example && unload marker-example
	[ -n "$TMP" ] && rm -rf "$TMP"
}

# hit N: one read of N bytes
hit() {
	dd if=$TRIGGER of=/dev/null bs="$1" count=1 2>/dev/null
}


# has FILE PATTERN: FILE holds a line matching the extended regex
has() {
	grep -qE "$2" "$1" || { echo "# no /$2/ in $1:"; sed 's/^/#   /' "$1" | tail -5; return 1; }
}

# field EVENT DECL OFFSET SIZE SIGNED: a field line of EVENT's format
field() {
	has "$EV/$1/format" "field:$2;	offset:$3;	size:$4;	signed:$5;"
}


ktap_print_header

markers_require_trace
markers_require_modules marker-example
load marker-example
TMP=$(mktemp -d)
trap cleanup EXIT
reset_tracing

ktap_set_plan 16

test_files() {
	local f

	wait_for test -d $EV/subsys_mark3 || return 1
	for f in enable format filter trigger id; do
		[ -e $EV/subsys_mark1/$f ] || { echo "# no $f"; return 1; }
	done
	[ -e $EV/enable ] || return 1
	field subsys_mark1 'int nr' 8 4 1 &&
	field subsys_mark1 'unsigned long file' 16 8 0 &&
	field subsys_mark3 'u64 reads' 8 8 0 &&
	field subsys_mark2 '__data_loc char\[\] comm' 8 4 0 &&
	has $EV/subsys_mark1/format '^print fmt: "nr=%d file=%p", REC->nr, REC->file$' &&
	has $EV/subsys_mark2/format '^print fmt: "comm=%s", __get_str\(comm\)$' &&
	has $EV/subsys_mark3/format '^print fmt: "reads=%llu count=%lx", REC->reads, REC->count$' &&
	[ "$(stat -c %a $T/markers_enable)" = 600 ]
}
ktap_test_result "events/markers/<name> files, fields and print fmt" test_files

test_record() {
	echo 1 > $EV/subsys_mark2/enable
	echo 1 > $EV/subsys_mark3/enable
	hit 64
	echo 0 > $EV/subsys_mark2/enable
	echo 0 > $EV/subsys_mark3/enable
	grep subsys_mark $T/trace | sed 's/^/# trace: /'
	has $T/trace ' subsys_mark3: reads=1 count=40$' &&
	has $T/trace ' subsys_mark2: comm=dd$'
}
ktap_test_result "trace: exact field values" test_record

test_pipe() {
	echo > $T/trace
	echo 1 > $EV/subsys_mark3/enable
	hit 100
	echo 0 > $EV/subsys_mark3/enable
	timeout 2 cat $T/trace_pipe > "$TMP/pipe"
	has "$TMP/pipe" ' subsys_mark3: reads=2 count=64$'
}
ktap_test_result "trace_pipe: exact field values" test_pipe

test_ptr() {
	echo > $T/trace
	echo 1 > $EV/subsys_mark1/enable
	hit 1
	echo 0 > $EV/subsys_mark1/enable
	has $T/trace ' subsys_mark1: nr=1 file=00000000[0-9a-f]{8}$' || return 1
	echo 0 > $T/options/hash-ptr
	has $T/trace ' subsys_mark1: nr=1 file=ff[0-9a-f]{14}$'
	local ret=$?

	echo 1 > $T/options/hash-ptr
	return $ret
}
ktap_test_result "%p hashed unless hash-ptr is off" test_ptr

# marker-example's strings file records NULL, an unmapped address and
# 512 bytes without a NUL: placeholders and a string cut at 255 bytes
test_bad_strings() {
	local long

	[ -r $DEBUGFS/marker-example/strings ] || { echo "# no strings file"; return 1; }
	echo > $T/trace
	echo 1 > $EV/example_str/enable
	cat $DEBUGFS/marker-example/strings
	echo 0 > $EV/example_str/enable
	grep -o ' example_str: nr=[12] .*' $T/trace | sed 's/^/# trace:/'
	has $T/trace ' example_str: nr=1 str=\(null\)$' &&
	has $T/trace ' example_str: nr=2 str=\(fault\)$' || return 1
	long=$(sed -nE 's/.* example_str: nr=3 str=(x*)$/\1/p' $T/trace)
	echo "# unterminated string recorded as ${#long} bytes"
	[ "${#long}" = 255 ]
}
ktap_test_result "NULL, unmapped and unterminated strings recorded bounded" \
	test_bad_strings

# marker-example's values file hits a 4-argument marker (recorded from
# the argument registers) and a 6-argument one (through the va_list),
# chars and ints next to wider fields; enabled in an instance too, the
# 4-argument one goes through the iterator and the va_list as well
test_values() {
	local f want1 want2

	[ -r $DEBUGFS/marker-example/values ] || { echo "# no values file"; return 1; }
	want1=' example_packed: a -5 z -1234567890123$'
	want2=' example_wide: c1=b i=-6 c2=y ll=-9876543210 u=4000000000 x=deadbeef$'
	mkdir $INST || return 1
	echo > $T/trace
	for f in $EV/example_packed $EV/example_wide; do
		echo 1 > $f/enable
	done
	cat $DEBUGFS/marker-example/values
	echo 1 > $INST/events/markers/example_packed/enable
	cat $DEBUGFS/marker-example/values
	echo 0 > $INST/events/markers/example_packed/enable
	for f in $EV/example_packed $EV/example_wide; do
		echo 0 > $f/enable
	done
	grep -h -o ' example_[pw][a-z]*: .*' $T/trace $INST/trace | sed 's/^/# /'
	[ "$(grep -c -E "$want1" $T/trace)" = 2 ] &&
		[ "$(grep -c -E "$want2" $T/trace)" = 2 ] &&
		[ "$(grep -c -E "$want1" $INST/trace)" = 1 ]
	f=$?
	rmdir $INST
	return $f
}
ktap_test_result "values recorded exactly from registers and from va_list" \
	test_values

test_filter() {
	echo > $T/trace
	echo 'count == 0x20' > $EV/subsys_mark3/filter || return 1
	echo 1 > $EV/subsys_mark3/enable
	hit 32
	hit 48
	echo 0 > $EV/subsys_mark3/enable
	echo 0 > $EV/subsys_mark3/filter
	has $T/trace ' subsys_mark3: reads=[0-9]+ count=20$' &&
	! grep -q 'count=30' $T/trace
}
ktap_test_result "filter on a marker field" test_filter

test_trigger() {
	echo > $T/trace
	echo 'traceoff if count == 48' > $EV/subsys_mark3/trigger || return 1
	echo 1 > $EV/subsys_mark3/enable
	hit 32
	[ "$(cat $T/tracing_on)" = 1 ] || return 1
	hit 48
	[ "$(cat $T/tracing_on)" = 0 ] || return 1
	echo 0 > $EV/subsys_mark3/enable
	echo '!traceoff' > $EV/subsys_mark3/trigger
	echo 1 > $T/tracing_on
}
ktap_test_result "trigger on a marker field" test_trigger

test_instance() {
	echo > $T/trace
	mkdir "$INST" || return 1
	echo 1 > "$INST/events/markers/subsys_mark3/enable"
	hit 16
	echo 0 > "$INST/events/markers/subsys_mark3/enable"
	has "$INST/trace" ' subsys_mark3: reads=[0-9]+ count=10$' &&
	! grep -q subsys_mark3 $T/trace &&
	rmdir "$INST"
}
ktap_test_result "instance buffer records on its own" test_instance

test_unload() {
	echo > $T/trace
	echo 1 > $EV/subsys_mark3/enable
	unload marker-example || return 1
	# Kept while enabled; records again when the module is back.
	[ -d $EV/subsys_mark3 ] || return 1
	load marker-example || return 1
	hit 8
	has $T/trace ' subsys_mark3: reads=1 count=8$' || return 1
	unload marker-example || return 1
	echo 0 > $EV/subsys_mark3/enable
	wait_for test ! -d $EV/subsys_mark3 || { echo "# event stayed"; return 1; }
	load marker-example && wait_for test -d $EV/subsys_mark3
}
ktap_test_result "module unload and reload while enabled" test_unload

# A removed event takes its records with it, as a module's own events do:
# left in the buffer, they would be printed with the layout of whatever
# event takes the type next.
test_removed_records() {
	echo > $T/trace
	echo 1 > $EV/subsys_mark3/enable
	hit 8
	echo 0 > $EV/subsys_mark3/enable
	has $T/trace ' subsys_mark3: reads=1 count=8$' || return 1
	unload marker-example || return 1
	wait_for test ! -d $EV/subsys_mark3 || { echo "# event stayed"; return 1; }
	if grep -v '^#' $T/trace | grep -q .; then
		echo "# records left after the event went:"
		grep -v '^#' $T/trace | head -3 | sed 's/^/#   /'
		return 1
	fi
	load marker-example && wait_for test -d $EV/subsys_mark3
}
ktap_test_result "records of a removed event are cleared with it" \
	test_removed_records

test_glob() {
	local t0 t1 t2 n

	[ -r $STATS ] || { echo "# no $STATS"; return 1; }
	t0=$(stat_applied)
	echo 'subsys_mark*' > $T/markers_enable || return 1
	t1=$(stat_applied)
	n=$(grep -c '^subsys_mark' $T/markers_enable)
	[ "$n" = 4 ] || { echo "# $n enabled"; return 1; }
	[ "$(cat $EV/subsys_mark2/enable)" = 1 ] || return 1
	echo '!subsys_mark*' > $T/markers_enable || return 1
	t2=$(stat_applied)
	[ "$(cat $EV/subsys_mark2/enable)" = 0 ] || return 1
	[ $((t1 - t0)) = 1 ] && [ $((t2 - t1)) = 1 ] ||
		{ echo "# applied batches $t0 $t1 $t2"; return 1; }
	! echo 'no_such_marker*' > $T/markers_enable 2>/dev/null
}
ktap_test_result "markers_enable: 4 markers, one static key batch each way" \
	test_glob

# 512 markers of marker-many: one static key batch each way, every one
# records; its 512 jump sites share its text_poke batches (one batch of
# 512 pokes, 3 IPI rounds, where one poke at a time would take 1536).
# record-cmd is off meanwhile: it would register the sched tracepoints,
# which mainline patches one poke at a time.
test_glob_many() {
	local t0 t1 t2 n c0 c1 c2 r0 r1 r2 want

	modprobe marker-many 2>/dev/null ||
		{ [ -n "$MARKERS_MODDIR" ] && insmod "$MARKERS_MODDIR/marker-many.ko"; } ||
		return 1
	wait_for test -d $EV/marker_many_777 || return 1
	echo > $T/trace
	t0=$(stat_applied); c0=$(stat_get applied_calls); r0=$(stat_get ipi_rounds)
	echo 'marker_many_*' > $T/markers_enable || return 1
	t1=$(stat_applied); c1=$(stat_get applied_calls); r1=$(stat_get ipi_rounds)
	n=$(grep -c '^marker_many_' $T/markers_enable)
	[ "$n" = 512 ] || { echo "# $n of 512 enabled"; return 1; }
	cat $DEBUGFS/marker-many/trigger
	n=$(grep -c ' marker_many_[0-7]*: nr=' $T/trace)
	[ "$n" = 512 ] || { echo "# $n of 512 recorded"; return 1; }
	has $T/trace 'marker_many_777: nr=511$' || return 1
	echo '!marker_many_*' > $T/markers_enable || return 1
	t2=$(stat_applied); c2=$(stat_get applied_calls); r2=$(stat_get ipi_rounds)
	[ $((t1 - t0)) = 1 ] && [ $((t2 - t1)) = 1 ] ||
		{ echo "# applied batches $t0 $t1 $t2"; return 1; }
	[ $((c1 - c0)) = 0 ] && [ $((c2 - c1)) = 0 ] ||
		{ echo "# static calls patched $c0 $c1 $c2"; return 1; }
	want=$(( 3 * ((512 + $(stat_get batch_max) - 1) / $(stat_get batch_max)) ))
	[ $((r1 - r0)) = "$want" ] && [ $((r2 - r1)) = "$want" ] ||
		{ echo "# ipi rounds $r0 $r1 $r2, want $want each way"; return 1; }
	echo "# 512 markers: 1 batch to enable, 1 to disable;" \
		"IPI rounds $((r1 - r0)) and $((r2 - r1))"
	rmmod marker_many
}

test_glob_many_quiet() {
	local cmd ret

	cmd=$(cat $T/options/record-cmd)
	echo 0 > $T/options/record-cmd
	test_glob_many
	ret=$?
	echo "$cmd" > $T/options/record-cmd
	return $ret
}
ktap_test_result "markers_enable: 512 markers, one static key batch each way" \
	test_glob_many_quiet

# tp_printk: the kernel prints each event as it is recorded, with the
# iterator tracing_init() allocates when booted with tp_printk
# (tp_printk_stop_on_boot leaves it unused until the sysctl turns it on).
TP_PRINTK=/proc/sys/kernel/tracepoint_printk
if ! { echo 1 > $TP_PRINTK && [ "$(cat $TP_PRINTK)" = 1 ]; } 2>/dev/null; then
	ktap_test_skip "tp_printk prints marker fields (kernel booted without tp_printk)"
else
	test_tp_printk() {
		echo "markers_selftest: tp_printk start" > /dev/kmsg
		echo 1 > $EV/subsys_mark2/enable
		echo 1 > $EV/subsys_mark3/enable
		hit 42
		echo 0 > $EV/subsys_mark2/enable
		echo 0 > $EV/subsys_mark3/enable
		dmesg | sed -n '/markers_selftest: tp_printk start/,$p' |
			grep subsys_mark > "$TMP/printk.txt"
		sed 's/^/# /' "$TMP/printk.txt"
		has "$TMP/printk.txt" ' subsys_mark3: reads=[0-9]+ count=2a$' &&
		has "$TMP/printk.txt" ' subsys_mark2: comm=dd$'
	}
	ktap_test_result "tp_printk prints marker fields" test_tp_printk
	echo 0 > $TP_PRINTK
fi

if ! command -v trace-cmd >/dev/null; then
	ktap_test_skip "trace-cmd record/report (trace-cmd not installed)"
else
	test_trace_cmd() {
		trace-cmd record -q -e markers:subsys_mark3 -o "$TMP/tc.dat" \
			dd if=$TRIGGER of=/dev/null bs=24 count=1 > "$TMP/tc.log" 2>&1 ||
			{ sed 's/^/# /' "$TMP/tc.log"; return 1; }
		trace-cmd report -i "$TMP/tc.dat" > "$TMP/tc.txt" 2>&1
		sed 's/^/# trace-cmd: /' "$TMP/tc.txt" | grep subsys_mark3 | head -2
		has "$TMP/tc.txt" 'subsys_mark3: +reads=[0-9]+ count=18$'
	}
	ktap_test_result "trace-cmd record/report decodes fields" test_trace_cmd
fi

PERF=$(markers_find_perf)
if [ -z "$PERF" ]; then
	ktap_test_skip "perf record/script (no working perf binary)"
else
	test_perf() {
		"$PERF" record -q -e markers:subsys_mark3 -o "$TMP/perf.data" \
			dd if=$TRIGGER of=/dev/null bs=40 count=1 > "$TMP/perf.log" 2>&1 ||
			{ sed 's/^/# /' "$TMP/perf.log"; return 1; }
		"$PERF" script -i "$TMP/perf.data" > "$TMP/perf.txt" 2>&1
		sed 's/^/# perf: /' "$TMP/perf.txt" | head -2
		has "$TMP/perf.txt" 'markers:subsys_mark3: reads=[0-9]+ count=28$' || return 1
		"$PERF" stat -x, -e markers:subsys_mark3 \
			dd if=$TRIGGER of=/dev/null bs=40 count=1 2> "$TMP/stat.txt" >/dev/null
		has "$TMP/stat.txt" '^1,+markers:subsys_mark3'
	}
	ktap_test_result "perf record/script and stat" test_perf
fi

ktap_finished
