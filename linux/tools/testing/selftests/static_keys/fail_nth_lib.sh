# SPDX-License-Identifier: GPL-2.0
# Fault-injection sweeps shared by static_keys/fail_nth.sh and
# markers/fail_nth.sh; sourced, not run.  Needs ktap_helpers.sh.
#
# fail_nth_sweep fails each fault point of one operation in turn with
# the fail_nth helper, n = 1, 2, ... until the operation runs to its end
# with nothing failed.  fail-nth is per thread: the operation's own
# system call is what counts, including work it does in other code on
# its own behalf; work items it only queues are not reached.
#
# Static keys are checked twice per attempt.  Before the undo, no key
# may be half switched (fn_half): no key has a site whose instruction
# is not the one the key selects (the mismatch count of static_keys/keys),
# and each key the operation touches is as before the operation or as
# after it (as after it when it succeeded); each event set_event lists
# has its tracepoint's key on, and is one listed before or after the
# operation (exactly those after it when it succeeded).  After the undo, the
# keys the operation touches must be as before the sweep, and the
# others as before the attempt.

FN_DEBUGFS=/sys/kernel/debug
FN_HELPER=${FN_HELPER:-$(dirname "${BASH_SOURCE[0]}")/fail_nth}
FN_SAVED=()
FN_TMP=
FN_HALF_EXTRA=
FN_SET_EVENT=${FN_SET_EVENT:-/sys/kernel/tracing/set_event}

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
	if ! head -n 1 $FN_DEBUGFS/static_keys/keys 2>/dev/null | grep -q ' mismatch$'; then
		ktap_skip_all "no static_keys/keys in debugfs, or without its mismatch count"
		exit "$KSFT_SKIP"
	fi
	# Keys are compared by symbol: without data symbols they are raw
	# addresses, which change as modules are loaded again.
	if ! grep -q '^__tracepoint_' $FN_DEBUGFS/static_keys/keys; then
		ktap_skip_all "static keys not named in static_keys/keys (CONFIG_KALLSYMS_ALL)"
		exit "$KSFT_SKIP"
	fi
	FN_TMP=$(mktemp -d) || { ktap_skip_all "mktemp failed"; exit "$KSFT_SKIP"; }
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

# fail_nth_keys: the static keys, for the STATE function of a sweep, one
# "key: NAME<tab>enabled count default owner sites mismatch" line per key;
# within fail_nth_sweep, once it knows them, only the keys its operation
# touches, the others compared in the same read (fn_keys's OTHERS).
fail_nth_keys() {
	fn_keys "key: " "$FN_NARROW" ${FN_NARROW:+"$FN_TMP/others"}
}

# fn_keys [PREFIX [MODE [OTHERS]]]: static_keys/keys as
# "PREFIXNAME<tab>enabled count default owner sites mismatch"; NAME is
# the key's symbol, "symbol [module]" in a module.  Keys that share a
# symbol (an array of keys, a key inside a structure) are listed in
# address order; the second and later get "#2", "#3", ... after the
# symbol, so that each is compared on its own.  MODE "touched" lists
# only the keys named in $FN_TMP/touched, "untouched" only the others.
# With OTHERS (a file of the untouched keys as "NAME<tab>values"), MODE
# "touched" also compares the untouched keys with it, line by line, and
# writes what differs to OTHERS.diff ("< " as in OTHERS, "> " as now;
# empty only when the listing was read and nothing differs).  Returns 3
# when a key has a site whose instruction does not match (its mismatch
# count).
# One process and one read of the listing: a sweep reads the keys
# several times per fault point, under TCG each process started costs
# about a second, and each read of the listing reads every site.
fn_keys() {
	awk -v pre="$1" -v mode="$2" -v list="$FN_TMP/touched" -v others="$3" '
		BEGIN {
			if (mode != "")
				while ((getline l < list) > 0)
					t[l] = 1
			if (others != "") {
				while ((getline l < others) > 0)
					o[++no] = l
				# left as is if awk stops before END
				diff = others ".diff"
				print "static_keys/keys not read" > diff
			}
		}
		!/^#/ && NF >= 7 {
			n = NF - 6; name = $1
			for (i = 2; i <= n; i++)
				name = name " " $i
			if (++seen[name] > 1) {
				name = $1 "#" seen[name]
				for (i = 2; i <= n; i++)
					name = name " " $i
			}
			if ($NF != 0)
				bad = 3
			v = $(n + 1)
			for (i = n + 2; i <= NF; i++)
				v = v " " $i
			if (mode == "touched" && !(name in t)) {
				if (others != "" && o[++j] != name "\t" v)
					d[++nd] = (j <= no ? "< " o[j] "\n" : "") "> " name "\t" v
				next
			}
			if (mode == "untouched" && (name in t))
				next
			print pre name "\t" v
		}
		END {
			if (others != "") {
				close(diff)
				printf "" > diff
				for (i = 1; i <= nd; i++)
					print d[i] > diff
				while (++j <= no)
					print "< " o[j] > diff
			}
			exit bad
		}' $FN_DEBUGFS/static_keys/keys
}

