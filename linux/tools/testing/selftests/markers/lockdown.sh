#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# description: under lockdown=confidentiality the markers' tracefs files
#	are hidden or refuse readers and writers, like the other tracefs files
# requires: lockdown=confidentiality on the kernel command line, a
#	built-in marker (listed in <debugfs>/markers/list)
#
# Needs no module: built-in markers (the KUnit suite's, for instance)
# would have events.  Under confidentiality lockdown 6.12's tracefs does
# not create its files at all, so each file must be absent or, if a
# kernel creates it, refuse to open with EPERM.  "make test" boots a
# second time with lockdown to run this; without lockdown it skips.

DIR=$(dirname "$0")
. "$DIR/../kselftest/ktap_helpers.sh"

T=/sys/kernel/tracing
ME=$T/markers_enable
EV=$T/events/markers
LIST=/sys/kernel/debug/markers/list
LOCKDOWN=/sys/kernel/security/lockdown

ktap_print_header

if [ "$(id -u)" -ne 0 ]; then
	ktap_skip_all "must run as root"
	exit "$KSFT_SKIP"
fi
mountpoint -q /sys/kernel/security ||
	mount -t securityfs none /sys/kernel/security 2>/dev/null
if [ ! -r $LOCKDOWN ] || ! grep -q '\[confidentiality\]' $LOCKDOWN; then
	ktap_skip_all "not booted with lockdown=confidentiality"
	exit "$KSFT_SKIP"
fi
mountpoint -q $T || mount -t tracefs nodev $T 2>/dev/null
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
# The listing is a read-only debugfs file, which lockdown leaves readable.
NMARK=$(grep -c . $LIST 2>/dev/null)
if [ "${NMARK:-0}" = 0 ]; then
	ktap_skip_all "no built-in marker in $LIST"
	exit "$KSFT_SKIP"
fi

# errno PATH r|w: the errno name an open for reading or writing fails
# with, OK if it succeeds
errno() {
	python3 - "$1" "$2" <<'PY'
import errno, os, sys
path, mode = sys.argv[1], sys.argv[2]
try:
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK if mode == 'r' else os.O_WRONLY)
    if mode == 'r':
        os.read(fd, 4096)
    else:
        os.write(fd, b'0\n')
    os.close(fd)
    print('OK')
except OSError as e:
    print(errno.errorcode.get(e.errno, str(e.errno)))
PY
}

# refused PATH r|w: absent, or EPERM as lockdown refuses tracefs files
refused() {
	local e

	e=$(errno "$1" "$2")
	case "$e" in
	ENOENT)	[ ! -e "$1" ] ||
			{ echo "# $2 $1: ENOENT but it exists"; return 1; } ;;
	EPERM)	;;
	*)	echo "# $2 $1: $e, want EPERM or no such file"; return 1 ;;
	esac
}

# no_events: no marker event is visible in tracefs
no_events() {
	local n

	n=$(ls $EV 2>/dev/null | grep -vc '^enable$\|^filter$')
	[ "$n" = 0 ] || { echo "# $n marker events visible"; return 1; }
}

ktap_set_plan 5

echo "# $NMARK markers listed in debugfs"
ktap_test_result "lockdown: trace (mainline file) hidden or refused" \
	refused $T/trace r
ktap_test_result "lockdown: markers_enable read hidden or refused" \
	refused $ME r
ktap_test_result "lockdown: markers_enable write refused" refused $ME w
ktap_test_result "lockdown: no marker event visible" no_events
ktap_test_result "lockdown: markers/enable write refused" \
	refused $EV/enable w

ktap_finished
