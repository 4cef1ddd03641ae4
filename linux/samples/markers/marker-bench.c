// SPDX-License-Identifier: GPL-2.0
/*
 * marker-bench: what a marker costs, measured beside its alternatives.
 *
 * Every figure comes from a tight loop run with interrupts off, the time
 * stamp counter read (rdtsc_ordered()) before and after, divided by the
 * number of loops.  Each case runs "repeats" times and the median is kept.
 * Under QEMU TCG with -icount shift=0 the guest TSC advances one tick per
 * instruction, so the figures are instructions per iteration; on hardware
 * or KVM they are cycles.  Nothing here checks a time: the caller (make
 * bench) prints and compares.
 *
 * Cases, named in the first CSV column:
 *   off     a disabled site in an empty loop and in a 4096-byte memcpy loop
 *   on      an enabled site with empty probes, and the probe variants
 *   atomic  the operations a lockless trace buffer is made of
 *   nop     5-byte NOP and jump variants in the instruction stream
 *   record  (on request, through the "run" file) a site whose trace event
 *           was enabled from tracefs by the caller
 *   bpf     (on request) a site whose trace event has a BPF program the
 *           caller attached
 *   bpf_raw (on request) a site with a raw tracepoint BPF program the
 *           caller attached
 *
 * Cases off to nop run at load; <debugfs>/marker-bench/results (root
 * only) then shows one "case,variant,n,value,unit" line per figure.  Writing
 * "record <variant>", "bpf <variant>" or "bpf_raw <variant>" to
 * <debugfs>/marker-bench/run appends a row;
 * "on kprobe" measures the kprobe again (e.g. after the caller switched
 * debug.kprobes-optimization).
 *
 * Locking: bench_mutex serialises the runs and the results buffer; the
 * results file reads the buffer under it.
 */

#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/ktime.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/text-patching.h>
#include <linux/uaccess.h>
#include <asm/local.h>
#include <asm/msr.h>
#include <asm/tsc.h>

#define CREATE_TRACE_POINTS
#include "marker_bench.h"

static unsigned int loops = 10000;
module_param(loops, uint, 0444);
MODULE_PARM_DESC(loops, "Iterations per timed loop (empty loop cases)");

static unsigned int copy_loops = 1000;
module_param(copy_loops, uint, 0444);
MODULE_PARM_DESC(copy_loops, "Iterations per timed loop (memcpy cases)");

static unsigned int repeats = 7;
module_param(repeats, uint, 0444);
MODULE_PARM_DESC(repeats, "Runs per case; the median is reported");

#define BENCH_MAX_REPEATS	31
#define BENCH_BUF_SIZE		(32 * 1024)
#define BENCH_COPY_SIZE		4096

static DEFINE_MUTEX(bench_mutex);
static char *bench_buf;
static size_t bench_len;
static struct dentry *bench_dir;

/* Targets the loop bodies write, so the compiler keeps them. */
static int bench_sink_int;
static const void *bench_sink_ptr;
static int bench_flag;
static unsigned long bench_cx;
static local_t bench_local;
static DEFINE_PER_CPU(unsigned long, bench_pcpu);
static int bench_nop_var;
static int bench_nop_var2 = 1;
static u8 bench_src[BENCH_COPY_SIZE] __aligned(64);
static u8 bench_dst[BENCH_COPY_SIZE] __aligned(64);

static __printf(1, 2) void bench_emit(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	bench_len += vscnprintf(bench_buf + bench_len,
				BENCH_BUF_SIZE - bench_len, fmt, args);
	va_end(args);
}

/* One CSV row; @milli is the value times 1000. */
static void bench_row(const char *c, const char *variant, unsigned long n,
		      u64 milli, const char *unit)
{
	bench_emit("%s,%s,%lu,%llu.%03llu,%s\n", c, variant, n,
		   div_u64(milli, 1000), milli % 1000, unit);
}

static void bench_row_int(const char *c, const char *variant,
			  unsigned long n, s64 value, const char *unit)
{
	bench_emit("%s,%s,%lu,%lld,%s\n", c, variant, n, value, unit);
}

