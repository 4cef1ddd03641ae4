/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints as marker names (see <linux/marker_tp.h>): read from
 * <trace/define_trace.h> for every header of trace points it creates, as
 * <trace/bpf_probe.h> is.  Each event class gets a tracepoint probe that
 * packs its arguments into u64 slots and hands them to the marker
 * registry; each tracepoint gets a struct marker_tp in section __marker_tp
 * naming the tracepoint, that probe, its prototype and the slot types.
 */

#undef TRACE_SYSTEM_VAR

#ifdef CONFIG_MARKERS_TRACEPOINTS

#include "stages/stage6_event_callback.h"

#undef __perf_count
#define __perf_count(c)	c

#undef __perf_task
#define __perf_task(t)	t

#include <linux/args.h>
#include <linux/marker.h>
#include <linux/marker_tp.h>

/*
 * A struct with one member per parameter of the prototype, each in an
 * anonymous struct, so that the slot types can be computed at file scope
 * from the parameters' types.  It is never instantiated.
 */
#define __MTP_M1(a)		struct { a; }
#define __MTP_M2(a, ...)	struct { a; }; __MTP_M1(__VA_ARGS__)
#define __MTP_M3(a, ...)	struct { a; }; __MTP_M2(__VA_ARGS__)
#define __MTP_M4(a, ...)	struct { a; }; __MTP_M3(__VA_ARGS__)
#define __MTP_M5(a, ...)	struct { a; }; __MTP_M4(__VA_ARGS__)
#define __MTP_M6(a, ...)	struct { a; }; __MTP_M5(__VA_ARGS__)
#define __MTP_M7(a, ...)	struct { a; }; __MTP_M6(__VA_ARGS__)
#define __MTP_M8(a, ...)	struct { a; }; __MTP_M7(__VA_ARGS__)
#define __MTP_M9(a, ...)	struct { a; }; __MTP_M8(__VA_ARGS__)
#define __MTP_M10(a, ...)	struct { a; }; __MTP_M9(__VA_ARGS__)
#define __MTP_M11(a, ...)	struct { a; }; __MTP_M10(__VA_ARGS__)
#define __MTP_M12(a, ...)	struct { a; }; __MTP_M11(__VA_ARGS__)
#define __MTP_MEMBERS(...)						\
	CONCATENATE(__MTP_M, COUNT_ARGS(__VA_ARGS__))(__VA_ARGS__)

/* Initializer of the slot types of the parameters the arguments name. */
#define __MTP_T(s, a)		__marker_tp_type(*(typeof_member(s, a) *)NULL)
#define __MTP_TYPES_1(s, a)						\
	{								\
		__MTP_T(s, a)						\
	}
#define __MTP_TYPES_2(s, a, b)						\
	{								\
		__MTP_T(s, a), __MTP_T(s, b)				\
	}
#define __MTP_TYPES_3(s, a, b, c)					\
	{								\
		__MTP_T(s, a), __MTP_T(s, b), __MTP_T(s, c)		\
	}
#define __MTP_TYPES_4(s, a, b, c, d)					\
	{								\
		__MTP_T(s, a), __MTP_T(s, b), __MTP_T(s, c),		\
		__MTP_T(s, d)						\
	}
#define __MTP_TYPES_5(s, a, b, c, d, e)					\
	{								\
		__MTP_T(s, a), __MTP_T(s, b), __MTP_T(s, c),		\
		__MTP_T(s, d), __MTP_T(s, e)				\
	}
#define __MTP_TYPES_6(s, a, b, c, d, e, f)				\
	{								\
		__MTP_T(s, a), __MTP_T(s, b), __MTP_T(s, c),		\
		__MTP_T(s, d), __MTP_T(s, e), __MTP_T(s, f)		\
	}
#define __MTP_TYPES_7(s, a, b, c, d, e, f, g)				\
	{								\
		__MTP_T(s, a), __MTP_T(s, b), __MTP_T(s, c),		\
		__MTP_T(s, d), __MTP_T(s, e), __MTP_T(s, f),		\
		__MTP_T(s, g)						\
	}
#define __MTP_TYPES_8(s, a, b, c, d, e, f, g, h)			\
	{								\
		__MTP_T(s, a), __MTP_T(s, b), __MTP_T(s, c),		\
		__MTP_T(s, d), __MTP_T(s, e), __MTP_T(s, f),		\
		__MTP_T(s, g), __MTP_T(s, h)				\
	}
