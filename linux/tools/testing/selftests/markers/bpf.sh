#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# description: BPF programs on marker events: libbpf's
#	SEC("tracepoint/markers/...") and bpftrace's tracepoint:markers:*
# requires: events/markers, marker-example.ko, marker-decode.ko,
#	CONFIG_BPF_EVENTS, marker_bpf (clang, libbpf), bpftrace
#
# A marker event is a tracepoint to BPF: perf attaches a tracepoint-type
# program to it, which runs on every hit with the record laid out as the
# event's format file says.  marker_bpf (built here with clang and
# libbpf) attaches three programs to markers of marker-decode and prints
# the fields they read; bpftrace runs one-liners over named fields and
# prints the marker-decode rows with the sites' own formats, which must
# give what the trace file does (decode.sh).  MARKERS_MODDIR may name a
# directory of the .ko files.

DIR=$(dirname "$(readlink -f "$0")")
. "$DIR/../kselftest/ktap_helpers.sh"
. "$DIR/markers_lib.sh"

T=/sys/kernel/tracing
DECODE=/sys/kernel/debug/marker-decode/trigger
EXAMPLE=/sys/kernel/debug/marker-example/trigger
TMP=

cleanup() {
	loaded marker-decode && unload marker-decode
	loaded marker-example && unload marker-example
	[ -n "$TMP" ] && rm -rf "$TMP"
}

# has FILE PATTERN: FILE holds a line matching the extended regex
has() {
	grep -qE "$2" "$1" ||
		{ echo "# no /$2/ in $1:"; sed 's/^/#   /' "$1" | tail -8; return 1; }
}

# same FILE WANT: FILE holds exactly the lines of WANT
same() {
	if [ "$(cat "$1")" = "$2" ]; then
		return 0
	fi
	diff <(echo "$2") "$1" | sed 's/^/# /'
	return 1
}

ktap_print_header

markers_require_trace
markers_require_modules marker-example marker-decode
load marker-example
load marker-decode
TMP=$(mktemp -d)
trap cleanup EXIT

ktap_set_plan 7

if [ ! -x "$DIR/marker_bpf" ] || [ ! -e "$DIR/marker_bpf.bpf.o" ]; then
	for t in "programs on marker events" "a marker without arguments" \
		"reading past a marker without arguments"; do
		ktap_test_skip "libbpf $t (not built: needs clang and libbpf)"
	done
else
	test_libbpf() {
		"$DIR/marker_bpf" "$DIR/marker_bpf.bpf.o" $DECODE 3 > "$TMP/bpf.txt" 2>&1
		sed 's/^/# /' "$TMP/bpf.txt"
		same "$TMP/bpf.txt" "hits 3
min -2147483648
max 2147483647
neg -1
llmin -9223372036854775808
ullmax 18446744073709551615
llx 81985529216486895
llo 1023
a 81
n -3
b 126
w -9223372036854775808
z 33"
	}
	ktap_test_result "libbpf: tracepoint programs on marker events, every hit, exact fields" \
		test_libbpf

	# subsys_mark4 has no arguments: its record is the common fields,
	# which perf's size check for tracepoint programs must see as such.
	test_noargs() {
		"$DIR/marker_bpf" "$DIR/marker_noargs.bpf.o" $EXAMPLE 3 \
			> "$TMP/noargs.txt" 2>&1
		sed 's/^/# /' "$TMP/noargs.txt"
		has "$TMP/noargs.txt" '^hits 3$'
	}
	ktap_test_result "libbpf: no-argument marker, a program reading no field, every hit" \
		test_noargs

	test_noargs_past() {
		if "$DIR/marker_bpf" "$DIR/marker_noargs_past.bpf.o" $EXAMPLE 1 \
			> "$TMP/past.txt" 2>&1; then
			echo "# marker_noargs_past.bpf.o attached"
			return 1
		fi
		sed 's/^/# /' "$TMP/past.txt"
		has "$TMP/past.txt" '^attach tracepoint/markers/subsys_mark4: Permission denied$'
	}
	ktap_test_result "libbpf: no-argument marker, a program reading past it: EACCES" \
		test_noargs_past
fi

BPFTRACE=$(command -v bpftrace)
if [ -z "$BPFTRACE" ]; then
	for t in "lists" "one-liner" "decodes" "string fields"; do
		ktap_test_skip "bpftrace $t (bpftrace not installed)"
	done
	ktap_finished
