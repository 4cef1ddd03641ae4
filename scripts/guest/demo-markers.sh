# SPDX-License-Identifier: GPL-2.0
# Sourced by demo.sh when the kernel has markers: load the samples, list
# the markers, connect a probe (and the trace event when it exists), hit
# the sites and show what was recorded.

D=/sys/kernel/debug
T=/sys/kernel/tracing
step() { echo; echo "== $*"; }

step "modprobe marker-example probe-example markers=subsys_mark1,subsys_mark3"
modprobe marker-example
modprobe probe-example markers=subsys_mark1,subsys_mark3
step "cat $D/markers/list"
cat $D/markers/list
if [ -d $T/events/markers/subsys_mark1 ]; then
	step "echo 1 > $T/events/markers/subsys_mark1/enable"
	echo > $T/trace
	echo 1 > $T/events/markers/subsys_mark1/enable
	cat $T/events/markers/subsys_mark1/format
fi
step "hit the sites: cat $D/marker-example/trigger (3 times)"
for i in 1 2 3; do cat $D/marker-example/trigger > /dev/null; done
step "cat $D/probe-example/counts"
cat $D/probe-example/counts
if [ -d $T/events/markers/subsys_mark1 ]; then
	echo 0 > $T/events/markers/subsys_mark1/enable
	step "cat $T/trace"
	grep -v '^#' $T/trace
	if command -v trace-cmd > /dev/null; then
		step "trace-cmd record -e markers:subsys_mark1; trace-cmd report"
		cd /tmp && trace-cmd record -q -e markers:subsys_mark1 \
			cat $D/marker-example/trigger > /dev/null 2>&1
		trace-cmd report -i /tmp/trace.dat 2>/dev/null | tail -n 3
	fi
fi
step "marker_example's site keys in debugfs static_keys/keys (key, enabled, count, type, owner, sites, mismatch)"
grep '^__mark_site' $D/static_keys/keys | grep marker_example
rmmod probe_example marker_example
