#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# description: markers under load: enable/disable storms, probe churn,
#	module load/unload in every order and CPU hotplug while sites fire,
#	also from hardirq and softirq context
# requires: events/markers, markers_enable, static_keys/stats,
#	marker-example.ko, probe-example.ko, marker-many.ko, python3
#
# Sites of samples/markers fire from user space on every CPU (a python
# loop per CPU opening and reading <debugfs>/marker-example/trigger,
# pinned with taskset when available) while the markers are switched.
# probe-example stays connected through the storms and must count every
# hit exactly; the ring buffer must account for every recorded hit as an
# entry or an overrun.  Each part runs for STRESS_SECS (default 5)
# seconds; the counts are printed as "# " lines.  MARKERS_MODDIR may name
# a directory of the .ko files.

DIR=$(dirname "$0")
. "$DIR/../kselftest/ktap_helpers.sh"
. "$DIR/markers_lib.sh"

DEBUGFS=/sys/kernel/debug
TRIGGER=$DEBUGFS/marker-example/trigger
IRQ=$DEBUGFS/marker-example/irq
MANY_TRIGGER=$DEBUGFS/marker-many/trigger
COUNTS=$DEBUGFS/probe-example/counts
STATS=$DEBUGFS/static_keys/stats
T=/sys/kernel/tracing
EV=$T/events/markers
INST=$T/instances/markers_stress
CPU1=/sys/devices/system/cpu/cpu1/online
SECS=${STRESS_SECS:-5}
MODS="marker-example probe-example marker-many"
TMP=
BUF_KB=

reset_tracing() {
	echo '!*' > $T/markers_enable 2>/dev/null
	echo 0 2>/dev/null > $EV/enable
	echo > $T/trace
	echo 1 > $T/tracing_on
}

# fresh: no event enabled, empty buffer, no sample module loaded; each
# test starts from here, whatever the previous one left
fresh() {
	[ -w $CPU1 ] && echo 1 > $CPU1
	[ -d "$INST" ] && echo 0 > "$INST/events/enable" && rmdir "$INST"
	reset_tracing
	for m in $MODS; do
		loaded "$m" && unload "$m"
	done
}

cleanup() {
	[ -n "$TMP" ] && touch "$TMP/stop"
	wait
	fresh
	[ -n "$BUF_KB" ] && echo "$BUF_KB" > $T/buffer_size_kb
	[ -n "$TMP" ] && rm -rf "$TMP"
}

# fire ID PATH [N]: in the background, open PATH and read it once, N times
# or until $TMP/stop exists; the number of successful opens goes to
# $TMP/rounds.ID.  Failed opens (module unloaded) are not counted; a
# trigger without read (marker-many) fires on open.
# ID 0 and 1 are pinned to CPU 0 and 1 when taskset works.
fire() {
	local pin=() i

	case "$1" in
	0|1) taskset -c "$1" true 2>/dev/null && pin=(taskset -c "$1") ;;
	esac
	"${pin[@]}" python3 "$TMP/fire.py" "$2" "$TMP/stop" "$TMP/rounds.$1" \
		"${3:-0}" &
	# python starts slowly under TCG: the storm begins once it runs
	for i in $(seq 300); do
		[ -e "$TMP/rounds.$1.ready" ] && break
		sleep 0.1
	done
}

write_firer() {
	cat > "$TMP/fire.py" <<'EOF'
import os, sys, time
path, stop, out, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
done = errs = 0
open(out + '.ready', 'w').close()
while (n and done < n) or (not n and not os.path.exists(stop)):
    for _ in range(n and 1 or 16):
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:
            errs += 1
            time.sleep(0.01)
            break
        done += 1
        try:
            os.read(fd, 64)
        except OSError:
            pass
        os.close(fd)
with open(out, 'w') as f:
    f.write('%d %d\n' % (done, errs))
EOF
}

