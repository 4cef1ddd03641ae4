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
 * array of argument types (see marker_parse_format()).
 *
 * Probes connect by name with marker_probe_register().  With one probe
 * connected, the site calls it directly: on x86-64 each site owns a
 * static_call-style trampoline that is patched to jump to the probe.
 * With several, the trampoline jumps to an iterator over an RCU-protected
 * array, which calls each probe in registration order.  A site reads its
 * probe array under SRCU-fast (marker_srcu), as tracepoints read theirs,
 * so a probe is entered preemptible when the site is; it must not sleep,
 * as the site may be atomic.  The entries DEFINE_MARKER_PROBE() builds
 * and the iterator run the probe body with preemption disabled, as trace
 * event probes run.  A site carries no recursion guard, as a tracepoint
 * carries none: those entries drop a marker hit from a probe on the same
 * CPU and in the same context.
 *
 * Sites sharing a name must share the format; a site whose format differs
 * from the marker's, or uses an unsupported conversion, is reported and
 * left disconnected.
 */

#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/init.h>
#include <linux/jump_label.h>
#include <linux/list.h>
#include <linux/notifier.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/srcu.h>
#include <linux/static_call_types.h>
#include <linux/types.h>
#include <linux/stdarg.h>

struct marker;
struct module;

/**
 * enum marker_arg_type - C type of one argument, parsed from the format
 * @MARKER_ARG_S32: %d %i (int, also with h and hh)
 * @MARKER_ARG_U32: %u %x %X (unsigned int, also with h and hh)
 * @MARKER_ARG_LONG: %ld %li
 * @MARKER_ARG_ULONG: %lu %lx %lX
 * @MARKER_ARG_S64: %lld %lli
 * @MARKER_ARG_U64: %llu %llx %llX
 * @MARKER_ARG_SSIZE: %zd %zi
 * @MARKER_ARG_SIZE: %zu %zx
 * @MARKER_ARG_PTR: %p, without printk extensions
 * @MARKER_ARG_CHAR: %c (promoted to int)
 * @MARKER_ARG_STR: %s, a pointer the probe must copy with a bound
 */
enum marker_arg_type {
	MARKER_ARG_S32,
	MARKER_ARG_U32,
	MARKER_ARG_LONG,
	MARKER_ARG_ULONG,
	MARKER_ARG_S64,
	MARKER_ARG_U64,
	MARKER_ARG_SSIZE,
	MARKER_ARG_SIZE,
	MARKER_ARG_PTR,
	MARKER_ARG_CHAR,
	MARKER_ARG_STR,
};

/**
 * struct marker_conv - one conversion of a marker format
 * @start: its '%'
 * @type: enum marker_arg_type of its argument
 * @spec: the conversion character ('d', 'x', 's'...)
 * @alt: the '#' flag was given
 */
struct marker_conv {
	const char *start;
	u8 type;
	char spec;
	bool alt;
};

/* Most arguments a format may convert. */
#define MARKER_MAX_ARGS		16

/* Format of a marker without arguments. */
#define MARK_NOARGS		" "

/*
 * Read side of a site, and the context of a probe body.  Sites hold
 * marker_srcu (SRCU-fast: NMI-safe, preemptible) while they read their
 * probe array and call; marker_synchronize_unregister() waits for them.
 * Probe entries disable preemption around a body that uses per-CPU state
 * (the recursion guard, ring buffers), as trace event probes do.
 */
extern struct srcu_struct marker_srcu;
#define __marker_read_guard()	guard(srcu_fast_notrace)(&marker_srcu)
#define __marker_deref(p)	srcu_dereference_notrace(p, &marker_srcu)
#define marker_probe_guard()	guard(preempt_notrace)()

/**
 * struct marker_probe - a probe connectable to markers
 * @call: variadic entry, jumped to directly from a site when it is the
 *	only probe connected
 * @vcall: the probe body, called with the site's arguments as a va_list
 *
 * Write the body as @vcall and let DEFINE_MARKER_PROBE() build @call.
 */
struct marker_probe {
	void (*call)(void *data, const struct marker *m, ...);
	void (*vcall)(void *data, const struct marker *m, va_list *args);
};

/**
 * DEFINE_MARKER_PROBE - define a struct marker_probe from a va_list body
 * @name: name of the struct marker_probe object
 * @fn: void fn(void *data, const struct marker *m, va_list *args)
 *
 * The generated entry runs @fn with preemption disabled and drops a
 * marker hit from @fn on the same CPU and in the same context (see
 * marker_recursion_enter()).
 */
