# SPDX-License-Identifier: GPL-2.0
# Fault-injection sweeps shared by static_keys/fail_nth.sh and
# markers/fail_nth.sh; sourced, not run.  Needs ktap_helpers.sh.
#
# fail_nth_sweep fails each fault point of one operation in turn with
# the fail_nth helper, n = 1, 2, ... until the operation runs to its end
# with nothing failed.  fail-nth is per thread: the operation's own
# system call is what counts, including work it does in other code on
# its own behalf; work items it only queues are not reached.

FN_DEBUGFS=/sys/kernel/debug
FN_HELPER=${FN_HELPER:-$(dirname "${BASH_SOURCE[0]}")/fail_nth}
FN_SAVED=()

# fail_nth_setup: skip the whole test without what it needs; make every
# slab and page allocation of a task count (the defaults leave out
# GFP_KERNEL and order 0), quietly.  fail_nth_restore undoes it.
fail_nth_setup() {
	local f attr

	[ "$(id -u)" -eq 0 ] || { ktap_skip_all "must run as root"; exit "$KSFT_SKIP"; }
	mountpoint -q $FN_DEBUGFS || mount -t debugfs none $FN_DEBUGFS
	if [ ! -e /proc/thread-self/fail-nth ] || [ ! -d $FN_DEBUGFS/failslab ] ||
	   [ ! -d $FN_DEBUGFS/fail_page_alloc ]; then
		ktap_skip_all "no FAILSLAB, FAIL_PAGE_ALLOC or FAULT_INJECTION_DEBUG_FS"
		exit "$KSFT_SKIP"
	fi
	[ -x "$FN_HELPER" ] || { ktap_skip_all "fail_nth helper not built"; exit "$KSFT_SKIP"; }
	# fail-nth counts every fault point; failed user copies (EFAULT)
	# would fail the helper's own reads and writes.
	if [ -d $FN_DEBUGFS/fail_usercopy ]; then
		ktap_skip_all "FAULT_INJECTION_USERCOPY: fail-nth would fail user copies"
		exit "$KSFT_SKIP"
	fi
	for f in failslab/ignore-gfp-wait failslab/verbose \
		 fail_page_alloc/ignore-gfp-wait fail_page_alloc/ignore-gfp-highmem \
		 fail_page_alloc/min-order fail_page_alloc/verbose; do
		FN_SAVED+=("$f=$(cat $FN_DEBUGFS/$f)")
	done
	for attr in failslab fail_page_alloc; do
		echo N > $FN_DEBUGFS/$attr/ignore-gfp-wait
		echo 0 > $FN_DEBUGFS/$attr/verbose
	done
	echo N > $FN_DEBUGFS/fail_page_alloc/ignore-gfp-highmem
	echo 0 > $FN_DEBUGFS/fail_page_alloc/min-order
	# Only what the sweeps leak: forget what kmemleak found before.
	[ -e $FN_DEBUGFS/kmemleak ] && echo clear > $FN_DEBUGFS/kmemleak
}

# fail_nth_test DESCRIPTION NAME STATE UNDO PREPARE -- OP ARG...: one
# KTAP result for fail_nth_sweep (arguments kept whole, unlike
# ktap_test_result's).
fail_nth_test() {
	local desc=$1

	shift
	if fail_nth_sweep "$@"; then
		ktap_test_pass "$desc"
	else
		ktap_test_fail "$desc"
	fi
}

fail_nth_restore() {
	local s

	for s in "${FN_SAVED[@]}"; do
		echo "${s#*=}" > "$FN_DEBUGFS/${s%%=*}"
	done
	FN_SAVED=()
}