# start_firers: one firer per online CPU (at most 2) on marker-example
start_firers() {
	rm -f "$TMP/stop" "$TMP"/rounds.*
	fire 0 $TRIGGER
	fire 1 $TRIGGER
}

# stop_firers: stop them (and every other background job of the test);
# FIRED is the total of their rounds.  Not in a subshell: it waits.
stop_firers() {
	touch "$TMP/stop"
	wait
	FIRED=$(cat "$TMP"/rounds.? 2>/dev/null | awk '{ s += $1 } END { print s + 0 }')
}


# count NAME: hits of NAME in probe-example's counts, -1 if absent
count() {
	awk -v n="$1" 'BEGIN { c = -1 } $1 == n { c = $2 } END { print c }' \
		"$COUNTS" 2>/dev/null || echo -1
}

# counts_are N: probe-example counted N hits of each of its four markers
counts_are() {
	local m c

	for m in subsys_mark1 subsys_mark2 subsys_mark3 subsys_mark4; do
		c=$(count $m)
		[ "$c" = "$1" ] || { echo "# $m: $c hits counted, $1 fired"; return 1; }
	done
}


# rb_stat FIELD: FIELD of the top buffer's per-CPU stats, summed
rb_stat() {
	cat $T/per_cpu/cpu*/stats 2>/dev/null |
		awk -v f="$1:" '$1 " " $2 == f || $1 == f { s += $NF } END { print s + 0 }'
}

# recorded: entries plus overruns in the top buffer
recorded() {
	echo $(( $(rb_stat entries) + $(rb_stat overrun) ))
}

ktap_print_header

markers_require_trace
markers_require_python "drives the marker sites"
markers_require_modules $MODS
TMP=$(mktemp -d)
write_firer
# "7 (expanded: 1408)" until the buffer is first used
BUF_KB=$(sed -E 's/.*expanded: ([0-9]+).*/\1/' $T/buffer_size_kb)
trap cleanup EXIT
reset_tracing

ktap_set_plan 7

test_storm_single() {
	local end flips=0 fired n e

	fresh

	load marker-example && load probe-example || return 1
	start_firers
	end=$((SECONDS + SECS))
	while [ $SECONDS -lt $end ]; do
		for e in subsys_mark1 subsys_mark2 subsys_mark3 subsys_mark4; do
			echo 1 > $EV/$e/enable && echo 0 > $EV/$e/enable ||
				{ stop_firers; return 1; }
			flips=$((flips + 2))
		done
	done
	stop_firers
	fired=$FIRED
	n=$(recorded)
	echo "# single-event storm: ${SECS}s, $flips enable flips,"
	echo "#   $fired rounds fired, $n events recorded"
	[ "$fired" -gt 0 ] && [ "$n" -gt 0 ] && counts_are "$fired" || return 1
	unload probe-example && unload marker-example
}
ktap_test_result "enable/disable storm of single events while sites fire" \
	test_storm_single

test_storm_glob() {
	local end flips=0 fired t0 t1 n m

	fresh

	echo > $T/trace
	load marker-example && load probe-example && load marker-many || return 1
	t0=$(stat_applied)
	start_firers
	fire 2 $MANY_TRIGGER
	end=$((SECONDS + SECS))
	while [ $SECONDS -lt $end ]; do
		echo 'subsys_mark*' > $T/markers_enable &&
		echo 'marker_many_*' > $T/markers_enable &&
		echo '!subsys_mark*' > $T/markers_enable &&
		echo '!marker_many_*' > $T/markers_enable ||
			{ stop_firers; return 1; }
		flips=$((flips + 4))
	done
	stop_firers
	fired=$((FIRED - $(awk '{ print $1 }' "$TMP/rounds.2")))
	t1=$(stat_applied)
	n=$(recorded)
	echo "# glob storm: ${SECS}s, $flips glob writes (516 markers), $((t1 - t0)) batches,"
	echo "#   $fired rounds fired, $n events recorded"
	# probe-example keeps subsys_mark* on: their writes switch no key
	# and apply no batch; each marker_many_* write is one batch.
	[ $((t1 - t0)) = $((flips / 2)) ] ||
		{ echo "# $((t1 - t0)) static key batches, want $((flips / 2))"; return 1; }
	[ "$n" -gt 0 ] && counts_are "$fired" || return 1
	[ -z "$(cat $T/markers_enable)" ] ||
		{ echo "# still enabled: $(cat $T/markers_enable | tr '\n' ' ')"; return 1; }
	for m in marker-many probe-example marker-example; do
		wait_for unload $m || { echo "# rmmod $m failed"; return 1; }
	done
}
ktap_test_result "glob storm (a static key batch per write that switches keys), sites firing" \
	test_storm_glob

