# SPDX-License-Identifier: GPL-2.0
#
# Helpers for the tests that count the static key batch of a write that
# switches many trace events (events_batch.sh, and others that source it).
# The caller sets T (tracefs) and T_HELD (events its top instance had on
# before the test).

DEBUGFS=/sys/kernel/debug
KEYS=$DEBUGFS/static_keys/keys
STATS=$DEBUGFS/static_keys/stats
BATCH_TMP=$(mktemp -d)

# stat_get NAME: one counter of <debugfs>/static_keys/stats
stat_get() {
	awk -v k="$1" '$1 == k { print $2 }' $STATS
}

# keys_enabled: each key of static_keys/keys as "NAME ENABLED"; NAME is
# "symbol [module]" for a module's key
keys_enabled() {
	awk '!/^#/ && NF >= 7 {
		n = $1
		for (i = 2; i <= NF - 6; i++)
			n = n " " $i
		print n, $(NF - 5)
	}' $KEYS
}

# tp_keys_on: tracepoint static keys that are on
tp_keys_on() {
	keys_enabled | awk '$1 ~ /^__tracepoint_/ && $NF == 1' | wc -l
}

# enabled_events DIR: events enabled in the instance at DIR
enabled_events() {
	grep -c . "$1/set_event"
}

# still_enabled DIR: succeed if no event of the instance at DIR is
# enabled but those a trigger held before the test (soft mode, which
# events/enable leaves alone), or name some that are
still_enabled() {
	local held=0

	[ "$1" = "$T" ] && held=$T_HELD
	[ "$(enabled_events "$1")" = "$held" ] && return 0
	echo "# still enabled: $(head -n 4 "$1/set_event" | tr '\n' ' ')"
	return 1
}

# snap VAR: the counters of static key batches that a write moves, as
# "batches sites calls rounds", and the state of every key
snap() {
	printf -v "$1" '%s %s %s %s' "$(stat_get applied_batches)" \
		"$(stat_get applied_sites)" "$(stat_get applied_calls)" \
		"$(stat_get own_ipi_rounds)"
	keys_enabled | sort > "$BATCH_TMP/$1"
}

# other_keys A B: keys other than the tracepoints' that went on or off
# between snapshots A and B: those of other event classes that join the
# batch, or of a regfunc that flips a key of its own with
# static_branch_inc() outside it.  Naming them says whose they are.
other_keys() {
	comm -13 "$BATCH_TMP/$1" "$BATCH_TMP/$2" |
		awk '$1 !~ /^__tracepoint_/ { sub(/ [^ ]*$/, ""); print }'
}

# mismatched: the keys that have a site whose instruction is not the one
# the key selects (the last field of static_keys/keys), one per line, or
# why that cannot be told
mismatched() {
	head -n 1 $KEYS 2>/dev/null | grep -q ' mismatch$' ||
		{ echo "no mismatch count in $KEYS"; return; }
	awk '!/^#/ && $NF != 0' $KEYS
}

# check_one_batch WHAT A B: the write between snapshots A and B applied
# one static key batch that patched something and sent 3 IPI rounds per
# text_poke batch of up to batch_max pokes (the batches' own counters),
# and every site now matches its key
check_one_batch() {
	local what=$1 max pokes want other bad
	local -a a b

	read -r -a a <<< "${!2}"
	read -r -a b <<< "${!3}"
	max=$(stat_get batch_max)
	pokes=$(( b[1] - a[1] + b[2] - a[2] ))
	other=$(other_keys "$2" "$3" | head -n 8 | tr '\n' ' ')
	want=$(( 3 * ((pokes + max - 1) / max) ))
	other=${other% }
	echo "# $what: $((b[0] - a[0])) static key batch, $pokes pokes" \
		"($((b[1] - a[1])) jump sites, $((b[2] - a[2])) static call" \
		"sites), $((b[3] - a[3])) IPI rounds${other:+; other keys: $other}"
	[ $((b[0] - a[0])) = 1 ] && [ "$pokes" -gt 0 ] &&
		[ $((b[3] - a[3])) = "$want" ] ||
		{ echo "# want 1 batch and $want IPI rounds"; return 1; }
	bad=$(mismatched | head -n 4)
	[ -z "$bad" ] && return 0
	echo "# sites not as their key selects:"
	echo "$bad" | sed 's/^/#   /'
	return 1
}