fi

# run_bpftrace PROGRAM COMMAND: bpftrace -e PROGRAM while COMMAND runs
run_bpftrace() {
	echo "$2" > "$TMP/cmd.sh"
	timeout 300 "$BPFTRACE" -e "$1" -c "/bin/sh $TMP/cmd.sh" 2>&1
}

# bpftrace 0.17 without kernel BTF parses the kernel's headers first.
if "$BPFTRACE" -e 'BEGIN { exit(); }' 2>&1 | grep -q 'kconfig.h.* not found'; then
	for t in "lists" "one-liner" "decodes" "string fields"; do
		ktap_test_skip "bpftrace $t (no kernel headers in" \
			"/lib/modules/$(uname -r)/build or BPFTRACE_KERNEL_SOURCE)"
	done
	ktap_finished
fi

test_list() {
	"$BPFTRACE" -l 'tracepoint:markers:*' > "$TMP/list.txt" 2>&1
	has "$TMP/list.txt" '^tracepoint:markers:subsys_mark1$' &&
		has "$TMP/list.txt" '^tracepoint:markers:decode_int$'
}
ktap_test_result "bpftrace -l lists tracepoint:markers:*" test_list

test_oneliner() {
	run_bpftrace 'tracepoint:markers:subsys_mark1 { @[args->nr] = count(); }' \
		"for i in 1 2 3; do cat $EXAMPLE; done > /dev/null" > "$TMP/count.txt"
	sed 's/^/# /' "$TMP/count.txt"
	has "$TMP/count.txt" '^@\[1\]: 3$'
}
ktap_test_result "bpftrace one-liner over a named field" test_oneliner

# The rows of decode.sh that bpftrace's printf() can print with the
# site's own format, %d for %i, which bpftrace lacks ("w=[%8d]" has no name
# before its conversion: arg0).
test_decode() {
	run_bpftrace '
tracepoint:markers:decode_int {
	printf("min=%d max=%d neg=%d\n", args->min, args->max, args->neg); }
tracepoint:markers:decode_uint {
	printf("max=%u hex=%x HEX=%X\n", args->max, args->hex, args->HEX); }
tracepoint:markers:decode_char {
	printf("a=%c n=%d b=%c w=%lld z=%c\n", args->a, args->n, args->b,
	       args->w, args->z); }
tracepoint:markers:decode_long {
	printf("lmin=%ld lmax=%ld ulmax=%lu\n", args->lmin, args->lmax,
	       args->ulmax); }
tracepoint:markers:decode_ll {
	printf("llmin=%lld ullmax=%llu llx=%llx\n", args->llmin, args->ullmax,
	       args->llx); }
tracepoint:markers:decode_size {
	printf("zd=%ld zu=%lu zx=%lx\n", args->zd, args->zu, args->zx); }
tracepoint:markers:decode_flags {
	printf("w=[%8d] l=[%-6d] z=%08x\n", args->arg0, args->arg1, args->z); }
' "cat $DECODE" > "$TMP/decode.txt"
	grep -v '^Attaching' "$TMP/decode.txt" | grep . > "$TMP/decode2.txt"
	same "$TMP/decode2.txt" "min=-2147483648 max=2147483647 neg=-1
max=4294967295 hex=deadbeef HEX=ABCDEF
a=Q n=-3 b=~ w=-9223372036854775808 z=!
lmin=-9223372036854775808 lmax=9223372036854775807 ulmax=18446744073709551615
llmin=-9223372036854775808 ullmax=18446744073709551615 llx=123456789abcdef
zd=-3 zu=18446744073709551615 zx=abc
w=[      42] l=[-42   ] z=0000beef"
}
ktap_test_result "bpftrace prints the marker-decode fields as the trace file does" test_decode

test_string() {
	run_bpftrace 'tracepoint:markers:decode_str {
	printf("prec=%s null=%s bad=%s\n", str(args->prec, 3), str(args->null),
	       str(args->bad)); }' "cat $DECODE" > "$TMP/str.txt"
	sed 's/^/# /' "$TMP/str.txt"
	has "$TMP/str.txt" '^prec=abc null=\(null\) bad=\(fault\)$'
}
ktap_test_result "bpftrace on __data_loc string fields" test_string

ktap_finished