# fn_snap FILE: write each key as "K NAME<tab>values" to FILE; fails
# without keys, returns 3 when a key has a mismatch count.
fn_snap() {
	local rc=0

	fn_keys "K " > "$1" || rc=$?
	[ -s "$1" ] || return 1
	return $rc
}

# fn_events FILE: what set_event lists, to FILE (empty without it)
fn_events() {
	if [ -r "$FN_SET_EVENT" ]; then
		cat "$FN_SET_EVENT" > "$1"
	else
		: > "$1"
	fi
}

# fn_touched BEFORE PREPARED DONE: write the names of the keys whose
# lines differ between the three snapshots to $FN_TMP/touched, one per
# line, and their "enabled" values in PREPARED (before the operation)
# and DONE (after its unfaulted run) to $FN_TMP/ref for fn_half.
fn_touched() {
	awk -F'\t' -v touched="$FN_TMP/touched" -v ref="$FN_TMP/ref" '
		/^K / {
			f = FILENAME == ARGV[1] ? 1 : FILENAME == ARGV[2] ? 2 : 3
			v[f, $1] = v[f, $1] "|" $2; k[$1] = 1
			split($2, a, " ")
			en[f, $1] = a[1]
		}
		END {
			printf "" > touched
			printf "" > ref
			for (n in k) {
				if (v[1, n] == v[2, n] && v[2, n] == v[3, n])
					continue
				print substr(n, 3) > touched
				print "T\t" substr(n, 3) > ref
				for (f = 2; f <= 3; f++)
					if ((f, n) in en)
						print f "\t" substr(n, 3) "\t" en[f, n] > ref
			}
		}' "$@"
}

# fn_filter: the output of a STATE function with the "key: " lines of
# the keys not in $FN_TMP/touched left out.
fn_filter() {
	awk -F'\t' -v list="$FN_TMP/touched" '
		BEGIN { while ((getline l < list) > 0) t[l] = 1 }
		/^key: / && !(substr($1, 6) in t) { next }
		{ print }'
}

# fn_half RESULT: compare static_keys/keys now with the touched keys'
# states before the operation and after its unfaulted run ($FN_TMP/ref,
# fn_touched):
# - no key has a site whose instruction is not the one the key's state
#   selects (its "mismatch" count, which reads each site's bytes);
# - a key of $FN_TMP/touched is there and enabled as before the
#   operation or as after it, and as after it if RESULT is "ok";
# - an event set_event lists whose tracepoint has a key
#   (__tracepoint_<event>; sys_enter or sys_exit for the syscall events)
#   has it on;
# - set_event lists only events that it listed before the operation
#   ($FN_TMP/prepared.events) or after its unfaulted run
#   ($FN_TMP/done.events), and if RESULT is "ok" exactly those after:
#   a success that left an event off is one (a syscall event's key is
#   on for any of them);
# - the caller's own check, if it sets FN_HALF_EXTRA to a function that
#   takes RESULT, prints what is wrong and fails.
# Names what is not so.  The listing is not read atomically: retried
# before giving up, except for a mismatch count.
fn_half() {
	local i

	for i in 1 2 3; do
		fn_half_once "$1" > "$FN_TMP/half"
		case $? in
		0)	if [ -z "$FN_HALF_EXTRA" ] || "$FN_HALF_EXTRA" "$1" >> "$FN_TMP/half"; then
				return 0
			fi ;;
		# Each key's count is taken under jump_label_mutex, so even a
		# passing mismatch is one: not retried.
		3)	cat "$FN_TMP/half"
			fn_sites < "$FN_TMP/mismatch"
			return 1 ;;
		esac
		sleep 0.2
	done
	cat "$FN_TMP/half"
	return 1
}

