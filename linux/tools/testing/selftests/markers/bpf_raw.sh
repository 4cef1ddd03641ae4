#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# description: raw tracepoint BPF programs on markers, by marker name
# requires: marker-decode.ko, CONFIG_MARKERS_BPF, marker_bpf (clang, libbpf)
#
# A marker hit passes its arguments as u64 slots, the context of a raw
# tracepoint program: BPF_RAW_TRACEPOINT_OPEN with a marker's name attaches
# to its sites, and the program reads the site's arguments.  marker_bpf
# loads SEC("raw_tp/<marker>") programs on marker-decode's markers and
# prints what they read, which must be what the tracepoint programs on
# the same markers' events read (bpf.sh), with two links on one marker
# and across an unload and reload of the markers' module.  A program
# reading past the marker's arguments is refused with EINVAL; a name
# nobody defines, and a marker's name for a writable program, with
# ENOENT; a tp_btf program on a marker's name does not load (no BTF type
# for it).  MARKERS_MODDIR may name a directory of the .ko files.

DIR=$(dirname "$(readlink -f "$0")")
. "$DIR/../kselftest/ktap_helpers.sh"
. "$DIR/markers_lib.sh"

DECODE=/sys/kernel/debug/marker-decode/trigger
TMP=

cleanup() {
	loaded marker-decode && unload marker-decode
	[ -n "$TMP" ] && rm -rf "$TMP"
}

ktap_print_header

if [ ! -x "$DIR/marker_bpf" ] || [ ! -e "$DIR/marker_raw.bpf.o" ] ||
   [ ! -e "$DIR/marker_bpf.bpf.o" ]; then
	ktap_set_plan 1
	ktap_test_skip "raw tracepoint programs on markers (not built: needs clang and libbpf)"
	ktap_finished
fi
# Without CONFIG_MARKERS_BPF every marker name fails with ENOENT; tell
# that from a failure where kallsyms can (it lists bpf_trace.c's
# functions, so it would list bpf_markers.c's).
if grep -q ' bpf_get_raw_tracepoint$' /proc/kallsyms 2>/dev/null &&
   ! grep -q ' bpf_get_raw_marker$' /proc/kallsyms; then
	markers_skip_all "kernel without CONFIG_MARKERS_BPF"
fi
markers_require_modules marker-decode
load marker-decode
TMP=$(mktemp -d)
trap cleanup EXIT

ktap_set_plan 8

# The values bpf.sh's tracepoint programs read from the same markers'
# records (INT_MIN, LLONG_MIN, ULLONG_MAX, chars next to wider fields),
# every hit: the slots of int and char arguments are their values
# sign-extended.
test_slots() {
	"$DIR/marker_bpf" "$DIR/marker_bpf.bpf.o" $DECODE 3 > "$TMP/tp.txt" 2>&1
	"$DIR/marker_bpf" "$DIR/marker_raw.bpf.o" $DECODE 3 > "$TMP/raw.txt" 2>&1
	sed 's/^/# /' "$TMP/raw.txt"
	grep -qx 'hits 3' "$TMP/raw.txt" && grep -qx 'min -2147483648' "$TMP/raw.txt" ||
		return 1
	diff "$TMP/tp.txt" "$TMP/raw.txt" | sed 's/^/# /'
	cmp -s "$TMP/tp.txt" "$TMP/raw.txt"
}
ktap_test_result "raw_tp programs by marker name read every hit's arguments" test_slots

# Two links on decode_int: both programs run on every hit (hits 6 for 3
# reads), the values as with one.
test_two() {
	"$DIR/marker_bpf" "$DIR/marker_raw_two.bpf.o" $DECODE 3 > "$TMP/two.txt" 2>&1
	sed 's/^/# /' "$TMP/two.txt"
	grep -qx 'hits 6' "$TMP/two.txt" || return 1
	diff <(grep -v '^hits ' "$TMP/raw.txt") <(grep -v '^hits ' "$TMP/two.txt") |
		sed 's/^/# /'
	cmp -s <(grep -v '^hits ' "$TMP/raw.txt") <(grep -v '^hits ' "$TMP/two.txt")
}
ktap_test_result "two raw_tp links on one marker both run on every hit" test_two

