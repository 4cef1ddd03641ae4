/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MARKER_H
#define _LINUX_MARKER_H

/*
 * Markers: named, printf-formatted instrumentation sites.
 *
 *	MARK(subsys_event, "%d %p", nr, ptr);
 *	MARK(subsys_other, MARK_NOARGS);
 *
 * A site costs one static branch (a NOP with jump labels) while no probe
 * is connected; the arguments are evaluated only in the out-of-line
 * branch.  The format is checked by the compiler like printk() and parsed
 * once, at boot for built-in sites and at load for module sites, into an
 * array of argument types (see marker_parse_format()).  A site whose
 * format converts another number of arguments than it passes, or uses an
 * unsupported conversion, or differs from the format of other sites of
 * the same name, is reported and left disconnected.
 *
 * A hit passes its arguments as an array of u64 slots, one per
 * conversion, each holding the argument's value (signed integers sign
 * extended, pointers converted to unsigned long), as BPF raw tracepoints
 * receive theirs.  Every probe has the one prototype marker_probe_fn, so
 * every call, direct or through the array, is made through the callee's
 * own type: nothing is variadic and nothing walks a va_list.
 *
 * Probes connect by name with marker_probe_register().  A site reads its
 * probe array, and in it the function to call with its data: the only
 * probe and its data, or the iterator, which calls each probe in
 * registration order.  The array is read under tracepoints' own SRCU-fast
 * read side (tracepoint_srcu), so a probe is entered preemptible when the
 * site is; it must not sleep, as the site may be atomic.  The entries
 * DEFINE_MARKER_PROBE() builds run the probe body with preemption
 * disabled, as trace event probes run.  A site carries no recursion
 * guard, as a tracepoint carries none: those entries drop a marker hit
 * from a probe on the same CPU and in the same context.
 */

#include <linux/args.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/init.h>
#include <linux/jump_label.h>
#include <linux/list.h>
#include <linux/marker_format.h>
#include <linux/notifier.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/srcu.h>
#include <linux/tracepoint.h>
#include <linux/types.h>

struct marker;
struct module;

/* Format of a marker without arguments. */
#define MARK_NOARGS		" "

/*
 * Read side of a site, and the context of a probe body.  Sites hold
 * tracepoint_srcu (SRCU-fast: NMI-safe, preemptible) while they read
 * their probe array and call, as tracepoint sites do, so that
 * tracepoint_synchronize_unregister(), all the event core and perf wait
 * for before freeing an event's files and per-event data, waits for
 * marker probes too.  Probe entries disable preemption around a body that
 * uses per-CPU state (the recursion guard, ring buffers), as trace event
 * probes do.
 */
#define __marker_read_guard()	guard(srcu_fast_notrace)(&tracepoint_srcu)
#define __marker_deref(p)	srcu_dereference_notrace(p, &tracepoint_srcu)
#define marker_probe_guard()	guard(preempt_notrace)()

/**
 * typedef marker_probe_fn - a probe
 * @data: the data the probe was registered with
 * @m: the marker hit; m->nr_args and m->types[] describe @args
 * @args: one slot per argument of the hit (NULL without arguments)
 *
 * Read an argument with the C type of its conversion:
 * (int)args[i] for MARKER_ARG_S32, (const char *)(unsigned long)args[i]
 * for MARKER_ARG_STR, and so on (see marker_arg_size()).
 */
typedef void (*marker_probe_fn)(void *data, const struct marker *m,
				const u64 *args);

/**
 * DEFINE_MARKER_PROBE - define a probe entry around a probe body
 * @name: name of the marker_probe_fn entry to define
 * @fn: the body, void fn(void *data, const struct marker *m,
 *	const u64 *args)
 *
 * The entry runs @fn with preemption disabled and drops a marker hit
 * from @fn on the same CPU and in the same context (see
 * marker_recursion_enter()).  Register @name, not @fn.
 */
#define DEFINE_MARKER_PROBE(name, fn)					\
	static void name(void *data, const struct marker *m,		\
			 const u64 *args)				\
	{								\
		unsigned int bit;					\
									\
		marker_probe_guard();					\
		bit = marker_recursion_enter();				\
		if (bit) {						\
			fn(data, m, args);				\
			marker_recursion_exit(bit);			\
		}							\
	}

