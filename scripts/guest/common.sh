# SPDX-License-Identifier: GPL-2.0
# Sourced by the guest scripts: mounts and the result directory.
# Usage: . common.sh <outdir> <kselftest-install-dir>

OUT=$1
KSFT=$2
mkdir -p "$OUT"
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
mountpoint -q /sys/kernel/tracing || mount -t tracefs none /sys/kernel/tracing
# The mainline tests call /sbin/modprobe; the guest's module tree is vng's.
depmod -a 2>/dev/null || true

finish() {
	sync
	echo ok > "$OUT/done"
	sync
}
