#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside the guest for "make run": shows the booted kernel, then the
# markers demo (sample modules, listing, one marker enabled and what it
# recorded) when the series has markers, else the static-key selftest.
set -u
. "$(dirname "$0")/common.sh"

exec > >(tee "$OUT/demo.txt") 2>&1
echo "== booted: $(uname -r) $(uname -v)"
echo "== cpus: $(nproc), jump labels: $(grep -c . /sys/kernel/debug/static_keys/keys 2>/dev/null || echo n/a) keys listed"
if [ -d /sys/kernel/tracing/events/markers ] || modinfo marker-example >/dev/null 2>&1; then
	. "$(dirname "$0")/demo-markers.sh"
else
	echo "== static_keys selftest"
	(cd "$KSFT" && ./run_kselftest.sh -c static_keys)
fi
finish
