#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# description: every tracer prints a marker event as the site's format
#	does: the trace file, trace-cmd report and perf script
# requires: events/markers, markers_enable, marker-decode.ko
#
# samples/markers/marker-decode.c hits one marker per row of the table
# below when its trigger file is read: every supported conversion at its
# extremes, chars next to wider fields, flags, widths, precisions, bad
# and long strings, and text the print fmt has to escape.  Each row is
# what printf() makes of the site's format and arguments (a %s field
# keeps 255 bytes; a NULL or unmapped string is recorded as a
# placeholder), and each tool must print exactly that.  MARKERS_MODDIR
# may name a directory of the .ko files.

DIR=$(dirname "$0")
. "$DIR/../kselftest/ktap_helpers.sh"
. "$DIR/markers_lib.sh"

T=/sys/kernel/tracing
EV=$T/events/markers
TRIGGER=/sys/kernel/debug/marker-decode/trigger
TMP=

LONG=$(printf 'y%.0s' $(seq 255))
# Each event's line, then the text every tool must print for it, indented
TABLE=$(sed "s/@LONG@/$LONG/" <<'END'
decode_int
	min=-2147483648 max=2147483647 neg=-1
decode_uint
	max=4294967295 hex=deadbeef HEX=0XABCDEF oct=0755
decode_short
	s=-2 us=65535 sc=-128 uc=255 hx=ab
decode_char
	a=Q n=-3 b=~ w=-9223372036854775808 z=!
decode_long
	lmin=-9223372036854775808 lmax=9223372036854775807 ulmax=18446744073709551615 lx=0xfeedface
decode_ll
	llmin=-9223372036854775808 ullmax=18446744073709551615 llx=123456789abcdef llo=1777
decode_size
	zd=-3 zu=18446744073709551615 zx=abc
decode_flags
	w=[      42] l=[-42   ] z=0000beef pr=007 ws=[   ab] ls=[cd   ] wc=[  k]
decode_str
	empty=[] prec=abc null=(null) bad=(fault) long=@LONG@
decode_text
	100% "q" \ n=1
decode_plain
	-2 255 ab Q -3 18446744073709551615
END
)
EVENTS=$(grep -v '^[[:space:]]' <<< "$TABLE")
PLAIN_FMT='^print fmt: "%hd %hhu %hhx %s %ld %lu", '
PLAIN_FMT+='REC->arg0, REC->arg1, REC->arg2, REC->arg3, REC->arg4, REC->arg5$'

cleanup() {
	echo '!decode_*' > $T/markers_enable 2>/dev/null
	echo > $T/trace
	loaded marker-decode && unload marker-decode
	[ -n "$TMP" ] && rm -rf "$TMP"
}

# check TOOL FILE: every row of the table in FILE, as "event<TAB>text"
check() {
	local tool=$1 file=$2 ev want got

	while read -r ev && IFS= read -r want; do
		want=${want#$'\t'}
		got=$(awk -F'\t' -v e="$ev" '$1 == e { print $2; exit }' "$file")
		if [ "$got" = "$want" ]; then
			ktap_test_pass "$tool: $ev"
		else
			echo "# want: $want"
			echo "# got:  $got"
			ktap_test_fail "$tool: $ev"
		fi
	done <<< "$TABLE"
}

# Lines "... <event>: <text>" of a tool's output as "event<TAB>text";
# trace-cmd pads the event name, perf prefixes the system.
split() {
	sed -nE 's/^.* (markers:)?(decode_[a-z]+): +(.*)$/\2\t\3/p'
}

ktap_print_header

markers_require_trace
markers_require_modules marker-decode
load marker-decode
TMP=$(mktemp -d)
trap cleanup EXIT

ROWS=$(wc -l <<< "$EVENTS")
ktap_set_plan $((3 * ROWS + 2))

# The fields are named as the sites name them, arg<N> where they don't.
if grep -q 'field:int min;' $EV/decode_int/format &&
	grep -q 'field:char arg3;' $EV/decode_plain/format &&
	grep -q "$PLAIN_FMT" $EV/decode_plain/format; then
	ktap_test_pass "fields named by the format, print fmt binds each conversion"
else
	sed 's/^/# /' $EV/decode_plain/format
	ktap_test_fail "fields named by the format, print fmt binds each conversion"
fi
if grep -qF 'print fmt: "100%% \"q\" \\ n=%u", REC->n' $EV/decode_text/format; then
	ktap_test_pass "print fmt escapes quotes and backslashes, keeps %%"
else
	grep '^print fmt' $EV/decode_text/format | sed 's/^/# /'
	ktap_test_fail "print fmt escapes quotes and backslashes, keeps %%"
fi

echo > $T/trace
echo 'decode_*' > $T/markers_enable
cat $TRIGGER
echo '!decode_*' > $T/markers_enable
split < $T/trace > "$TMP/trace.txt"
check "trace file" "$TMP/trace.txt"

if ! command -v trace-cmd >/dev/null; then
	for ev in $EVENTS; do
		ktap_test_skip "trace-cmd report: $ev (trace-cmd not installed)"
	done
else
	trace-cmd record -q -e 'markers:decode_*' -o "$TMP/tc.dat" \
		cat $TRIGGER > "$TMP/tc.log" 2>&1 || sed 's/^/# /' "$TMP/tc.log"
	trace-cmd report -i "$TMP/tc.dat" 2>&1 | split > "$TMP/tc.txt"
	check "trace-cmd report" "$TMP/tc.txt"
fi

PERF=$(markers_find_perf)
if [ -z "$PERF" ]; then
	for ev in $EVENTS; do
		ktap_test_skip "perf script: $ev (no working perf binary)"
	done
else
	"$PERF" record -q -e 'markers:decode_*' -o "$TMP/perf.data" \
		cat $TRIGGER > "$TMP/perf.log" 2>&1 || sed 's/^/# /' "$TMP/perf.log"
	"$PERF" script -i "$TMP/perf.data" 2>&1 | split > "$TMP/perf.txt"
	check "perf script" "$TMP/perf.txt"
fi

ktap_finished