/**
 * struct marker_func - one connected probe
 * @probe: the probe
 * @data: its private data, the first argument of each call
 * @has_format: the probe was registered with a format
 */
struct marker_func {
	marker_probe_fn probe;
	void *data;
	bool has_format;
};

/**
 * struct marker_funcs - RCU-published array of connected probes
 * @rcu: frees the array after a read-side grace period
 * @marker: the marker the probes are connected to
 * @call: what a site calls: the only probe, or the iterator
 * @data: the first argument of @call: the only probe's data, or the array
 * @nr: number of probes in @f
 * @f: the probes, in registration order
 *
 * A site reads @call and @data from the one array it fetched, so it
 * never passes a probe another probe's data.
 */
struct marker_funcs {
	struct rcu_head rcu;
	struct marker *marker;
	marker_probe_fn call;
	void *data;
	unsigned int nr;
	struct marker_func f[] __counted_by(nr);
};

/**
 * struct marker - a marker name known to the registry
 * @name: name of the marker
 * @format: format shared by its sites, or requested by a probe, or NULL
 * @types: argument types parsed from @format
 * @nr_args: number of entries in @types
 * @funcs: connected probes, NULL when none
 * @nr_sites: connected sites
 * @list: link in the registry, under markers_mutex
 * @sites: connected sites, under markers_mutex
 * @live_enabled: the sites' keys are on now
 * @rcu: frees the marker after a read-side grace period
 *
 * Readers outside kernel/marker.c hold the registry lock through
 * marker_for_each() or get the marker as a probe argument.
 */
struct marker {
	const char *name;
	const char *format;
	u8 types[MARKER_MAX_ARGS];
	unsigned int nr_args;
	struct marker_funcs __rcu *funcs;
	unsigned int nr_sites;
	/* private: */
	struct list_head list;
	struct list_head sites;
	bool live_enabled;
	struct rcu_head rcu;
};

/**
 * struct marker_site - descriptor of one MARK() site, in section __markers
 * @name: marker name
 * @format: format string literal
 * @nr_args: number of arguments the site passes
 * @key: static key of the site's branch
 * @funcs: probes of @marker, the array the site reads when hit
 * @marker: marker the site is connected to, NULL if not connected
 * @mod: module defining the site, NULL for built-in sites
 * @node: link in the marker's list of sites
 */
struct marker_site {
	const char *name;
	const char *format;
	unsigned int nr_args;
	struct static_key_false key;
	struct marker_funcs __rcu *funcs;
	struct marker *marker;
	struct module *mod;
	struct list_head node;
} __aligned(8);

/* Notifier events, with the struct marker as data. */
enum marker_event {
	MARKER_ADD,	/* a marker got its first site */
	MARKER_REMOVE,	/* a marker lost its last site */
};

#ifdef CONFIG_MARKERS

int marker_probe_register(const char *name, const char *format,
			  marker_probe_fn probe, void *data);
int marker_probe_unregister(const char *name, marker_probe_fn probe,
			    void *data);
void marker_synchronize_unregister(void);
int marker_for_each(int (*cb)(const struct marker *m, void *priv),
		    void *priv);
int register_marker_notifier(struct notifier_block *nb);
int unregister_marker_notifier(struct notifier_block *nb);

/* The sites of vmlinux, between these linker script symbols. */
extern struct marker_site __start___markers[];
extern struct marker_site __stop___markers[];

/* Connect and disconnect sites: boot, module notifier and KUnit. */
void marker_sites_add(struct marker_site *start, struct marker_site *stop);
void marker_sites_remove(struct marker_site *start, struct marker_site *stop);

DECLARE_PER_CPU(unsigned int, marker_nesting);