# A link made while marker-decode is loaded stays connected by name when
# the module goes (the marker keeps the probe and its format, no site)
# and runs on the sites of the module loaded again.
test_reload() {
	local pid line i

	mkfifo "$TMP/go"
	"$DIR/marker_bpf" -w "$DIR/marker_raw.bpf.o" $DECODE 3 < "$TMP/go" \
		> "$TMP/reload.txt" 2>&1 &
	pid=$!
	exec 3> "$TMP/go"
	for i in $(seq 600); do
		grep -qx attached "$TMP/reload.txt" && break
		kill -0 $pid 2>/dev/null || break
		sleep 0.1
	done
	if ! grep -qx attached "$TMP/reload.txt"; then
		exec 3>&-
		sed 's/^/# /' "$TMP/reload.txt"
		wait $pid
		return 1
	fi
	unload marker-decode
	line=$(grep '^decode_int ' /sys/kernel/debug/markers/list)
	echo "# unloaded: $line"
	load marker-decode
	echo go >&3
	exec 3>&-
	wait $pid || { sed 's/^/# /' "$TMP/reload.txt"; return 1; }
	case " $line " in
	*" sites=0 "*" probes=1 "*) ;;
	*) return 1 ;;
	esac
	sed -i '/^attached$/d' "$TMP/reload.txt"
	diff "$TMP/raw.txt" "$TMP/reload.txt" | sed 's/^/# /'
	cmp -s "$TMP/raw.txt" "$TMP/reload.txt"
}
ktap_test_result "a raw_tp link runs on the marker's sites after their module is reloaded" \
	test_reload

# attach_fails OBJECT ERROR: marker_bpf cannot attach OBJECT's program
attach_fails() {
	if "$DIR/marker_bpf" "$DIR/$1" $DECODE 1 > "$TMP/err.txt" 2>&1; then
		echo "# $1 attached"
		return 1
	fi
	sed 's/^/# /' "$TMP/err.txt"
	grep -q "^attach raw_tp[.w]*/.*: $2$" "$TMP/err.txt"
}

test_past() {
	attach_fails marker_raw_past.bpf.o "Invalid argument"
}
ktap_test_result "a raw_tp program reading past the marker's arguments: EINVAL" test_past

test_none() {
	attach_fails marker_raw_none.bpf.o "No such file or directory"
}
ktap_test_result "a raw_tp program on a name no marker has: ENOENT" test_none

test_writable() {
	attach_fails marker_raw_w.bpf.o "No such file or directory"
}
ktap_test_result "a writable raw_tp program on a marker's name: ENOENT" test_writable

# A tp_btf program attaches to the tracepoint whose BTF type
# btf_trace_<name> it was loaded against; a marker has none, so with BTF
# in the kernel the program is refused at load, by name.
test_tp_btf() {
	if "$DIR/marker_bpf" "$DIR/marker_btf.bpf.o" $DECODE 1 > "$TMP/btf.txt" 2>&1; then
		echo "# marker_btf.bpf.o loaded and attached"
		return 1
	fi
	sed 's/^/# /' "$TMP/btf.txt"
	grep -q "find kernel BTF type ID of 'decode_int'" "$TMP/btf.txt" &&
		grep -q '^load: ' "$TMP/btf.txt"
}
if [ -e /sys/kernel/btf/vmlinux ]; then
	ktap_test_result "a tp_btf program on a marker's name: refused at load" test_tp_btf
else
	ktap_test_skip "a tp_btf program on a marker's name (kernel without BTF)"
fi

# The links are gone with the process: no probe left, the sites off.
test_detached() {
	local line

	line=$(grep '^decode_int ' /sys/kernel/debug/markers/list)
	echo "# $line"
	case " $line " in
	*" enabled=0 "*) ;;
	*) return 1 ;;
	esac
	case " $line " in
	*" probes=0 "*) ;;
	*) return 1 ;;
	esac
}
ktap_test_result "decode_int has no probe and its sites are off once the links are closed" \
	test_detached

ktap_finished
