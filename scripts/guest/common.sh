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
# bpftrace (without BTF) parses kernel headers from the module tree's
# build link, which vng's tree lacks: give it the tree this kernel was
# built from, beside the kselftests.
if [ ! -e "/lib/modules/$(uname -r)/build/include/linux/kconfig.h" ] &&
	[ -e "$KSFT/../obj/include/generated/autoconf.h" ]; then
	BPFTRACE_KERNEL_SOURCE=$(readlink -f "$KSFT/../src")
	BPFTRACE_KERNEL_BUILD=$(readlink -f "$KSFT/../obj")
	export BPFTRACE_KERNEL_SOURCE BPFTRACE_KERNEL_BUILD
fi

finish() {
	sync
	echo ok > "$OUT/done"
	sync
}
