# SPDX-License-Identifier: GPL-2.0
# Helpers shared by the markers selftests; sourced, not run.

MARKERS_STATS=/sys/kernel/debug/static_keys_stats

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

# stat_txn: static-key transactions committed since boot
stat_txn() {
	awk '$1 == "transactions" { print $2 }' $MARKERS_STATS
}

# stat_get NAME: one counter of static_keys_stats
stat_get() {
	awk -v k="$1" '$1 == k { print $2 }' $MARKERS_STATS
}