/**
 * marker_recursion_enter - enter a probe unless this context is in one
 *
 * A per-CPU word holds one bit per context level (task, softirq, hardirq,
 * NMI); a probe hit while a probe of the same level runs on this CPU is
 * dropped, while an interrupt or NMI still runs its own probes.  The
 * entry DEFINE_MARKER_PROBE() builds calls this; a probe with its own
 * entry calls it too, or relies on a guard of its own, as the ring
 * buffer's for the markers trace events.
 *
 * Context: Probe entry, preemption disabled.
 * Return: a bit to pass to marker_recursion_exit(), 0 to drop the hit.
 */
static __always_inline unsigned int marker_recursion_enter(void)
{
	unsigned int bit = 1U << interrupt_context_level();

	if (unlikely(__this_cpu_read(marker_nesting) & bit))
		return 0;
	this_cpu_or(marker_nesting, bit);
	/* Paired with the barrier() in marker_recursion_exit(). */
	barrier();
	return bit;
}

/**
 * marker_recursion_exit - leave a probe entered with marker_recursion_enter()
 * @bit: its return value, not 0
 */
static __always_inline void marker_recursion_exit(unsigned int bit)
{
	/* Paired with the barrier() in marker_recursion_enter(). */
	barrier();
	this_cpu_and(marker_nesting, ~bit);
}

/* Never called: lets the compiler check the format against the args. */
static inline __printf(1, 2) void __mark_check_format(const char *fmt, ...)
{
}

/*
 * A site's arguments as u64 slots.  __builtin_classify_type() tells
 * pointers (and arrays and functions, which decay to them) from
 * integers; each branch converts only what it can take, so that neither
 * warns on 32-bit kernels.
 */
#ifdef __CHECKER__
/* sparse knows no __builtin_classify_type(); it only checks the casts. */
#define __marker_slot(x)	((u64)(unsigned long)(x))
#else
#define __marker_is_ptr(x)	(__builtin_classify_type(x) == 5)
#define __marker_slot(x)						\
	__builtin_choose_expr(__marker_is_ptr(x),			\
		(u64)(unsigned long)(x),				\
		(u64)__builtin_choose_expr(__marker_is_ptr(x), 0, (x)))
#endif

/* The argument array of a hit: a compound literal, NULL without args. */
#define __MARK_ARGV_0()		NULL
#define __MARK_ARGV_1(a)						\
	((const u64 []){ __marker_slot(a) })
#define __MARK_ARGV_2(a, b)						\
	((const u64 []){ __marker_slot(a), __marker_slot(b) })
#define __MARK_ARGV_3(a, b, c)						\
	((const u64 []){ __marker_slot(a), __marker_slot(b),		\
		__marker_slot(c) })
#define __MARK_ARGV_4(a, b, c, d)					\
	((const u64 []){ __marker_slot(a), __marker_slot(b),		\
		__marker_slot(c), __marker_slot(d) })
#define __MARK_ARGV_5(a, b, c, d, e)					\
	((const u64 []){ __marker_slot(a), __marker_slot(b),		\
		__marker_slot(c), __marker_slot(d), __marker_slot(e) })
#define __MARK_ARGV_6(a, b, c, d, e, f)					\
	((const u64 []){ __marker_slot(a), __marker_slot(b),		\
		__marker_slot(c), __marker_slot(d), __marker_slot(e),	\
		__marker_slot(f) })
#define __MARK_ARGV_7(a, b, c, d, e, f, g)				\
	((const u64 []){ __marker_slot(a), __marker_slot(b),		\
		__marker_slot(c), __marker_slot(d), __marker_slot(e),	\
		__marker_slot(f), __marker_slot(g) })
#define __MARK_ARGV_8(a, b, c, d, e, f, g, h)				\
	((const u64 []){ __marker_slot(a), __marker_slot(b),		\
		__marker_slot(c), __marker_slot(d), __marker_slot(e),	\
		__marker_slot(f), __marker_slot(g), __marker_slot(h) })
#define __MARK_ARGV_9(a, b, c, d, e, f, g, h, i)			\
	((const u64 []){ __marker_slot(a), __marker_slot(b),		\
		__marker_slot(c), __marker_slot(d), __marker_slot(e),	\
		__marker_slot(f), __marker_slot(g), __marker_slot(h),	\
		__marker_slot(i) })
