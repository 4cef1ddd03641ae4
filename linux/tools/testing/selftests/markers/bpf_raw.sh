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
# the same markers' events read (bpf.sh).  A program reading past the
# marker's arguments is refused with EINVAL, a name nobody defines with
# ENOENT.  MARKERS_MODDIR may name a directory of the .ko files.

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
markers_require_modules marker-decode
load marker-decode
TMP=$(mktemp -d)
trap cleanup EXIT

ktap_set_plan 4

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

# attach_fails OBJECT ERROR: marker_bpf cannot attach OBJECT's program
attach_fails() {
	if "$DIR/marker_bpf" "$DIR/$1" $DECODE 1 > "$TMP/err.txt" 2>&1; then
		echo "# $1 attached"
		return 1
	fi
	sed 's/^/# /' "$TMP/err.txt"
	grep -q "^attach raw_tp/.*: $2$" "$TMP/err.txt"
}

test_past() {
	attach_fails marker_raw_past.bpf.o "Invalid argument"
}
ktap_test_result "a raw_tp program reading past the marker's arguments: EINVAL" test_past

test_none() {
	attach_fails marker_raw_none.bpf.o "No such file or directory"
}
ktap_test_result "a raw_tp program on a name no marker has: ENOENT" test_none

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
