#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# description: malformed writes to the markers control files fail with
#	the right errno and change nothing; the files are root only
# requires: events/markers, markers_enable, static_keys/stats,
#	marker-example.ko, python3
#
# Every write goes through a small python helper (os.write() and the
# errno of the OSError) so the test sees the errno, not only a failed
# "echo".  Cases are "FILE EXPECTED PAYLOAD": PAYLOAD is a python bytes
# escape, or @huge (1 MiB), @page (PAGE_SIZE bytes), @page1 (one less),
# @bin (bytes 1..255) or @read (open and read instead of write).  Then the
# enabled set, enable/trigger files, the markers listing and the count of
# static key batches must be as before.  MARKERS_MODDIR may name a
# directory of the .ko files.

DIR=$(dirname "$0")
. "$DIR/../kselftest/ktap_helpers.sh"
. "$DIR/markers_lib.sh"

DEBUGFS=/sys/kernel/debug
TRIGGER=$DEBUGFS/marker-example/trigger
LIST=$DEBUGFS/markers/list
STATS=$DEBUGFS/static_keys/stats
T=/sys/kernel/tracing
ME=$T/markers_enable
EV=$T/events/markers
TMP=

cleanup() {
	echo '!*' > $ME 2>/dev/null
	echo '!traceoff' 2>/dev/null > $EV/subsys_mark3/trigger
	for f in $EV/*/filter; do
		[ -e "$f" ] && echo 0 > "$f"
	done
	echo 1 > $T/options/hash-ptr
	echo > $T/trace
	loaded marker-example && unload marker-example
	[ -n "$TMP" ] && rm -rf "$TMP"
}

write_helper() {
	cat > "$TMP/wr.py" <<'EOF'
import codecs, errno, os, sys
# stdin: "FILE<TAB>PAYLOAD" lines; stdout: OK or the errno name, per line
pay = {'@huge': b'a' * (1 << 20), '@page': b'a' * os.sysconf('SC_PAGE_SIZE'),
       '@page1': b'a' * (os.sysconf('SC_PAGE_SIZE') - 1),
       '@bin': bytes(range(1, 256))}
for line in sys.stdin:
    path, p = line.rstrip('\n').split('\t', 1)
    try:
        if p == '@read':
            fd = os.open(path, os.O_RDONLY)
            try:
                os.read(fd, 4096)
            finally:
                os.close(fd)
        else:
            data = pay.get(p)
            if data is None:
                data = codecs.escape_decode(p.encode())[0]
            fd = os.open(path, os.O_WRONLY)
            try:
                n = os.write(fd, data)
            finally:
                os.close(fd)
            if n != len(data):
                print('SHORT')
                continue
        print('OK')
    except OSError as e:
        print(errno.errorcode.get(e.errno, str(e.errno)))
    sys.stdout.flush()
EOF
}

# bad FILE ERRNO PAYLOAD: queue one case
bad() {
	printf '%s\t%s\t%s\n' "$1" "$2" "$3" >> "$TMP/cases"
}

# run_cases [PRIV...]: run the queued cases (through PRIV, e.g. setpriv),
# one KTAP result each; empties the queue
run_cases() {
	local path want pay got

	cut -f1,3 "$TMP/cases" | "$@" python3 "$TMP/wr.py" > "$TMP/got" 2>&1
	while IFS=$'\t' read -r path want pay <&3 && read -r got <&4; do
		[ "${#pay}" -gt 40 ] && pay="${pay:0:40}..."
		# WANT may list alternatives: A|B
		if [[ "|$want|" == *"|$got|"* ]]; then
			ktap_test_pass "${path#/sys/kernel/} <- '$pay': $want"
		else
			ktap_test_fail "${path#/sys/kernel/} <- '$pay': $got, expected $want"
		fi
	done 3< "$TMP/cases" 4< "$TMP/got"
	: > "$TMP/cases"
}

# snapshot: the state a rejected write must not change
snapshot() {
	local f

	echo "enabled: $(cat $ME | tr '\n' ' ')"
	for f in $EV/*/enable $EV/*/trigger; do
		echo "$f: $(grep -v '^#' "$f" | tr '\n' ' ')"
	done
	# name, format, sites, enabled, probes: not the hit counts
	awk '{ print $1, $2 }' $LIST
}


ktap_print_header

markers_require_trace
markers_require_python "checks the errno of each write"
markers_require_modules marker-example
load marker-example
TMP=$(mktemp -d)
chmod 755 "$TMP"	# the helper runs as nobody too
trap cleanup EXIT
write_helper
: > "$TMP/cases"

# A known state: one marker enabled, one trigger set.
echo '!*' > $ME 2>/dev/null
echo 1 > $EV/subsys_mark4/enable
echo 'traceoff if count == 12345' > $EV/subsys_mark3/trigger

# markers_enable: GLOB enables, !GLOB disables the matching markers
bad $ME EINVAL ''
bad $ME EINVAL '\n'
bad $ME EINVAL ' \t \n'
bad $ME EINVAL '!'
bad $ME EINVAL '!\n'
bad $ME EINVAL '  !  \n'
bad $ME EINVAL '\x00subsys_mark1'
bad $ME E2BIG @huge
bad $ME E2BIG @page
bad $ME ENOENT @page1
bad $ME ENOENT @bin
bad $ME ENOENT '\xff\xfe\xfd\n'
bad $ME ENOENT 'no_such_marker'
bad $ME ENOENT 'no_such_*'
bad $ME ENOENT '!no_such_marker'
bad $ME ENOENT '!!subsys_mark1'
bad $ME ENOENT 'subsys_mark['
bad $ME ENOENT 'subsys_mark[5-9]'
bad $ME ENOENT 'subsys_mark?x'
bad $ME ENOENT 'subsys_mark1 subsys_mark2'
bad $ME ENOENT 'subsys_mark1,subsys_mark2'
bad $ME ENOENT 'subsys_mark1\nsubsys_mark2'
bad $ME ENOENT 'markers:subsys_mark1'
bad $ME ENOENT 'subsys_mark1\x01'
# enable: 0 or 1
bad $EV/subsys_mark3/enable EINVAL ''
bad $EV/subsys_mark3/enable EINVAL '2\n'
bad $EV/subsys_mark3/enable EINVAL '-1'
bad $EV/subsys_mark3/enable EINVAL 'abc'
bad $EV/subsys_mark3/enable EINVAL '0x1'
bad $EV/subsys_mark3/enable EINVAL ' 1'
bad $EV/subsys_mark3/enable ERANGE '99999999999999999999999'
bad $EV/subsys_mark3/enable EINVAL @huge
bad $EV/subsys_mark3/enable EINVAL @bin
bad $EV/enable EINVAL '2'
bad $EV/enable EINVAL 'on'
# filter on marker fields: reads u64, count unsigned long (mark3), comm %s
# (mark2).  The filter parser of 6.12 returns some of its internal codes
# as errno: -EPERM from predicate_parse(), -TOO_MANY_OPEN (-ENOENT) and
# -MISSING_QUOTE (-ESRCH) from calc_stack(); what matters here is that
# the write fails.  Only filters that name marker fields wrongly are
# tried: how the event core's parser treats dangling operators is its
# own business and differs between stable releases (6.12.113 accepts a
# trailing "&&").
FERR='EINVAL|EPERM|ENOENT|ESRCH'
bad $EV/subsys_mark3/filter "$FERR" 'nofield == 1'
bad $EV/subsys_mark3/filter "$FERR" 'reads =='
bad $EV/subsys_mark3/filter "$FERR" '== 1'
bad $EV/subsys_mark3/filter "$FERR" 'reads == abc'
bad $EV/subsys_mark3/filter "$FERR" 'count == 0x'
bad $EV/subsys_mark3/filter "$FERR" 'reads == 18446744073709551616'
bad $EV/subsys_mark3/filter "$FERR" 'reads ~ "x*"'
bad $EV/subsys_mark3/filter "$FERR" '(reads == 1'
bad $EV/subsys_mark3/filter "$FERR" 'arg2 == 1'
bad $EV/subsys_mark3/filter "$FERR" @huge
bad $EV/subsys_mark3/filter "$FERR" @bin
bad $EV/subsys_mark2/filter "$FERR" 'comm > 5'
bad $EV/subsys_mark2/filter "$FERR" 'comm == "unterminated'
bad $EV/subsys_mark2/filter "$FERR" 'comm & 1'
bad $EV/subsys_mark2/filter "$FERR" 'arg1 == "x"'
# trigger
bad $EV/subsys_mark3/trigger EINVAL 'bogus'
bad $EV/subsys_mark3/trigger EINVAL '!bogus'
bad $EV/subsys_mark3/trigger EINVAL 'traceon if nofield == 1'
bad $EV/subsys_mark3/trigger EINVAL 'traceon if reads =='
bad $EV/subsys_mark3/trigger EINVAL 'traceon:abc'
bad $EV/subsys_mark3/trigger EINVAL 'enable_event:markers:no_such_marker'
bad $EV/subsys_mark3/trigger EINVAL 'enable_event:no_such_system'
bad $EV/subsys_mark3/trigger EINVAL @huge
bad $EV/subsys_mark3/trigger EINVAL @bin
# read-only files of the series
bad $TRIGGER EINVAL 'x'
bad $LIST EINVAL 'subsys_mark1'
bad $DEBUGFS/static_keys/keys EINVAL '1'
bad $DEBUGFS/static_keys/sites EINVAL '1'
bad $STATS EINVAL '0'

n_cases=$(wc -l < "$TMP/cases")
# + 3 state checks, 2 modes, 13 + 1 unprivileged, %p
ktap_set_plan $((n_cases + 20))

before=$(snapshot)
t0=$(stat_applied)
run_cases
echo "# $n_cases malformed writes tried"

test_unchanged() {
	local after

	after=$(snapshot)
	[ "$after" = "$before" ] && return 0
	diff <(echo "$before") <(echo "$after") | sed 's/^/# /'
	return 1
}
ktap_test_result "enabled set, enable and trigger files, listing unchanged" \
	test_unchanged

test_no_batch() {
	local t1

	t1=$(stat_applied)
	[ "$t1" = "$t0" ] ||
		{ echo "# static_keys/stats applied_batches $t0 -> $t1"; return 1; }
}
ktap_test_result "rejected writes applied no static key batch" test_no_batch

test_filter_recovers() {
	echo 0 > $EV/subsys_mark3/filter && echo 0 > $EV/subsys_mark2/filter &&
	[ "$(cat $EV/subsys_mark3/filter)" = none ] &&
	echo 'count == 0x20' > $EV/subsys_mark3/filter &&
	echo 0 > $EV/subsys_mark3/filter
}
ktap_test_result "filters clear and accept a valid filter afterwards" \
	test_filter_recovers

# --- security
mode_is() {
	local m

	m=$(stat -c %a "$1") || return 1
	[ "$m" = "$2" ] || { echo "# $1: mode $m, expected $2"; return 1; }
}

test_modes() {
	mode_is $LIST 400 && mode_is $DEBUGFS/static_keys/keys 400 &&
	mode_is $DEBUGFS/static_keys/sites 400 && mode_is $STATS 400 &&
	mode_is $ME 600
}
ktap_test_result "modes: debugfs markers/list, static_keys/* 0400, markers_enable 0600" \
	test_modes

test_event_modes() {
	local f m

	for f in $EV/subsys_mark1/* $EV/enable $EV/filter; do
		m=$(stat -c %a:%u "$f") || return 1
		case "$m" in
		*[1-7]:0) echo "# $f: mode:uid $m, open to others"; return 1 ;;
		*:0) ;;
		*) echo "# $f: mode:uid $m, not root's"; return 1 ;;
		esac
	done
}
ktap_test_result "events/markers files: root's, nothing for others" \
	test_event_modes

NOBODY=
if command -v setpriv > /dev/null; then
	NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups"
fi
if [ -n "$NOBODY" ]; then
	before=$(snapshot)
	t0=$(stat_applied)
fi
# as nobody: tracefs and debugfs are root only
bad $ME EACCES @read
bad $ME EACCES 'subsys_mark*'
bad $ME EACCES '!*'
bad $EV/subsys_mark1/enable EACCES '1'
bad $EV/subsys_mark3/filter EACCES 'reads == 1'
bad $EV/subsys_mark3/trigger EACCES 'traceoff'
bad $T/trace EACCES @read
bad $T/trace_pipe EACCES @read
bad $LIST EACCES @read
bad $DEBUGFS/static_keys/keys EACCES @read
bad $DEBUGFS/static_keys/sites EACCES @read
bad $STATS EACCES @read
bad $TRIGGER EACCES @read
if [ -z "$NOBODY" ]; then
	while read -r path _; do
		ktap_test_skip "unprivileged access to ${path#/sys/kernel/} (no setpriv)"
	done < "$TMP/cases"
	: > "$TMP/cases"
	ktap_test_skip "unprivileged user: markers unchanged (no setpriv)"
else
	run_cases $NOBODY
	test_unpriv_unchanged() {
		test_unchanged && [ "$(stat_applied)" = "$t0" ]
	}
	ktap_test_result "unprivileged user: markers unchanged after refused access" \
		test_unpriv_unchanged
fi

test_ptr_hashed() {
	local v

	echo 1 > $T/options/hash-ptr
	echo > $T/trace
	echo 1 > $EV/subsys_mark1/enable
	cat $TRIGGER > /dev/null
	echo 0 > $EV/subsys_mark1/enable
	v=$(sed -nE 's/.* subsys_mark1: nr=1 file=([0-9a-f]+)$/\1/p' $T/trace)
	[ -n "$v" ] || { echo "# no subsys_mark1 record"; return 1; }
	case "$v" in
	ffff*) echo "# raw kernel pointer $v in trace"; return 1 ;;
	esac
	echo "# %p printed as $v"
}
ktap_test_result "%p is hashed in trace output (hash-ptr on)" test_ptr_hashed

ktap_finished