# fn_sites: the sites (static_keys/sites) of the key symbols on stdin,
# at most 8 each
fn_sites() {
	local k

	while read -r k; do
		awk -v k=" $k" 'substr($0, length($0) - length(k) + 1) == k' \
			$FN_DEBUGFS/static_keys/sites 2>/dev/null | head -n 8 | sed 's/^/  /'
	done
}

# fn_half_once RESULT: one read of static_keys/keys for fn_half.  Exits 3
# with the keys that have a mismatch count named (their symbols, once
# each, in $FN_TMP/mismatch), 1 with what else is wrong, 2 without a
# listing.
fn_half_once() {
	local set_event=$FN_SET_EVENT evref=1
	local prepared=$FN_TMP/prepared.events done=$FN_TMP/done.events

	[ -r "$set_event" ] || set_event=/dev/null
	if [ ! -r "$prepared" ] || [ ! -r "$done" ]; then
		evref=0 prepared=/dev/null done=/dev/null
	fi
	awk -F'\t' -v res="$1" -v mismatch="$FN_TMP/mismatch" -v evref=$evref '
		part == "ref" {
			if ($1 == "T")
				t[$2] = 1
			else {
				has[$1, $2] = 1; en[$1, $2] = $3
			}
			next
		}
		part == "keys" {
			na = split($0, a, " ")
			if (a[1] ~ /^#/ || na < 7)
				next
			keys++
			m = na - 6; sym = a[1]
			for (i = 2; i <= m; i++)
				sym = sym " " a[i]
			n = sym
			if (++seen[sym] > 1) {
				n = a[1] "#" seen[sym]
				for (i = 2; i <= m; i++)
					n = n " " a[i]
			}
			if (a[m + 6] != 0) {
				if (!(sym in named))
					print sym > mismatch
				named[sym] = 1
				bad = 3
				print "key " n ": enabled " a[m + 1] ", " a[m + 6] " of " \
				      a[m + 5] " sites not patched to match"
			}
			has[4, n] = 1; en[4, n] = a[m + 1]
			kn = n; sub(/ \[.*\]$/, "", kn); sub(/#[0-9]+$/, "", kn)
			on[kn] = on[kn] || a[m + 1] != 0
			next
		}
		part == "prepared" { ev1[$0] = 1; next }
		part == "done" { if (!($0 in ev2)) n2++; ev2[$0] = 1; next }
		bad == 3 { next }
		{
			if (evref && !($0 in ev1) && !($0 in ev2)) {
				print "event " $0 " listed, neither before nor after the operation"
				bad = 1
			} else if (evref && res == "ok" && !($0 in ev2)) {
				print "event " $0 " listed, not after the operation succeeded"
				bad = 1
			}
			if ($0 in ev2 && !seen_ev[$0]++)
				n4++
			ev = $0; sub(/^[^:]*:/, "", ev)
			sub(/^sys_enter_.*/, "sys_enter", ev)
			sub(/^sys_exit_.*/, "sys_exit", ev)
			if (("__tracepoint_" ev) in on && !on["__tracepoint_" ev]) {
				print "event " $0 " listed, its tracepoint key off"
				bad = 1
			}
		}
		function state(f, n) {
			return has[f, n] ? "enabled " en[f, n] : "gone"
		}
		function as(f, n) {
			return has[4, n] == has[f, n] && en[4, n] == en[f, n]
		}
		END {
			if (!keys)
				exit 2
			if (bad == 3)
				exit 3
			if (evref && res == "ok" && n4 != n2) {
				print "the operation succeeded, " n2 - n4 " of the " n2 \
				      " events listed after its unfaulted run not listed:"
				for (e in ev2)
					if (!(e in seen_ev) && shown++ < 5)
						print "  " e
				bad = 1
			}
			for (n in t) {
				if (res == "ok" && !as(3, n)) {
					print "key " n " not as after the operation succeeded: " \
					      state(4, n)
					bad = 1
				} else if (res != "ok" && !as(2, n) && !as(3, n)) {
					print "key " n " neither as before nor as after the" \
					      " operation: " state(4, n)
					bad = 1
				}
			}
			exit bad
		}' part=ref "$FN_TMP/ref" part=keys $FN_DEBUGFS/static_keys/keys \
		part=prepared "$prepared" part=done "$done" \
		part=now "$set_event"
}

# fail_nth_test DESCRIPTION NAME STATE UNDO PREPARE -- OP ARG...: one
# KTAP result for fail_nth_sweep (arguments kept whole, unlike
# ktap_test_result's).  FAIL_NTH_ONLY=<extended regex> sweeps only the
# tests whose description matches, for a quick run; the others skip.
fail_nth_test() {
	local desc=$1

	shift
	if [ -n "$FAIL_NTH_ONLY" ]; then
		grep -Eq -- "$FAIL_NTH_ONLY" <<< "$desc"
		case $? in
		0)	;;
		1)	ktap_test_skip "$desc (not in FAIL_NTH_ONLY)"
			return 0 ;;
		*)	ktap_test_fail "$desc (FAIL_NTH_ONLY: not an extended regex)"
			return 0 ;;
		esac
	fi
	fail_nth_sweep "$@"
	case $? in
	0)	ktap_test_pass "$desc" ;;
	"${KSFT_SKIP:-4}")
		ktap_test_skip "$desc (no fault point from FAIL_NTH_FROM on)" ;;
	*)	ktap_test_fail "$desc" ;;
	esac
}