# example_irq fires from a hard and a soft hrtimer (see marker-example.c):
# every hit of each context recorded, then single and glob enable/disable
# storms while a writer keeps both timers firing, then every hit again
test_storm_irq() {
	local end flips=0 rounds hard soft n

	fresh

	load marker-example || return 1
	[ -w $IRQ ] || { echo "# no $IRQ"; return 1; }
	echo 1 > $EV/example_irq/enable && echo 200 > $IRQ || return 1
	echo 0 > $EV/example_irq/enable
	hard=$(grep -c ' example_irq: ctx=1 ' $T/trace)
	soft=$(grep -c ' example_irq: ctx=2 ' $T/trace)
	[ "$hard" = 200 ] && [ "$soft" = 200 ] ||
		{ echo "# recorded $hard hardirq and $soft softirq hits of 200"; return 1; }

	rm -f "$TMP/stop" "$TMP/irq.rounds"
	while [ ! -e "$TMP/stop" ] && echo 100 > $IRQ; do
		echo >> "$TMP/irq.rounds"
	done &
	end=$((SECONDS + SECS))
	while [ $SECONDS -lt $end ]; do
		echo 1 > $EV/example_irq/enable && echo 0 > $EV/example_irq/enable &&
		echo 'example_*' > $T/markers_enable &&
		echo '!example_*' > $T/markers_enable ||
			{ stop_firers; return 1; }
		flips=$((flips + 4))
	done
	stop_firers
	rounds=$(wc -l < "$TMP/irq.rounds")
	n=$(recorded)
	echo "# irq storm: ${SECS}s, $flips flips, $rounds rounds of 100 hardirq" \
		"and 100 softirq hits, $n events recorded (400 before the storm)"
	# How many storm hits land in an enabled window is up to timing;
	# the marker must still record every hit exactly afterwards.
	[ "$rounds" -gt 0 ] && [ "$flips" -gt 0 ] || return 1
	[ -z "$(cat $T/markers_enable)" ] || return 1
	echo > $T/trace
	echo 1 > $EV/example_irq/enable && echo 100 > $IRQ || return 1
	echo 0 > $EV/example_irq/enable
	hard=$(grep -c ' example_irq: ctx=1 ' $T/trace)
	soft=$(grep -c ' example_irq: ctx=2 ' $T/trace)
	[ "$hard" = 100 ] && [ "$soft" = 100 ] ||
		{ echo "# after the storm: $hard hardirq, $soft softirq of 100"; return 1; }
	wait_for unload marker-example
}
ktap_test_result "storms while sites fire from hardirq and softirq" \
	test_storm_irq