/* The slow path of the flag-tested sites; never taken. */
static noinline void bench_slow(int nr, const void *ptr)
{
	WRITE_ONCE(bench_sink_int, nr);
	WRITE_ONCE(bench_sink_ptr, ptr);
}

/*
 * A flag set by an immediate operand, as the immediate values of the
 * original markers: no memory load, a register test and a branch.
 */
static __always_inline bool bench_imm_flag(void)
{
	u8 v;

	asm volatile("movb $0, %0" : "=q" (v));
	return v;
}

static __always_inline void bench_irq_save_restore(void)
{
	unsigned long flags;

	local_irq_save(flags);
	barrier();
	local_irq_restore(flags);
}

/* The kprobe target: not traced by ftrace, so the kprobe uses int3. */
static noinline notrace void bench_kp_target(int nr, const void *ptr)
{
	WRITE_ONCE(bench_sink_int, nr);
	WRITE_ONCE(bench_sink_ptr, ptr);
}

/*
 * The kprobe event target: kprobe events refuse notrace functions, so
 * this twin is traced and its entry probe goes through ftrace.
 */
static noinline __noclone void bench_kpe_target(int nr, const void *ptr)
{
	/* Stores in the other order: identical code would be folded. */
	WRITE_ONCE(bench_sink_ptr, ptr);
	WRITE_ONCE(bench_sink_int, nr);
}

/*
 * bench_loop_<name>(n): run @body n times with interrupts off and return
 * the TSC ticks it took.  The body sees the loop index i and a scratch v.
 */
#define BENCH_LOOP(name, body)						\
static noinline u64 bench_loop_##name(unsigned long n)			\
{									\
	unsigned long i, flags;						\
	unsigned long __maybe_unused v = 0;				\
	u64 t0, t1;							\
									\
	local_irq_save(flags);						\
	t0 = rdtsc_ordered();						\
	for (i = 0; i < n; i++) {					\
		body;							\
		barrier();						\
	}								\
	t1 = rdtsc_ordered();						\
	local_irq_restore(flags);					\
	return t1 - t0;							\
}

/* The same with interrupts on and preemption off, for irq save/restore. */
#define BENCH_LOOP_IRQS_ON(name, body)					\
static noinline u64 bench_loop_##name(unsigned long n)			\
{									\
	unsigned long i;						\
	u64 t0, t1;							\
									\
	preempt_disable();						\
	t0 = rdtsc_ordered();						\
	for (i = 0; i < n; i++) {					\
		body;							\
		barrier();						\
	}								\
	t1 = rdtsc_ordered();						\
	preempt_enable();						\
	return t1 - t0;							\
}

/* The destination is hidden from the compiler so the copy stays. */
#define BENCH_COPY							\
	do {								\
		void *d = bench_dst;					\
		OPTIMIZER_HIDE_VAR(d);					\
		memcpy(d, bench_src, BENCH_COPY_SIZE);			\
	} while (0)
#define B_NOTHING	do { } while (0)
#define B_MARK_OFF	MARK(bench_off, "%d %p", (int)i, &bench_sink_int)
#define B_GENERIC							\
	do {								\
		if (unlikely(READ_ONCE(bench_flag)))			\
			bench_slow((int)i, &bench_sink_int);		\
	} while (0)
#define B_IMMEDIATE							\
	do {								\
		if (unlikely(bench_imm_flag()))				\
			bench_slow((int)i, &bench_sink_int);		\
	} while (0)
#define B_TRACEPOINT	trace_marker_bench_tp((int)i, &bench_sink_int)
#define B_PR_DEBUG	pr_debug("bench %d %p\n", (int)i, &bench_sink_int)

/* Case off: empty loop, then the memcpy loop. */
BENCH_LOOP(nothing, B_NOTHING)
BENCH_LOOP(mark_off, B_MARK_OFF)
BENCH_LOOP(generic, B_GENERIC)
BENCH_LOOP(immediate, B_IMMEDIATE)
BENCH_LOOP(tracepoint_off, B_TRACEPOINT)
BENCH_LOOP(pr_debug_off, B_PR_DEBUG)
BENCH_LOOP(copy_nothing, BENCH_COPY)
BENCH_LOOP(copy_mark_off, BENCH_COPY; B_MARK_OFF)
BENCH_LOOP(copy_generic, BENCH_COPY; B_GENERIC)
BENCH_LOOP(copy_immediate, BENCH_COPY; B_IMMEDIATE)
BENCH_LOOP(copy_tracepoint_off, BENCH_COPY; B_TRACEPOINT)
BENCH_LOOP(copy_pr_debug_off, BENCH_COPY; B_PR_DEBUG)

