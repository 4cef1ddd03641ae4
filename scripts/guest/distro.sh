#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside the guest for "make distro-test" (scripts/distro.py): what
# the kernel built with Debian's config mitigates on this CPU model and
# its lockdown state, then test.sh (KUnit, the kselftests KSFT_TESTS
# picks, the self-checking modules), then the kernel's taint flags.
# Usage: distro.sh <outdir> <kselftest-install-dir>
set -u
. "$(dirname "$0")/common.sh"

grep . /sys/devices/system/cpu/vulnerabilities/* > "$OUT/vulnerabilities.txt" 2>&1
mountpoint -q /sys/kernel/security || mount -t securityfs none /sys/kernel/security
cat /sys/kernel/security/lockdown > "$OUT/lockdown.txt" 2>&1
cat /proc/cmdline > "$OUT/cmdline.txt"
sync
"$(dirname "$0")/test.sh" "$OUT" "$KSFT"
cat /proc/sys/kernel/tainted > "$OUT/tainted.txt"
sync
