#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside the guest for "make bench": loads marker-bench and
# static_key_batch_benchmark (both measure on load), copies their CSV,
# then measures the record cases whose trace events exist.
# Usage: bench.sh <outdir> <kselftest-dir>
set -u
. "$(dirname "$0")/common.sh"

T=/sys/kernel/tracing
D=/sys/kernel/debug/marker-bench
CSV=$OUT/bench.csv
exec > >(tee "$OUT/bench.log") 2>&1

echo "== booted: $(uname -r), $(nproc) CPUs"
# What the kernel mitigates on this CPU model, beside the figures.
grep . /sys/devices/system/cpu/vulnerabilities/* > "$OUT/vulnerabilities.txt" 2>&1
start=$(date +%s)
# The kprobe case at load measures a plain int3 kprobe; the optimized
# (jump) kprobe is measured again below.
KOPT=/proc/sys/debug/kprobes-optimization
[ -w "$KOPT" ] && echo 0 > "$KOPT"
if ! modprobe marker-bench; then
	echo "marker-bench failed to load" > "$OUT/bench.err"
	dmesg > "$OUT/dmesg.txt"
	finish
	exit 0
fi
echo "== marker-bench loaded in $(( $(date +%s) - start ))s"

# record <variant> <event enable file or "-">: one record row, or a note
# row when the event does not exist in this kernel.
record() {
	local variant=$1 enable=$2

	if [ "$enable" != - ] && [ ! -e "$enable" ]; then
		echo "record,$variant,0,0,skip:${enable#$T/} absent"
		return
	fi
	[ "$enable" = - ] || echo 1 > "$enable"
	echo "record $variant" > "$D/run"
	[ "$enable" = - ] || echo 0 > "$enable"
}

# bpf_rows: the bpf rows, the same BPF program on markers:bench_rec and on
# marker_bench:marker_bench_tp, attached with libbpf by the markers
# kselftest's marker_bpf (scripts/bench/bench_bpf.bpf.c, built on the
# host), and the bpf_raw rows, the same raw tracepoint program on the
# marker bench_rec and the tracepoint marker_bench_tp (bench_bpf_raw.bpf.o,
# the same file built with -DBENCH_RAW)
bpf_rows() {
	local loader=$KSFT/markers/marker_bpf c obj v

	for c in bpf bpf_raw; do
		obj=$KSFT/../host/${c/bpf/bench_bpf}.bpf.o
		if [ ! -x "$loader" ] || [ ! -e "$obj" ]; then
			for v in mark tracepoint; do
				echo "$c,$v,0,0,skip:no marker_bpf or $(basename "$obj") (clang, libbpf)"
			done
			continue
		fi
		"$loader" "$obj" "$D/run" 0 "$c mark" "$c tracepoint" ||
			echo "$c,all,0,0,skip:marker_bpf failed"
	done
}

if [ -w "$KOPT" ]; then
	echo 1 > "$KOPT"
	echo "on kprobe" > "$D/run"
fi

NOTES=$OUT/notes.csv
: > "$NOTES"
# The key flip rows: series 1's own benchmark module.
if modprobe static_key_batch_benchmark; then
	cat /sys/kernel/debug/static_key_batch_benchmark/results >> "$NOTES"
	rmmod static_key_batch_benchmark
else
	echo "flip,all,0,0,skip:static_key_batch_benchmark failed to load" >> "$NOTES"
fi
if [ -d "$T" ]; then
	echo 1 > "$T/options/overwrite"
	echo 1 > "$T/tracing_on"
	record nothing -
	record mark "$T/events/markers/bench_rec/enable" >> "$NOTES"
	record tracepoint "$T/events/marker_bench/marker_bench_tp/enable" >> "$NOTES"
	record kprobe_event_call_only - >> "$NOTES"
	if echo 'p:marker_bench_kp/bench_kp marker_bench:bench_kpe_target nr=%di:s32 ptr=%si:x64' \
		>> "$T/kprobe_events"; then
		record kprobe_event "$T/events/marker_bench_kp/bench_kp/enable" >> "$NOTES"
		echo '-:marker_bench_kp/bench_kp' >> "$T/kprobe_events"
	else
		echo "record,kprobe_event,0,0,skip:kprobe event not accepted: $(tail -n 3 "$T/error_log" | tr '\n,' '  ')" >> "$NOTES"
	fi
	record trace_printk - >> "$NOTES"
	bpf_rows >> "$NOTES"
	echo "== $(wc -l < "$T/trace") lines in the trace buffer"
	echo > "$T/trace"
else
	echo "record,all,0,0,skip:no tracefs" >> "$NOTES"
fi

# events <variant> <on command> <off command>: enable then disable every
# event, as rows
# events,<variant>[_ipi_rounds|_own_ipi_rounds|_batches|_pokes|_syscall_events],<events>,<value>
# (guest ns: instructions under -icount, with idle time warped; own IPI
# rounds: those of static key batches, the rest other text patching;
# pokes:
# jump sites and static call sites patched by static key batches, which
# share their text_poke batches; the syscall events among the events
# while on)
S=/sys/kernel/debug/static_keys/stats
stat() { awk -v k="$1" '$1 == k { print $2 }' $S; }
pokes() { echo $(($(stat applied_sites) + $(stat applied_calls))); }
events() {
	local variant=$1 on=$2 off=$3 t0 t1 r0 r1 b0 b1 s0 s1 o0 o1 n sys

	echo 0 > "$T/events/enable"
	r0=$(stat ipi_rounds); b0=$(stat text_poke_batches); s0=$(pokes)
	o0=$(stat own_ipi_rounds)
	t0=$(date +%s%N)
	$on
	n=$(grep -c . "$T/set_event")
	sys=$(grep -c '^syscalls:' "$T/set_event")
	$off
	t1=$(date +%s%N); r1=$(stat ipi_rounds); b1=$(stat text_poke_batches)
	s1=$(pokes); o1=$(stat own_ipi_rounds)
	echo "events,$variant,$n,$((t1 - t0)),ns"
	echo "events,${variant}_ipi_rounds,$n,$((r1 - r0)),rounds"
	echo "events,${variant}_own_ipi_rounds,$n,$((o1 - o0)),rounds"
	echo "events,${variant}_batches,$n,$((b1 - b0)),batches"
	echo "events,${variant}_pokes,$n,$((s1 - s0)),pokes"
	echo "events,${variant}_syscall_events,$n,$sys,events"
}
each_on() { for f in "$T"/events/*/*/enable; do echo 1 > "$f"; done 2> /dev/null; }
each_off() { for f in "$T"/events/*/*/enable; do echo 0 > "$f"; done 2> /dev/null; }
all_on() { echo 1 > "$T/events/enable"; }
all_off() { echo 0 > "$T/events/enable"; }
if [ -d "$T" ] && [ -r $S ]; then
	events one_by_one each_on each_off >> "$NOTES"
	events batched all_on all_off >> "$NOTES"