/* Case on: each marker gets its own probe set. */
BENCH_LOOP(on_empty, MARK(bench_on_empty, "%d %p", (int)i, &bench_sink_int))
BENCH_LOOP(on_guarded, MARK(bench_on_guarded, "%d %p", (int)i, &bench_sink_int))
BENCH_LOOP(on_two, MARK(bench_on_two, "%d %p", (int)i, &bench_sink_int))
BENCH_LOOP(on_args, MARK(bench_on_args, "%d %p", (int)i, &bench_sink_int))
BENCH_LOOP(on_tracepoint, B_TRACEPOINT)
BENCH_LOOP(call_target, bench_kp_target((int)i, &bench_sink_int))
BENCH_LOOP(call_kpe_target, bench_kpe_target((int)i, &bench_sink_int))

/* Case record: enabled from tracefs by the caller. */
/* Named as the fields of marker_bench_tp, so one BPF program reads both. */
BENCH_LOOP(rec_mark,
	   MARK(bench_rec, "nr=%d ptr=%p", (int)i, &bench_sink_int))
/* What trace_printk() expands to, under a name checkpatch lets through. */
BENCH_LOOP(rec_printk, do_trace_printk("%d %p\n", (int)i, &bench_sink_int))

/* Case atomic. */
BENCH_LOOP(cmpxchg, v = cmpxchg(&bench_cx, v, v + 1) + 1)
BENCH_LOOP(local_cmpxchg, v = local_cmpxchg(&bench_local, v, v + 1) + 1)
BENCH_LOOP(this_cpu_cmpxchg, v = this_cpu_cmpxchg(bench_pcpu, v, v + 1) + 1)
BENCH_LOOP(preempt, preempt_disable(); barrier(); preempt_enable())
BENCH_LOOP_IRQS_ON(irq_save_restore, bench_irq_save_restore())
BENCH_LOOP_IRQS_ON(irqs_on_nothing, B_NOTHING)

/* Case nop: the seeds' arithmetic with a 5-byte instruction in front. */
#define B_NOP(insn)							\
	do {								\
		asm volatile(insn);					\
		bench_nop_var = (bench_nop_var + 50) / 10 * bench_nop_var2; \
	} while (0)
BENCH_LOOP(nop_baseline, B_NOP(""))
/* The 3 bytes jumped over are a NOP so that objtool decodes them. */
BENCH_LOOP(nop_jmp2, B_NOP(".byte 0xeb, 0x03, 0x0f, 0x1f, 0x00"))
BENCH_LOOP(nop_jmp5, B_NOP(".byte 0xe9, 0x00, 0x00, 0x00, 0x00"))
BENCH_LOOP(nop_3_2, B_NOP(".byte 0x66, 0x66, 0x90, 0x66, 0x90"))
BENCH_LOOP(nop_66, B_NOP(".byte 0x66, 0x66, 0x66, 0x66, 0x90"))
BENCH_LOOP(nop_p6, B_NOP(".byte 0x0f, 0x1f, 0x44, 0x00, 0x00"))

struct bench_case {
	const char *c;
	const char *variant;
	u64 (*fn)(unsigned long n);
	bool copy;
};

static const struct bench_case bench_off_cases[] = {
	{ "off", "nothing", bench_loop_nothing },
	{ "off", "mark", bench_loop_mark_off },
	{ "off", "generic", bench_loop_generic },
	{ "off", "immediate", bench_loop_immediate },
	{ "off", "tracepoint", bench_loop_tracepoint_off },
	{ "off", "pr_debug", bench_loop_pr_debug_off },
	{ "off", "copy_nothing", bench_loop_copy_nothing, true },
	{ "off", "copy_mark", bench_loop_copy_mark_off, true },
	{ "off", "copy_generic", bench_loop_copy_generic, true },
	{ "off", "copy_immediate", bench_loop_copy_immediate, true },
	{ "off", "copy_tracepoint", bench_loop_copy_tracepoint_off, true },
	{ "off", "copy_pr_debug", bench_loop_copy_pr_debug_off, true },
};