test_probe_churn() {
	local end cycles=0 flips=0 fired e

	fresh

	echo > $T/trace
	load marker-example || return 1
	start_firers
	(
		end=$((SECONDS + SECS))
		while [ $SECONDS -lt $end ]; do
			for e in subsys_mark1 subsys_mark3; do
				echo 1 > $EV/$e/enable && echo 0 > $EV/$e/enable &&
					flips=$((flips + 2))
			done
		done
		echo $flips > "$TMP/flips"
	) &
	end=$((SECONDS + SECS))
	while [ $SECONDS -lt $end ]; do
		load probe-example && unload probe-example ||
			{ stop_firers; return 1; }
		cycles=$((cycles + 1))
	done
	stop_firers
	fired=$FIRED
	echo "# probe churn: ${SECS}s, $cycles probe-example load/unload cycles,"
	echo "#   $(cat "$TMP/flips") event enable flips, $fired rounds fired"
	[ "$cycles" -gt 0 ] && [ "$fired" -gt 0 ] || return 1
	# Connected again, it counts exactly what fires.
	load probe-example || return 1
	rm -f "$TMP"/rounds.*
	fire 0 $TRIGGER 50
	fire 1 $TRIGGER 50
	stop_firers
	fired=$FIRED
	counts_are "$fired" || return 1
	unload probe-example && unload marker-example
}
ktap_test_result "probe register/unregister churn while sites fire" \
	test_probe_churn

# cycle LOAD1 LOAD2 LOAD3 -- UNLOAD1 UNLOAD2 UNLOAD3: load, enable the
# marker events after each load (subsys_mark*, and 64 of marker-many's
# to keep a cycle short under TCG), fire both triggers, unload with the
# events enabled, then disable them; the events must go.
cycle() {
	local m

	echo > $T/trace
	while [ "$1" != -- ]; do
		load "$1" || { echo "# loading $1 failed"; return 1; }
		echo 'subsys_mark*' > $T/markers_enable 2>/dev/null
		echo 'marker_many_0*' > $T/markers_enable 2>/dev/null
		shift
	done
	shift
	# The firers flood the top buffer: look for marker-many's hits in
	# an instance of their own.  Its trigger fires on open, has no read.
	echo 1 > $INST/events/markers/marker_many_777/enable || return 1
	cat $TRIGGER > /dev/null && : < $MANY_TRIGGER || return 1
	# the background firers hit it too
	[ "$(count subsys_mark1)" -ge 1 ] ||
		{ echo "# probe count $(count subsys_mark1)"; return 1; }
	[ "$(recorded)" -gt 0 ] && grep -q ' marker_many_777: nr=511$' $INST/trace ||
		{ echo "# events not recorded"; return 1; }
	echo > $INST/trace
	for m in "$@"; do
		# a firer holding the trigger open pins marker-example
		wait_for unload "$m" || { echo "# rmmod $m failed"; return 1; }
	done
	# Kept while enabled; markers_enable skips events whose marker has
	# gone, the system enable files reach them.
	echo 0 > $EV/enable && echo 0 > $INST/events/markers/enable || return 1
	for m in subsys_mark1 marker_many_077 marker_many_777; do
		wait_for test ! -d $EV/$m || { echo "# $m stayed"; return 1; }
	done
}

test_module_orders() {
	local a b c cycles=0 end fired
	local orders="0,1,2 0,2,1 1,0,2 1,2,0 2,0,1 2,1,0"
	local -a mod=(marker-example probe-example marker-many)

	fresh

	mkdir $INST || return 1
	# One firer: an open trigger pins marker-example, two leave rmmod
	# few gaps.
	rm -f "$TMP/stop" "$TMP"/rounds.*
	fire 2 $TRIGGER
	# The time counts from here, and the first cycle always runs: on a
	# debug kernel the setup alone may take longer than 3 * SECS.
	end=$((SECONDS + 3 * SECS))
	for rev in 0 1; do
		for o in $orders; do
			[ $cycles -eq 0 ] || [ $SECONDS -lt $end ] || break 2
			IFS=, read -r a b c <<< "$o"
			if [ $rev = 0 ]; then
				cycle ${mod[a]} ${mod[b]} ${mod[c]} -- ${mod[a]} ${mod[b]} ${mod[c]}
			else
				cycle ${mod[a]} ${mod[b]} ${mod[c]} -- ${mod[c]} ${mod[b]} ${mod[a]}
			fi || { echo "# failed: load $o, unload reversed=$rev";
				stop_firers; return 1; }
			cycles=$((cycles + 1))
			echo "# cycle $cycles: load $o, unload reversed=$rev done"
		done
	done
	stop_firers
	fired=$FIRED
	echo "# module orders: $cycles cycles of 3 loads + 3 unloads with events enabled,"
	echo "#   $fired rounds fired meanwhile"
	# all 6 load orders, unloading in the same and in reverse order,
	# unless a slow (debug) kernel runs out of time first
	[ "$cycles" -ge 1 ] || return 1
	[ "$cycles" -ge 6 ] || echo "# only $cycles of 6 load orders in $((3 * SECS))s"
	rmdir $INST
}
ktap_test_result "module load/unload in all orders with events enabled" \
	test_module_orders

