# SPDX-License-Identifier: GPL-2.0
# Helpers shared by the markers selftests; sourced, not run.

MARKERS_STATS=/sys/kernel/debug/static_keys/stats

# wait_for TEST...: up to 5 s for the test to hold (events follow
# module notifiers through a work item)
wait_for() {
	local i

	for i in $(seq 50); do
		"$@" && return 0
		sleep 0.1
	done
	return 1
}

# stat_applied: static key batches applied since boot
stat_applied() {
	awk '$1 == "applied_batches" { print $2 }' $MARKERS_STATS
}

# stat_get NAME: one counter of <debugfs>/static_keys/stats
stat_get() {
	awk -v k="$1" '$1 == k { print $2 }' $MARKERS_STATS
}

# load MODULE [PARAM...]: modprobe, or insmod from $MARKERS_MODDIR
load() {
	local mod=$1

	shift
	modprobe "$mod" "$@" 2>/dev/null && return 0
	[ -n "$MARKERS_MODDIR" ] && insmod "$MARKERS_MODDIR/$mod.ko" "$@"
}

# unload MODULE
unload() {
	rmmod "${1//-/_}" 2>/dev/null
}

# loaded MODULE
loaded() {
	grep -q "^${1//-/_} " /proc/modules
}

# markers_skip_all REASON: the whole test is skipped
markers_skip_all() {
	ktap_skip_all "$1"
	exit "$KSFT_SKIP"
}

# markers_require_trace: the tests of the markers trace interface run as
# root on a kernel with CONFIG_MARKERS_TRACE; mounts debugfs and tracefs
markers_require_trace() {
	local why="kernel without CONFIG_MARKERS_TRACE"

	[ "$(id -u)" -eq 0 ] || markers_skip_all "must run as root"
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	mountpoint -q /sys/kernel/tracing ||
		mount -t tracefs nodev /sys/kernel/tracing
	[ -e /sys/kernel/tracing/markers_enable ] && [ -r $MARKERS_STATS ] ||
		markers_skip_all "no markers_enable or static_keys/stats: $why"
}

# markers_require_python WHY: python3, used for WHY
markers_require_python() {
	command -v python3 > /dev/null ||
		markers_skip_all "python3 not installed ($1)"
}

# markers_require_modules MODULE...: each loads and unloads (left unloaded)
markers_require_modules() {
	local m

	for m in "$@"; do
		loaded "$m" && unload "$m"
		load "$m" && unload "$m" ||
			markers_skip_all "$m module missing (CONFIG_SAMPLE_MARKERS)"
	done
}

# markers_find_perf: path of a perf binary that runs here, or fail
markers_find_perf() {
	local p

	for p in /usr/bin/perf_[0-9]* /usr/lib/linux-tools-*/perf /usr/bin/perf; do
		[ -x "$p" ] && "$p" version >/dev/null 2>&1 && { echo "$p"; return 0; }
	done
	return 1
}