fail_nth_restore() {
	local s

	for s in "${FN_SAVED[@]}"; do
		echo "${s#*=}" > "$FN_DEBUGFS/${s%%=*}"
	done
	FN_SAVED=()
	[ -n "$FN_TMP" ] && rm -rf "$FN_TMP"
	FN_TMP=
}

# fail_nth_sweep NAME STATE UNDO PREPARE -- OP ARG...: sweep "fail_nth n
# OP ARG..." for n = 1, 2, ...  Before each attempt PREPARE runs (":" for
# nothing).  After it no static key may be half switched (fn_half);
# then "UNDO ok" or "UNDO err" puts things back, the output of STATE
# must equal what it printed before the sweep (its fail_nth_keys lines
# narrowed to the keys the operation touches) and the other keys must
# be as before the attempt.  Every attempt must succeed or fail with
# ENOMEM.  Prints the count of fault points; fails when one attempt
# misbehaved or nothing was swept.
# FAIL_NTH_MAX=<m> (default 0: no limit) tries at most about m points of
# an operation, every k-th, for a quick run; the output says so.
# FAIL_NTH_FROM=<a> and FAIL_NTH_TO=<b> (default 1 and 0: the end) sweep
# only the points from a to b, so that a long sweep can be split over
# runs; a range that ends before the operation's unfaulted run says so,
# and one that starts past its last fault point returns KSFT_SKIP (the
# points are another range's).
fail_nth_sweep() {
	local name=$1 state=$2 undo=$3 prepare=$4 before after line n=0 max
	local points=0 enomem=0 survived=0 bad=0 count step=1
	local res errname injected i half=0 others_after
	local from=${FAIL_NTH_FROM:-1} to=${FAIL_NTH_TO:-0} range= ended=0
	# fail_nth_keys in STATE: every key until the touched ones are known
	local FN_NARROW=

	shift 5
	if [ -z "$FN_TMP" ] || [ ! -d "$FN_TMP" ]; then
		echo "# $name: fail_nth_setup not run"
		return 1
	fi
	case "$from" in
	'' | *[!0-9]*)
		echo "# $name: FAIL_NTH_FROM=$from: not a number"
		return 1 ;;
	esac
	case "$to" in
	'' | *[!0-9]*)
		echo "# $name: FAIL_NTH_TO=$to: not a number"
		return 1 ;;
	esac
	from=$((10#$from)) to=$((10#$to))
	if [ "$from" -lt 1 ] || { [ "$to" -ne 0 ] && [ "$to" -lt "$from" ]; }; then
		echo "# $name: FAIL_NTH_FROM=$from, FAIL_NTH_TO=$to: not a range of points"
		return 1
	fi
	if [ "$from" -gt 1 ] || [ "$to" -gt 0 ]; then
		range=" at n = $from to $([ "$to" -gt 0 ] && echo "$to" || echo "the end")"
	fi
	# The keys this operation touches: those that differ between before
	# PREPARE, after it and after the reference run, with nothing failed.
	: > "$FN_TMP/touched"
	before=$($state)
	fn_snap "$FN_TMP/before"
	$prepare
	fn_snap "$FN_TMP/prepared"
	fn_events "$FN_TMP/prepared.events"
	line=$("$FN_HELPER" 0 "$@")
	res=${line%% *}
	fn_snap "$FN_TMP/done"
	fn_events "$FN_TMP/done.events"
	fn_touched "$FN_TMP/before" "$FN_TMP/prepared" "$FN_TMP/done"
	fn_half "$res" > "$FN_TMP/half.txt" || half=1
	if ! $undo "$res"; then
		echo "# $name: the undo of the run without a fault failed ($line)"
		return 1
	fi
	max=$(sed -n 's/.*points=\([0-9]*\).*/\1/p' <<< "$line")
	if [ "$res" != ok ] || [ -z "$max" ]; then
		echo "# $name: without a fault: $line"
		return 1
	fi
	if [ $half -ne 0 ]; then
		echo "# $name: half switched without a fault"
		head -40 "$FN_TMP/half.txt" | sed 's/^/# /'
		return 1
	fi
	before=$(fn_filter <<< "$before")
	FN_NARROW=touched
	echo "# $name: $(grep -c . "$FN_TMP/touched") static keys touched"
	# Runs differ a little (caches warm up); stop well past the count.
	count=$max
	max=$((count * 2 + 100))
	if [ "${FAIL_NTH_MAX:-0}" -gt 0 ] && [ "$count" -gt "$FAIL_NTH_MAX" ]; then
		step=$(((count + FAIL_NTH_MAX - 1) / FAIL_NTH_MAX))
		echo "# $name: FAIL_NTH_MAX=$FAIL_NTH_MAX: every ${step}th of about $count points"
	fi
	[ -n "$range" ] && echo "# $name: FAIL_NTH_FROM, FAIL_NTH_TO: the points$range only"
	# Each attempt checks that the untouched keys are as before it; the
	# check of the one before it leaves them as here.
	fn_keys "" untouched > "$FN_TMP/others"
	n=$((from - step))
	while [ $n -lt $max ]; do
		if [ "$to" -gt 0 ] && [ $((n + step)) -gt "$to" ]; then
			ended=1
			break
		fi
		n=$((n + step))
		$prepare
		line=$("$FN_HELPER" $n "$@")
		if [ -z "$line" ]; then
			echo "# $name: fault point $n: the helper could not run the operation"
			$undo err
			return 1
		fi
		read -r res errname injected _ <<< "$line"
		if ! fn_half "$res" > "$FN_TMP/half.txt"; then
			echo "# $name: fault point $n ($line): half switched"
			head -40 "$FN_TMP/half.txt" | sed 's/^/# /'
			$undo "$res"
			return 1
		fi
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
		# fail_nth_keys in STATE compares the untouched keys in the
		# same read of the listing; a STATE without it, here.
		for ((i = 0; i < 50; i++)); do
			echo unread > "$FN_TMP/others.diff"
			after=$($state)
			others_after=
			read -r others_after < "$FN_TMP/others.diff"
			if [ "$others_after" = unread ]; then
				fn_keys "" touched "$FN_TMP/others" > /dev/null
				others_after=
				read -r others_after < "$FN_TMP/others.diff"
			fi
			[ "$after" = "$before" ] && [ -z "$others_after" ] && break
			sleep 0.1
		done
		if [ "$after" != "$before" ]; then
			echo "# $name: fault point $n ($line): state differs afterwards"
			diff <(echo "$before") <(echo "$after") | head -20 | sed 's/^/# /'
			return 1
		fi
		if [ -n "$others_after" ]; then
			echo "# $name: fault point $n ($line): a key it does not touch changed"
			head -20 "$FN_TMP/others.diff" | sed 's/^/# /'
			return 1
		fi
	done
	[ $step -gt 1 ] && range="$range (every ${step}th)"
	if [ $ended -eq 1 ]; then
		echo "# $name: $points fault points swept$range of about $count," \
		     "$enomem ENOMEM, $survived succeeded with the allocation failed," \
		     "$bad other; not run to the unfaulted end"
		[ $points -gt 0 ] && [ $bad -eq 0 ]
		return
	fi
	if [ $points -eq 0 ] && [ "$from" -gt 1 ] && [ "$injected" != injected=1 ]; then
		echo "# $name: no fault point at n >= $from (about $count in all)"
		return "${KSFT_SKIP:-4}"
	fi
	echo "# $name: $points fault points swept$range of $count, $enomem ENOMEM," \
	     "$survived succeeded with the allocation failed, $bad other;" \
	     "unfaulted at n = $n: $line"
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