#define DEFINE_MARKER_PROBE(name, fn)					\
	static void __marker_call_##name(void *data,			\
					 const struct marker *m, ...)	\
	{								\
		unsigned int bit;					\
		va_list args;						\
									\
		marker_probe_guard();					\
		bit = marker_recursion_enter();				\
		if (!bit)						\
			return;						\
		va_start(args, m);					\
		fn(data, m, &args);					\
		va_end(args);						\
		marker_recursion_exit(bit);				\
	}								\
	static const struct marker_probe name = {			\
		.call	= __marker_call_##name,				\
		.vcall	= fn,						\
	}

/**
 * struct marker_func - one connected probe
 * @probe: the probe
 * @data: its private data, the first argument of each call
 * @has_format: the probe was registered with a format
 */
struct marker_func {
	const struct marker_probe *probe;
	void *data;
	bool has_format;
};

/**
 * struct marker_funcs - RCU-published array of connected probes
 * @rcu: frees the array after a marker_srcu grace period
 * @marker: the marker the probes are connected to
 * @nr: number of probes in @f
 * @f: the probes, in registration order
 */
struct marker_funcs {
	struct rcu_head rcu;
	struct marker *marker;
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
 * @enabled: sites of this marker are to be switched on
 * @list: link in the registry, under markers_mutex
 * @sites: connected sites, under markers_mutex
 * @call: function the sites' trampolines are to jump to
 * @live: function the trampolines jump to now (differs from @call only
 *	while a batch is open)
 * @live_data: data of the probe @live, when it is one
 * @live_enabled: the sites' keys are on now
 * @sync_cookie: marker_srcu state when an array with another first probe was
 *	last published; waited for before a trampoline moves to a probe
 * @batch_node: link in the list of markers a batch moves at commit
 * @rcu: frees the marker after a marker_srcu grace period
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
	bool enabled;
	/* private: */
	struct list_head list;
	struct list_head sites;
	void *call;
	void *live;
	void *live_data;
	bool live_enabled;
	unsigned long sync_cookie;
	struct list_head batch_node;
	struct rcu_head rcu;
};

/**
 * struct marker_site - descriptor of one MARK() site, in section __markers
 * @name: marker name
 * @format: format string literal
 * @key: static key of the site's branch
 * @call: static_call key of the site's trampoline
 * @tramp: address of the trampoline plus one (see __MARK_TRAMP_ASM())
 * @func: target of the call without static_call
 * @funcs: probes of @marker, the array the site reads when hit
 * @marker: marker the site is connected to, NULL if not connected
 * @mod: module defining the site, NULL for built-in sites
 * @node: link in the marker's list of sites
 */