static const struct bench_case bench_atomic_cases[] = {
	{ "atomic", "nothing", bench_loop_nothing },
	{ "atomic", "cmpxchg", bench_loop_cmpxchg },
	{ "atomic", "local_cmpxchg", bench_loop_local_cmpxchg },
	{ "atomic", "this_cpu_cmpxchg", bench_loop_this_cpu_cmpxchg },
	{ "atomic", "preempt_disable_enable", bench_loop_preempt },
	{ "atomic", "irqs_on_nothing", bench_loop_irqs_on_nothing },
	{ "atomic", "irq_save_restore", bench_loop_irq_save_restore },
};

static const struct bench_case bench_nop_cases[] = {
	{ "nop", "baseline", bench_loop_nop_baseline },
	{ "nop", "jmp2", bench_loop_nop_jmp2 },
	{ "nop", "jmp5", bench_loop_nop_jmp5 },
	{ "nop", "nop3_2", bench_loop_nop_3_2 },
	{ "nop", "nop66x4_90", bench_loop_nop_66 },
	{ "nop", "p6_nop5", bench_loop_nop_p6 },
};

static int bench_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Median over the repeats of the TSC ticks per iteration, times 1000. */
static u64 bench_measure(u64 (*fn)(unsigned long n), unsigned long n)
{
	u64 t[BENCH_MAX_REPEATS];
	unsigned int r, nr = clamp(repeats, 1U, (unsigned int)BENCH_MAX_REPEATS);

	fn(n / 10 + 1);		/* warm the caches and the branch predictors */
	for (r = 0; r < nr; r++) {
		t[r] = fn(n);
		cond_resched();
	}
	sort(t, nr, sizeof(t[0]), bench_cmp_u64, NULL);
	return div64_u64(t[nr / 2] * 1000, n);
}

static void bench_run_case(const struct bench_case *bc)
{
	unsigned long n = bc->copy ? copy_loops : loops;

	bench_row(bc->c, bc->variant, n, bench_measure(bc->fn, n), "tsc");
}

static void bench_run_cases(const struct bench_case *bc, unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		bench_run_case(&bc[i]);
}

/*
 * Case on: the probes.  The empty probe is what the tracepoint's empty
 * probe is: a function called with the arguments; a marker probe gets
 * them as u64 slots.
 */
static void bench_probe_empty(void *data, const struct marker *m,
			      const u64 *args)
{
}

/* The same body behind the recursion-guarded entry of DEFINE_MARKER_PROBE(). */
DEFINE_MARKER_PROBE(bench_probe_guarded, bench_probe_empty);

/* Reads its arguments with the types of the format, "%d %p". */
static void bench_probe_args(void *data, const struct marker *m,
			     const u64 *args)
{
	WRITE_ONCE(bench_sink_int, (int)args[0]);
	WRITE_ONCE(bench_sink_ptr, (const void *)(unsigned long)args[1]);
}

static void bench_tp_probe(void *data, int nr, const void *ptr)
{
}

static int bench_kp_pre(struct kprobe *p, struct pt_regs *regs)
{
	return 0;
}

static int bench_two_data[2];

struct bench_on_case {
	const char *variant;
	const char *marker;
	marker_probe_fn probe;
	u64 (*fn)(unsigned long n);
};

static const struct bench_on_case bench_on_cases[] = {
	{ "mark_1probe_empty", "bench_on_empty", bench_probe_empty,
	  bench_loop_on_empty },
	{ "mark_1probe_guarded", "bench_on_guarded", bench_probe_guarded,
	  bench_loop_on_guarded },
	{ "mark_1probe_read_args", "bench_on_args", bench_probe_args,
	  bench_loop_on_args },
};