#define __MARK_ARGV_10(a, b, c, d, e, f, g, h, i, j)			\
	((const u64 []){ __marker_slot(a), __marker_slot(b),		\
		__marker_slot(c), __marker_slot(d), __marker_slot(e),	\
		__marker_slot(f), __marker_slot(g), __marker_slot(h),	\
		__marker_slot(i), __marker_slot(j) })
#define __MARK_ARGV_11(a, b, c, d, e, f, g, h, i, j, k)			\
	((const u64 []){ __marker_slot(a), __marker_slot(b),		\
		__marker_slot(c), __marker_slot(d), __marker_slot(e),	\
		__marker_slot(f), __marker_slot(g), __marker_slot(h),	\
		__marker_slot(i), __marker_slot(j), __marker_slot(k) })
#define __MARK_ARGV_12(a, b, c, d, e, f, g, h, i, j, k, l)		\
	((const u64 []){ __marker_slot(a), __marker_slot(b),		\
		__marker_slot(c), __marker_slot(d), __marker_slot(e),	\
		__marker_slot(f), __marker_slot(g), __marker_slot(h),	\
		__marker_slot(i), __marker_slot(j), __marker_slot(k),	\
		__marker_slot(l) })
#define __MARK_ARGV(args...)						\
	CONCATENATE(__MARK_ARGV_, COUNT_ARGS(args))(args)

/*
 * The out-of-line part of a site, entered with its static branch taken:
 * like a tracepoint, read the probe array in a tracepoint_srcu read-side
 * section; then evaluate the arguments and call what the array says.
 * Each site holds its own pointer to the array, so a hit reads one
 * pointer before the function and its data.
 */
#define __MARK_HIT(site, args...)					\
do {									\
	const struct marker_funcs *__f;					\
									\
	__marker_read_guard();						\
	__f = __marker_deref((site)->funcs);				\
	if (likely(__f))						\
		__f->call(__f->data, __f->marker, __MARK_ARGV(args));	\
} while (0)

#define __MARK(_name, _fmt, args...)					\
do {									\
	enum { __PASTE(__mark_name_is_an_identifier_, _name) };		\
	static_assert(COUNT_ARGS(args) <= MARKER_MAX_ARGS,		\
		      "more than MARKER_MAX_ARGS marker arguments");	\
	static struct marker_site __aligned(8) __section("__markers")	\
	__mark_site = {							\
		.name		= #_name,				\
		.format		= "" _fmt "",				\
		.nr_args	= COUNT_ARGS(args),			\
		.key		= STATIC_KEY_FALSE_INIT,		\
		.mod		= THIS_MODULE,				\
	};								\
	if (0)								\
		__mark_check_format(_fmt, ##args);			\
	if (static_branch_unlikely(&__mark_site.key))			\
		__MARK_HIT(&__mark_site, ##args);			\
} while (0)

/**
 * MARK - place a marker
 * @name: marker name, a C identifier
 * @fmt: printf-like format string literal, or MARK_NOARGS
 * @args: arguments matching @fmt
 *
 * Costs one static branch while disabled; @args are evaluated only when
 * the marker is enabled.
 */
#define MARK(name, fmt, args...)	__MARK(name, fmt, ##args)

#else /* !CONFIG_MARKERS */

#define MARK(name, fmt, args...)					\
do {									\
	enum { __PASTE(__mark_name_is_an_identifier_, name) };		\
	if (0)								\
		__mark_check_format(fmt, ##args);			\
} while (0)

static inline __printf(1, 2) void __mark_check_format(const char *fmt, ...)
{
}

/* Probes never run without markers; DEFINE_MARKER_PROBE() still builds. */
static inline unsigned int marker_recursion_enter(void)
{
	return 1;
}

static inline void marker_recursion_exit(unsigned int bit)
{
}

static inline int marker_probe_register(const char *name, const char *format,
					marker_probe_fn probe, void *data)
{
	return -EOPNOTSUPP;
}

static inline int marker_probe_unregister(const char *name,
					  marker_probe_fn probe, void *data)
{
	return -EOPNOTSUPP;
}

static inline void marker_synchronize_unregister(void)
{
}

#endif /* CONFIG_MARKERS */

#endif /* _LINUX_MARKER_H */