struct marker_site {
	const char *name;
	const char *format;
	struct static_key_false key;
#ifdef CONFIG_MARKERS_DIRECT_CALL
	struct static_call_key call;
	unsigned long tramp;
#else
	void (*func)(void *data, const struct marker *m, ...);
#endif
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

void __marker_stub(void *data, const struct marker *m, ...);
void __marker_probe_iterate(void *data, const struct marker *m, ...);

int marker_format_next(const char **pp, struct marker_conv *conv);
int marker_parse_format(const char *fmt, u8 *types, unsigned int max);
size_t marker_arg_size(enum marker_arg_type type);
int marker_probe_register(const char *name, const char *format,
			  const struct marker_probe *probe, void *data);
int marker_probe_unregister(const char *name,
			    const struct marker_probe *probe, void *data);
void marker_synchronize_unregister(void);
void marker_batch_begin(void);
int marker_batch_commit(void);
int marker_for_each(int (*cb)(const struct marker *m, void *priv),
		    void *priv);
int register_marker_notifier(struct notifier_block *nb);
int unregister_marker_notifier(struct notifier_block *nb);

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
 * Marker and data of the first probe, for a direct call.  When several
 * probes are connected the iterator ignores @data and walks the array.
 * Each site holds its own pointer to the array, so a hit reads one
 * pointer before the probe's data, as a tracepoint does.
 */
static __always_inline bool __marker_get(const struct marker_site *site,
					 const struct marker **m, void **data)
{
	struct marker_funcs *funcs;

	funcs = __marker_deref(site->funcs);
	if (unlikely(!funcs))
		return false;
	*m = funcs->marker;
	*data = funcs->f[0].data;
	return true;
}

#ifdef CONFIG_MARKERS_DIRECT_CALL

/*
 * One trampoline per site, laid out as the x86 static_call trampolines
 * (a 5-byte jmp, then the 0f b9 cc signature __static_call_transform()
 * checks) so __static_call_update() can retarget it.  Its name is not
 * __SCT__*: objtool records no inline call sites for it, the call site
 * keeps calling the trampoline.  .ifndef keeps one copy when the compiler
 * duplicates the asm (inlining, cloning): the site descriptor is static,
 * so all copies share it.  objtool is told to skip the trampoline (as
 * STACK_FRAME_NON_STANDARD() does), as it knows __SCT__* trampolines:
 * the signature after the jmp is never reached.  The descriptor stores
 * the trampoline address plus one, inside the jmp, so the data reference
 * does not point at an instruction lacking ENDBR (the trampoline is only
 * called directly).
 */
#define __MARK_TRAMP_ASM(tramp)						\
	".ifndef " #tramp "\n\t"					\
	".pushsection .static_call.text, \"ax\"\n\t"			\
	".align 4\n\t"							\
	#tramp ":\n\t"							\
	ANNOTATE_NOENDBR "\n\t"						\
	".byte 0xe9\n\t"						\
	".long __marker_stub - (. + 4)\n\t"				\
	".byte 0x0f, 0xb9, 0xcc\n\t"					\
	".type " #tramp ", @function\n\t"				\
	".size " #tramp ", . - " #tramp "\n\t"				\
	".popsection\n\t"						\
	".pushsection .discard.func_stack_frame_non_standard, \"aw\"\n\t"	\
	".long " #tramp " - .\n\t"					\
	".popsection\n\t"						\
	".endif\n\t"

#define __MARK_SITE_CALL(_tramp)					\
	.call = { .func = __marker_stub, .type = 1 },			\
	.tramp = (unsigned long)(_tramp) + 1,

#define __MARK_DO_CALL(site, tramp, m, data, args...)			\
	tramp(data, m, ##args)

#else /* !CONFIG_MARKERS_DIRECT_CALL */

#define __MARK_TRAMP_ASM(tramp)	""
#define __MARK_SITE_CALL(_tramp)	.func = __marker_stub,
#define __MARK_DO_CALL(site, tramp, m, data, args...)			\
	READ_ONCE((site).func)(data, m, ##args)

#endif /* CONFIG_MARKERS_DIRECT_CALL */

/*
 * The out-of-line part of a site, entered with its static branch taken:
 * like a tracepoint, read the probe array in a marker_srcu read-side
 * section and call the trampoline with the first probe's data.
 */
#define __MARK_HIT(site, tramp, args...)				\
do {									\
	const struct marker *__m;					\
	void *__data;							\
									\
	__marker_read_guard();						\
	if (__marker_get(site, &__m, &__data))				\
		__MARK_DO_CALL(*(site), tramp, __m, __data, ##args);	\
} while (0)

#define __MARK(_name, _tramp, _fmt, args...)				\
do {									\
	enum { __PASTE(__mark_name_is_an_identifier_, _name) };		\
	extern void _tramp(void *data, const struct marker *m, ...);	\
	static struct marker_site __aligned(8) __section("__markers")	\
	__mark_site = {							\
		.name	= #_name,					\
		.format	= "" _fmt "",					\
		.key	= STATIC_KEY_FALSE_INIT,			\
		__MARK_SITE_CALL(_tramp)					\
		.mod	= THIS_MODULE,					\
	};								\
	asm volatile(__MARK_TRAMP_ASM(_tramp));				\
	if (0)								\
		__mark_check_format(_fmt, ##args);			\
	if (static_branch_unlikely(&__mark_site.key))			\
		__MARK_HIT(&__mark_site, _tramp, ##args);		\
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
#define MARK(name, fmt, args...)					\
	__MARK(name, __UNIQUE_ID(__mark_tramp_), fmt, ##args)

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
					const struct marker_probe *probe,
					void *data)
{
	return -EOPNOTSUPP;
}

static inline int marker_probe_unregister(const char *name,
					  const struct marker_probe *probe,
					  void *data)
{
	return -EOPNOTSUPP;
}

static inline void marker_synchronize_unregister(void)
{
}

static inline void marker_batch_begin(void)
{
}

static inline int marker_batch_commit(void)
{
	return 0;
}

#endif /* CONFIG_MARKERS */

#endif /* _LINUX_MARKER_H */