test_hotplug() {
	local end globs=0 fired t0 t1

	fresh

	load marker-example && load probe-example && load marker-many || return 1
	echo > $T/trace
	t0=$(stat_applied)
	rm -f "$TMP/stop" "$TMP"/rounds.*
	fire 2 $TRIGGER
	(
		n=0
		while [ ! -e "$TMP/stop" ]; do
			echo 0 > $CPU1 && echo 1 > $CPU1 && n=$((n + 1))
		done
		echo $n > "$TMP/hotplug"
	) &
	end=$((SECONDS + SECS))
	while [ $SECONDS -lt $end ]; do
		echo 'marker_many_*' > $T/markers_enable &&
		echo 1 > $EV/subsys_mark3/enable &&
		echo '!marker_many_*' > $T/markers_enable &&
		echo 0 > $EV/subsys_mark3/enable ||
			{ stop_firers; return 1; }
		globs=$((globs + 2))
	done
	stop_firers
	fired=$FIRED
	t1=$(stat_applied)
	echo "# hotplug: ${SECS}s, $(cat "$TMP/hotplug") cpu1 offline/online cycles,"
	echo "#   $globs glob writes (512 markers) + $globs single enable writes,"
	echo "#   $((t1 - t0)) batches, $fired rounds fired"
	[ "$(cat $CPU1)" = 1 ] || return 1
	[ "$(cat "$TMP/hotplug")" -gt 0 ] && [ $((t1 - t0)) -ge "$globs" ] || return 1
	counts_are "$fired" || return 1
	unload marker-many && unload probe-example && unload marker-example
}
if [ -w $CPU1 ]; then
	ktap_test_result "static key batches racing CPU hotplug" test_hotplug
else
	ktap_test_skip "CPU hotplug race (no $CPU1: no CONFIG_HOTPLUG_CPU or one CPU)"
fi

test_accounting() {
	local fired n ov dropped

	fresh

	load marker-example || return 1
	echo 4 > $T/buffer_size_kb || return 1
	echo > $T/trace
	echo 1 > $EV/subsys_mark3/enable || return 1
	rm -f "$TMP"/rounds.*
	fire 0 $TRIGGER 1000
	fire 1 $TRIGGER 1000
	stop_firers
	fired=$FIRED
	echo 0 > $EV/subsys_mark3/enable
	n=$(recorded)
	ov=$(rb_stat overrun)
	dropped=$(rb_stat 'dropped events')
	echo "# accounting: $fired hits, $n recorded ($ov overwritten, $dropped dropped)"
	echo "#   in a 4 KiB per-CPU buffer"
	echo "$BUF_KB" > $T/buffer_size_kb
	[ "$fired" = 2000 ] && [ "$n" = "$fired" ] && [ "$dropped" = 0 ] &&
		[ "$ov" -gt 0 ] || return 1
	unload marker-example
}
ktap_test_result "every hit recorded or counted as a ring buffer overrun" \
	test_accounting

ktap_finished