static void bench_on_mark(const struct bench_on_case *oc)
{
	int ret;

	ret = marker_probe_register(oc->marker, "%d %p", oc->probe, NULL);
	if (ret) {
		bench_row_int("on", oc->variant, loops, ret, "error");
		return;
	}
	bench_row("on", oc->variant, loops, bench_measure(oc->fn, loops),
		  "tsc");
	marker_probe_unregister(oc->marker, oc->probe, NULL);
}

static void bench_on_two(void)
{
	int ret;

	ret = marker_probe_register("bench_on_two", "%d %p",
				    bench_probe_empty, &bench_two_data[0]);
	if (ret)
		goto err;
	ret = marker_probe_register("bench_on_two", "%d %p",
				    bench_probe_empty, &bench_two_data[1]);
	if (ret)
		goto err_first;
	bench_row("on", "mark_2probes_empty", loops,
		  bench_measure(bench_loop_on_two, loops), "tsc");
	marker_probe_unregister("bench_on_two", bench_probe_empty,
				&bench_two_data[1]);
err_first:
	marker_probe_unregister("bench_on_two", bench_probe_empty,
				&bench_two_data[0]);
err:
	if (ret)
		bench_row_int("on", "mark_2probes_empty", loops, ret, "error");
}

static void bench_on_tracepoint(void)
{
	int ret;

	ret = register_trace_marker_bench_tp(bench_tp_probe, NULL);
	if (ret) {
		bench_row_int("on", "tracepoint_1probe_empty", loops, ret,
			      "error");
		return;
	}
	bench_row("on", "tracepoint_1probe_empty", loops,
		  bench_measure(bench_loop_on_tracepoint, loops), "tsc");
	unregister_trace_marker_bench_tp(bench_tp_probe, NULL);
	tracepoint_synchronize_unregister();
}

static void bench_on_kprobe(void)
{
	struct kprobe kp = {
		.addr		= (kprobe_opcode_t *)bench_kp_target,
		.pre_handler	= bench_kp_pre,
	};
	const char *kind;
	u8 insn;
	int ret;

	bench_row("on", "call_target", loops,
		  bench_measure(bench_loop_call_target, loops), "tsc");
	if (!IS_ENABLED(CONFIG_KPROBES)) {
		bench_row_int("on", "kprobe", loops, -EOPNOTSUPP, "error");
		return;
	}
	ret = register_kprobe(&kp);
	if (ret) {
		bench_row_int("on", "kprobe", loops, ret, "error");
		return;
	}
	/* Let the kprobe optimizer run, if debug.kprobes-optimization is on. */
	msleep(100);
	/*
	 * An optimized probe sets its flag on the aggregate kprobe, not on
	 * ours: tell the kinds apart by the instruction now at the site.
	 */
	if (copy_from_kernel_nofault(&insn, kp.addr, sizeof(insn)))
		insn = 0;
	if (kprobe_ftrace(&kp))
		kind = "kprobe_ftrace";
	else if (insn == INT3_INSN_OPCODE)
		kind = "kprobe_int3";
	else if (insn == JMP32_INSN_OPCODE)
		kind = "kprobe_optimized";
	else
		kind = "kprobe_unknown";
	bench_row("on", kind, loops, bench_measure(bench_loop_call_target, loops),
		  "tsc");
	unregister_kprobe(&kp);
}

static void bench_on(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bench_on_cases); i++)
		bench_on_mark(&bench_on_cases[i]);
	bench_on_two();
	bench_on_tracepoint();
	bench_on_kprobe();
	marker_synchronize_unregister();
}

/*
 * Case size: read from marker-bench.o by the host; these functions differ
 * only by the site they contain.  Called once, through a table, so the
 * compiler keeps them whole.
 */
static noinline void marker_bench_size_none(int nr, const void *ptr)
{
	WRITE_ONCE(bench_sink_int, nr);
}

static noinline void marker_bench_size_mark(int nr, const void *ptr)
{
	WRITE_ONCE(bench_sink_int, nr);
	MARK(bench_size, "%d %p", nr, ptr);
}

static noinline void marker_bench_size_tracepoint(int nr, const void *ptr)
{
	WRITE_ONCE(bench_sink_int, nr);
	trace_marker_bench_tp(nr, ptr);
}