#define __MTP_TYPES_9(s, a, b, c, d, e, f, g, h, i)			\
	{								\
		__MTP_T(s, a), __MTP_T(s, b), __MTP_T(s, c),		\
		__MTP_T(s, d), __MTP_T(s, e), __MTP_T(s, f),		\
		__MTP_T(s, g), __MTP_T(s, h), __MTP_T(s, i)		\
	}
#define __MTP_TYPES_10(s, a, b, c, d, e, f, g, h, i, j)			\
	{								\
		__MTP_T(s, a), __MTP_T(s, b), __MTP_T(s, c),		\
		__MTP_T(s, d), __MTP_T(s, e), __MTP_T(s, f),		\
		__MTP_T(s, g), __MTP_T(s, h), __MTP_T(s, i),		\
		__MTP_T(s, j)						\
	}
#define __MTP_TYPES_11(s, a, b, c, d, e, f, g, h, i, j, k)		\
	{								\
		__MTP_T(s, a), __MTP_T(s, b), __MTP_T(s, c),		\
		__MTP_T(s, d), __MTP_T(s, e), __MTP_T(s, f),		\
		__MTP_T(s, g), __MTP_T(s, h), __MTP_T(s, i),		\
		__MTP_T(s, j), __MTP_T(s, k)				\
	}
#define __MTP_TYPES_12(s, a, b, c, d, e, f, g, h, i, j, k, l)		\
	{								\
		__MTP_T(s, a), __MTP_T(s, b), __MTP_T(s, c),		\
		__MTP_T(s, d), __MTP_T(s, e), __MTP_T(s, f),		\
		__MTP_T(s, g), __MTP_T(s, h), __MTP_T(s, i),		\
		__MTP_T(s, j), __MTP_T(s, k), __MTP_T(s, l)		\
	}
#define __MTP_TYPES(s, ...)						\
	CONCATENATE(__MTP_TYPES_, COUNT_ARGS(__VA_ARGS__))(s, __VA_ARGS__)

/*
 * marker_tp_hit<N>() with the slots of the arguments, as a MARK() site
 * packs its own.
 */
#define __MTP_S(x)	__marker_tp_slot(x)
#define __MTP_HIT1(__d, a)						\
	marker_tp_hit1(__d, __MTP_S(a))
#define __MTP_HIT2(__d, a, b)						\
	marker_tp_hit2(__d, __MTP_S(a), __MTP_S(b))
#define __MTP_HIT3(__d, a, b, c)					\
	marker_tp_hit3(__d, __MTP_S(a), __MTP_S(b), __MTP_S(c))
#define __MTP_HIT4(__d, a, b, c, d)					\
	marker_tp_hit4(__d, __MTP_S(a), __MTP_S(b), __MTP_S(c),		\
		__MTP_S(d))
#define __MTP_HIT5(__d, a, b, c, d, e)					\
	marker_tp_hit5(__d, __MTP_S(a), __MTP_S(b), __MTP_S(c),		\
		__MTP_S(d), __MTP_S(e))
#define __MTP_HIT6(__d, a, b, c, d, e, f)				\
	marker_tp_hit6(__d, __MTP_S(a), __MTP_S(b), __MTP_S(c),		\
		__MTP_S(d), __MTP_S(e), __MTP_S(f))
#define __MTP_HIT7(__d, a, b, c, d, e, f, g)				\
	marker_tp_hit7(__d, __MTP_S(a), __MTP_S(b), __MTP_S(c),		\
		__MTP_S(d), __MTP_S(e), __MTP_S(f), __MTP_S(g))
#define __MTP_HIT8(__d, a, b, c, d, e, f, g, h)				\
	marker_tp_hit8(__d, __MTP_S(a), __MTP_S(b), __MTP_S(c),		\
		__MTP_S(d), __MTP_S(e), __MTP_S(f), __MTP_S(g),		\
		__MTP_S(h))
#define __MTP_HIT9(__d, a, b, c, d, e, f, g, h, i)			\
	marker_tp_hit9(__d, __MTP_S(a), __MTP_S(b), __MTP_S(c),		\
		__MTP_S(d), __MTP_S(e), __MTP_S(f), __MTP_S(g),		\
		__MTP_S(h), __MTP_S(i))
#define __MTP_HIT10(__d, a, b, c, d, e, f, g, h, i, j)			\
	marker_tp_hit10(__d, __MTP_S(a), __MTP_S(b), __MTP_S(c),	\
		__MTP_S(d), __MTP_S(e), __MTP_S(f), __MTP_S(g),		\
		__MTP_S(h), __MTP_S(i), __MTP_S(j))