fi

# dyndbg <variant>: switch the printing of every pr_debug() site without
# a class on and then off, with one control write per site and change
# (one_by_one: mainline's cost shape, a batch per write) or with one
# write for all ("+p", then "-p"), as rows
# dyndbg,<variant>[_pokes|_ipi_rounds|_batches|_key_batches],<sites>,<value>
# of the static_keys/stats counters.  The console is quiet meanwhile: the
# sites print into the log buffer only.  Sites enabled before end disabled
# (none is, in the bench kernel).
DD=/sys/kernel/debug/dynamic_debug/control
dd_sites() {
	grep -v '" class' "$DD" | awk '!/^#/ { split($1, a, ":"); print a[1], a[2] }'
}
dyndbg() {
	local variant=$1 n w=2 f l s0 s1 r0 r1 b0 b1 k0 k1 lvl

	n=$(dd_sites | wc -l)
	lvl=$(awk '{ print $1 }' /proc/sys/kernel/printk)
	dmesg -n 1
	s0=$(pokes); r0=$(stat ipi_rounds)
	b0=$(stat text_poke_batches); k0=$(stat applied_batches)
	if [ "$variant" = one_by_one ]; then
		w=0
		while read -r f l; do
			echo "file $f line $l +p" > "$DD"
			echo "file $f line $l -p" > "$DD"
			w=$((w + 2))
		done < <(dd_sites) 2> /dev/null
	else
		echo +p > "$DD"
		echo -p > "$DD"
	fi
	s1=$(pokes); r1=$(stat ipi_rounds)
	b1=$(stat text_poke_batches); k1=$(stat applied_batches)
	dmesg -n "$lvl"
	echo "dyndbg,$variant,$n,$w,writes"
	echo "dyndbg,${variant}_pokes,$n,$((s1 - s0)),pokes"
	echo "dyndbg,${variant}_ipi_rounds,$n,$((r1 - r0)),rounds"
	echo "dyndbg,${variant}_batches,$n,$((b1 - b0)),batches"
	echo "dyndbg,${variant}_key_batches,$n,$((k1 - k0)),key batches"
}
if [ -w "$DD" ] && [ -r $S ]; then
	dyndbg one_by_one >> "$NOTES"
	dyndbg all >> "$NOTES"
else
	echo "dyndbg,all,0,0,skip:no dynamic_debug/control or static_keys/stats" >> "$NOTES"
fi

cat "$D/results" > "$CSV"
cat "$NOTES" >> "$CSV"
rmmod marker-bench
echo "== $(wc -l < "$CSV") result lines in $(( $(date +%s) - start ))s"
dmesg > "$OUT/dmesg.txt"
finish