static void (* const bench_size_fns[])(int nr, const void *ptr) = {
	marker_bench_size_none,
	marker_bench_size_mark,
	marker_bench_size_tracepoint,
};

static void bench_all(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bench_size_fns); i++)
		bench_size_fns[i](0, NULL);
	bench_row_int("meta", "tsc_khz", 0, tsc_khz, "khz");
	bench_row_int("meta", "online_cpus", 0, num_online_cpus(), "count");
	bench_row_int("meta", "repeats", 0, repeats, "count");
	bench_run_cases(bench_off_cases, ARRAY_SIZE(bench_off_cases));
	bench_on();
	bench_run_cases(bench_atomic_cases, ARRAY_SIZE(bench_atomic_cases));
	bench_run_cases(bench_nop_cases, ARRAY_SIZE(bench_nop_cases));
}

/*
 * Cases record and bpf: the caller enabled the event behind @variant, or
 * attached a BPF program to it.
 */
static const struct bench_case bench_record_cases[] = {
	{ "record", "mark", bench_loop_rec_mark },
	{ "record", "tracepoint", bench_loop_tracepoint_off },
	{ "record", "trace_printk", bench_loop_rec_printk },
	{ "record", "kprobe_event", bench_loop_call_kpe_target },
	{ "record", "kprobe_event_call_only", bench_loop_call_kpe_target },
	{ "record", "nothing", bench_loop_nothing },
	{ "bpf", "mark", bench_loop_rec_mark },
	{ "bpf", "tracepoint", bench_loop_tracepoint_off },
	{ "bpf_raw", "mark", bench_loop_rec_mark },
	{ "bpf_raw", "tracepoint", bench_loop_tracepoint_off },
};

static int bench_run(const char *cmd)
{
	unsigned int i;

	if (!strcmp(cmd, "on kprobe")) {
		bench_on_kprobe();
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(bench_record_cases); i++) {
		const struct bench_case *bc = &bench_record_cases[i];
		size_t len = strlen(bc->c);

		if (!strncmp(cmd, bc->c, len) && cmd[len] == ' ' &&
		    !strcmp(skip_spaces(cmd + len), bc->variant)) {
			bench_run_case(bc);
			return 0;
		}
	}
	return str_has_prefix(cmd, "record ") || str_has_prefix(cmd, "bpf ") ||
	       str_has_prefix(cmd, "bpf_raw ") ? -ENOENT : -EINVAL;
}

static ssize_t bench_run_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	char buf[48];
	int ret;

	if (count >= sizeof(buf))
		return -E2BIG;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	mutex_lock(&bench_mutex);
	ret = bench_run(strim(buf));
	mutex_unlock(&bench_mutex);
	return ret ? ret : count;
}

static ssize_t bench_results_read(struct file *file, char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&bench_mutex);
	ret = simple_read_from_buffer(ubuf, count, ppos, bench_buf, bench_len);
	mutex_unlock(&bench_mutex);
	return ret;
}

static const struct file_operations bench_results_fops = {
	.owner	= THIS_MODULE,
	.read	= bench_results_read,
	.llseek	= default_llseek,
};

static const struct file_operations bench_run_fops = {
	.owner	= THIS_MODULE,
	.write	= bench_run_write,
	.llseek	= noop_llseek,
};

static int __init marker_bench_init(void)
{
	bench_buf = kzalloc(BENCH_BUF_SIZE, GFP_KERNEL);
	if (!bench_buf)
		return -ENOMEM;
	mutex_lock(&bench_mutex);
	bench_all();
	mutex_unlock(&bench_mutex);
	bench_dir = debugfs_create_dir("marker-bench", NULL);
	debugfs_create_file("results", 0400, bench_dir, NULL,
			    &bench_results_fops);
	debugfs_create_file("run", 0200, bench_dir, NULL, &bench_run_fops);
	return 0;
}

static void __exit marker_bench_exit(void)
{
	debugfs_remove_recursive(bench_dir);
	kfree(bench_buf);
}

module_init(marker_bench_init);
module_exit(marker_bench_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("@EXPORTER@");
MODULE_DESCRIPTION("Markers benchmark: off, on, atomic and NOP costs");