# switch_both DIR FILE WHAT: write 1 then 0 to FILE; each write is one
# batch, events and tracepoint keys go on and come back off
switch_both() {
	local dir=$1 file=$2 what=$3 s0 s1 s2 k0 k1 n

	k0=$(tp_keys_on)
	snap s0
	echo 1 > "$file" || return 1
	snap s1
	k1=$(tp_keys_on)
	n=$(enabled_events "$dir")
	echo "# $what: $n events enabled, tracepoint keys on $k0 -> $k1"
	[ "$n" -gt 0 ] && [ "$k1" -gt "$k0" ] || return 1
	check_one_batch "$what on" s0 s1 || return 1
	echo 0 > "$file" || return 1
	snap s2
	still_enabled "$dir" || return 1
	[ "$(tp_keys_on)" = "$k0" ] ||
		{ echo "# tracepoint keys on after: $(tp_keys_on), want $k0"; return 1; }
	check_one_batch "$what off" s1 s2
}

# set_event_both DIR GLOB: as switch_both, through DIR/set_event
set_event_both() {
	local dir=$1 glob=$2 s0 s1 s2 k0 n

	k0=$(tp_keys_on)
	snap s0
	echo "$glob" > "$dir/set_event" || return 1
	snap s1
	n=$(enabled_events "$dir")
	echo "# set_event '$glob': $n events enabled"
	[ "$n" -gt 0 ] || return 1
	check_one_batch "'$glob' on" s0 s1 || return 1
	echo "!$glob" >> "$dir/set_event" || return 1
	snap s2
	still_enabled "$dir" && [ "$(tp_keys_on)" = "$k0" ] || return 1
	check_one_batch "'$glob' off" s1 s2
}

# storm FILE: switch every event of the top instance on and off while
# each CPU reads FILE in a loop (its pids in LOAD_PIDS, for the caller's
# cleanup): 10 cycles, or fewer once STORM_SECS (default 60) have passed
# (the first always runs: on a debug kernel under emulation one cycle
# may take minutes); succeed if every write did, and no event and no
# tracepoint key more than before (K_IDLE) is left on
storm() {
	local i cpu end t0=$SECONDS

	for cpu in $(seq 0 $(( $(nproc) - 1 ))); do
		( while :; do
			cat "$1" > /dev/null
		done ) &
		LOAD_PIDS="$LOAD_PIDS $!"
		taskset -p -c "$cpu" $! > /dev/null 2>&1
	done
	end=$((SECONDS + ${STORM_SECS:-60}))
	for i in $(seq 10); do
		[ "$i" -eq 1 ] || [ $SECONDS -lt $end ] || break
		echo 1 > "$T/events/enable" && echo 0 > "$T/events/enable" ||
			return 1
		echo "# storm cycle $i done at $((SECONDS - t0)) s"
	done
	kill $LOAD_PIDS
	wait 2>/dev/null
	LOAD_PIDS=
	still_enabled "$T" && [ "$(tp_keys_on)" = "$K_IDLE" ]
}

# batch_lib_ready: succeed if the counters are there and count IPI
# rounds (only x86 does: elsewhere they stay 0)
batch_lib_ready() {
	[ -r "$STATS" ] && [ -r "$KEYS" ] && [ "$(stat_get batch_max)" -gt 0 ] &&
		[ -n "$(stat_get own_ipi_rounds)" ] &&
		[ "$(stat_get ipi_rounds)" -gt 0 ]
}