#define __MTP_HIT11(__d, a, b, c, d, e, f, g, h, i, j, k)		\
	marker_tp_hit11(__d, __MTP_S(a), __MTP_S(b), __MTP_S(c),	\
		__MTP_S(d), __MTP_S(e), __MTP_S(f), __MTP_S(g),		\
		__MTP_S(h), __MTP_S(i), __MTP_S(j), __MTP_S(k))
#define __MTP_HIT12(__d, a, b, c, d, e, f, g, h, i, j, k, l)		\
	marker_tp_hit12(__d, __MTP_S(a), __MTP_S(b), __MTP_S(c),	\
		__MTP_S(d), __MTP_S(e), __MTP_S(f), __MTP_S(g),		\
		__MTP_S(h), __MTP_S(i), __MTP_S(j), __MTP_S(k),		\
		__MTP_S(l))
#define __MTP_HIT(__d, ...)						\
	CONCATENATE(__MTP_HIT, COUNT_ARGS(__VA_ARGS__))(__d, __VA_ARGS__)

/*
 * Only the prototype and the arguments of a trace header's macros matter
 * here; the rest (fields, assignment, print, writable size) is "...".
 *
 * Per class, the slot types (an event of the class may name its
 * parameters otherwise) and the probe, which the tracepoint calls
 * through the prototype it declares (checked below), with a struct
 * marker as data.  The probe passes the slots in registers to
 * marker_tp_hit<N>() and ends in a tail call, as the probes of
 * <trace/bpf_probe.h> do with bpf_trace_run<N>(); a syscall class's may
 * fault, as there.  A tracepoint with more than MARKER_MAX_ARGS
 * arguments does not build, as for BPF raw tracepoints.
 */
#define __MARKER_TP_CLASS(call, proto, args, ...)			\
static_assert(COUNT_ARGS(args) <= MARKER_MAX_ARGS);			\
struct __mtp_args_##call { __MTP_MEMBERS(proto); };			\
static const u8 __mtp_types_##call[] =					\
	__MTP_TYPES(struct __mtp_args_##call, args);			\
static notrace void __mtp_probe_##call(void *__data, proto)		\
{									\
	__VA_ARGS__;							\
	__MTP_HIT(__data, args);					\
}

#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(call, proto, args, ...)			\
	__MARKER_TP_CLASS(call, PARAMS(proto), PARAMS(args))

#undef DECLARE_EVENT_SYSCALL_CLASS
#define DECLARE_EVENT_SYSCALL_CLASS(call, proto, args, ...)		\
	__MARKER_TP_CLASS(call, PARAMS(proto), PARAMS(args), might_fault())

#define __MARKER_TP_EVENT(template, call, proto, args)			\
static const struct marker_tp __mtp_entry_##call __used __aligned(8)	\
__section("__marker_tp") = {						\
	.tp		= &__tracepoint_##call,				\
	.probe		= (void *)__mtp_probe_##template,		\
	.prototype	= __stringify(proto),				\
	.types		= __mtp_types_##template,			\
	.nr_args	= COUNT_ARGS(args),				\
};									\
static inline void __mtp_check_##call(void)				\
{									\
	check_trace_callback_type_##call(__mtp_probe_##template);	\
}

#undef DEFINE_EVENT
#define DEFINE_EVENT(template, call, proto, args)			\
	__MARKER_TP_EVENT(template, call, PARAMS(proto), PARAMS(args))

#undef DEFINE_EVENT_PRINT
#define DEFINE_EVENT_PRINT(template, name, proto, args, ...)		\
	DEFINE_EVENT(template, name, PARAMS(proto), PARAMS(args))

#undef DEFINE_EVENT_WRITABLE
#define DEFINE_EVENT_WRITABLE(template, call, proto, args, ...)		\
	DEFINE_EVENT(template, call, PARAMS(proto), PARAMS(args))

#undef DECLARE_TRACE
#define DECLARE_TRACE(call, proto, args)				\
	static_assert(COUNT_ARGS(args) <= MARKER_MAX_ARGS);		\
	__MARKER_TP_CLASS(call##_tp, PARAMS(proto), PARAMS(args))	\
	__MARKER_TP_EVENT(call##_tp, call##_tp, PARAMS(proto), PARAMS(args))

#undef DECLARE_TRACE_WRITABLE
#define DECLARE_TRACE_WRITABLE(call, proto, args, ...)			\
	DECLARE_TRACE(call, PARAMS(proto), PARAMS(args))

#include TRACE_INCLUDE(TRACE_INCLUDE_FILE)

#undef DECLARE_TRACE_WRITABLE
#undef DEFINE_EVENT_WRITABLE
#undef __MARKER_TP_EVENT
#undef __MARKER_TP_CLASS

#endif /* CONFIG_MARKERS_TRACEPOINTS */