# fail_nth_sweep NAME STATE UNDO PREPARE -- OP ARG...: sweep "fail_nth n
# OP ARG..." for n = 1, 2, ...  Before each attempt PREPARE runs (":" for
# nothing); after it "UNDO ok" or "UNDO err" puts things back, and the
# output of STATE must equal what it printed before the sweep.  Every
# attempt must succeed or fail with ENOMEM.  Prints the count of fault
# points; fails when one attempt misbehaved or nothing was swept.
# FAIL_NTH_MAX=<m> (default 0: no limit) tries at most about m points of
# an operation, every k-th, for a quick run; the output says so.
fail_nth_sweep() {
	local name=$1 state=$2 undo=$3 prepare=$4 before after line n=0 max
	local points=0 enomem=0 survived=0 bad=0 count step=1
	local res errname injected i

	shift 5
	before=$($state)
	$prepare
	line=$("$FN_HELPER" 0 "$@")
	res=${line%% *}
	$undo "$res"
	max=$(sed -n 's/.*points=\([0-9]*\).*/\1/p' <<< "$line")
	if [ "$res" != ok ] || [ -z "$max" ]; then
		echo "# $name: without a fault: $line"
		return 1
	fi
	# Runs differ a little (caches warm up); stop well past the count.
	count=$max
	max=$((count * 2 + 100))
	if [ "${FAIL_NTH_MAX:-0}" -gt 0 ] && [ "$count" -gt "$FAIL_NTH_MAX" ]; then
		step=$(((count + FAIL_NTH_MAX - 1) / FAIL_NTH_MAX))
		echo "# $name: FAIL_NTH_MAX=$FAIL_NTH_MAX: every ${step}th of about $count points"
	fi
	n=$((1 - step))
	while [ $n -lt $max ]; do
		n=$((n + step))
		$prepare
		line=$("$FN_HELPER" $n "$@")
		read -r res errname injected _ <<< "$line"
		if ! $undo "$res"; then
			echo "# $name: fault point $n ($line): undo or its check failed"
			return 1
		fi
		[ "$injected" = injected=1 ] || break
		points=$((points + 1))
		[ $((points % 100)) -eq 0 ] && echo "# $name: $points fault points of about $count"
		case "$res $errname" in
		"ok 0")		survived=$((survived + 1)) ;;
		"err ENOMEM")	enomem=$((enomem + 1)) ;;
		*)		echo "# $name: fault point $n: $line"; bad=$((bad + 1)) ;;
		esac
		# A work item may finish the update (a retry after ENOMEM).
		for i in $(seq 50); do
			after=$($state)
			[ "$after" = "$before" ] && break
			sleep 0.1
		done
		if [ "$after" != "$before" ]; then
			echo "# $name: fault point $n ($line): state differs afterwards"
			diff <(echo "$before") <(echo "$after") | head -20 | sed 's/^/# /'
			return 1
		fi
	done
	echo "# $name: $points fault points swept$([ $step -gt 1 ] && echo " (every ${step}th)")" \
	     "of $count, $enomem ENOMEM, $survived succeeded with the allocation failed," \
	     "$bad other; unfaulted at n = $n: $line"
	if [ "$injected" = injected=1 ]; then
		echo "# $name: still failing at n = $n"
		return 1
	fi
	[ "$res" = ok ] || { echo "# $name: unfaulted run at n = $n: $line"; return 1; }
	[ $points -gt 0 ] && [ $bad -eq 0 ]
}

# fail_nth_leaks PATTERN: kmemleak reports none whose backtrace matches
# PATTERN (an egrep expression of the series' functions).  Objects are
# reported once they are 5 s old and were unreferenced in two scans.
fail_nth_leaks() {
	local f=$FN_DEBUGFS/kmemleak found

	[ -e $f ] || { echo "# kmemleak: not in this kernel"; return 0; }
	sleep 6
	echo scan > $f
	echo scan > $f
	found=$(awk -v pat="$1" '
		/^unreferenced object/ { if (obj != "" && hit) print obj; obj = $0; hit = 0; next }
		{ obj = obj "\n" $0; if ($0 ~ pat) hit = 1 }
		END { if (obj != "" && hit) print obj }' $f)
	echo "# kmemleak: $(grep -c '^unreferenced object' $f) unreferenced objects in all"
	[ -z "$found" ] && return 0
	echo "$found" | head -60 | sed 's/^/# /'
	return 1
}
