#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside a guest booted with lockdown=confidentiality: records the
# lockdown state and runs the markers lockdown kselftest.
set -u
. "$(dirname "$0")/common.sh"

mountpoint -q /sys/kernel/security ||
	mount -t securityfs none /sys/kernel/security
cat /sys/kernel/security/lockdown > "$OUT/lockdown.txt" 2>&1
rm -rf /tmp/ksft && cp -a "$KSFT" /tmp/ksft
(cd /tmp/ksft && ./run_kselftest.sh -t markers:lockdown.sh 2>&1; \
 echo "runner exit $?") | cat > "$OUT/kselftest.tap"
finish
