/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MARKER_TP_H
#define _LINUX_MARKER_TP_H

/*
 * Tracepoints as marker names.  A probe registered with
 * marker_probe_register() for the name of a tracepoint (sched_switch,
 * the name of its struct tracepoint) is called on each hit of that
 * tracepoint, with the tracepoint's arguments as u64 slots packed as a
 * MARK() site packs its own.  The marker's format is the tracepoint's
 * prototype ("bool preempt, struct task_struct *prev, ..."), its types
 * are those of the prototype's parameters: MARKER_ARG_PTR for pointers,
 * MARKER_ARG_S32/U32 and MARKER_ARG_S64/U64 for integers by size and
 * signedness, MARKER_ARG_U64 for a small struct copied into its slot.
 */

#include <linux/compiler.h>
#include <linux/marker.h>
#include <linux/string.h>
#include <linux/types.h>

struct tracepoint;

/**
 * struct marker_tp - a tracepoint that probes connect to by name
 * @tp: the tracepoint
 * @probe: the tracepoint probe that passes a hit to the registry; its
 *	prototype is the tracepoint's, void (*)(void *data, proto)
 * @prototype: the tracepoint's prototype, as text
 * @types: enum marker_arg_type of each argument
 * @nr_args: number of arguments
 */
struct marker_tp {
	struct tracepoint *tp;
	void *probe;
	const char *prototype;
	const u8 *types;
	unsigned int nr_args;
} __aligned(8);

/* The tracepoints of vmlinux, between these linker script symbols. */
extern const struct marker_tp __start___marker_tp[];
extern const struct marker_tp __stop___marker_tp[];

/* What the probes of <trace/marker_tp.h> call (kernel/marker_tp.c). */
void marker_tp_hit1(void *data, u64 a0);
void marker_tp_hit2(void *data, u64 a0, u64 a1);
void marker_tp_hit3(void *data, u64 a0, u64 a1, u64 a2);
void marker_tp_hit4(void *data, u64 a0, u64 a1, u64 a2, u64 a3);
void marker_tp_hit5(void *data, u64 a0, u64 a1, u64 a2, u64 a3, u64 a4);
void marker_tp_hit6(void *data, u64 a0, u64 a1, u64 a2, u64 a3, u64 a4,
		    u64 a5);
void marker_tp_hit7(void *data, u64 a0, u64 a1, u64 a2, u64 a3, u64 a4,
		    u64 a5, u64 a6);
void marker_tp_hit8(void *data, u64 a0, u64 a1, u64 a2, u64 a3, u64 a4,
		    u64 a5, u64 a6, u64 a7);
void marker_tp_hit9(void *data, u64 a0, u64 a1, u64 a2, u64 a3, u64 a4,
		    u64 a5, u64 a6, u64 a7, u64 a8);
void marker_tp_hit10(void *data, u64 a0, u64 a1, u64 a2, u64 a3, u64 a4,
		     u64 a5, u64 a6, u64 a7, u64 a8, u64 a9);
void marker_tp_hit11(void *data, u64 a0, u64 a1, u64 a2, u64 a3, u64 a4,
		     u64 a5, u64 a6, u64 a7, u64 a8, u64 a9, u64 a10);
void marker_tp_hit12(void *data, u64 a0, u64 a1, u64 a2, u64 a3, u64 a4,
		     u64 a5, u64 a6, u64 a7, u64 a8, u64 a9, u64 a10,
		     u64 a11);

#ifdef __CHECKER__
/* sparse knows no __builtin_classify_type(); it only checks the copies. */
#define __marker_tp_type(x)	(0 * sizeof(x) + MARKER_ARG_U64)
#define __marker_tp_slot(x)	__marker_tp_raw(x)
#else
#define __marker_tp_is_int(x)						\
	(__builtin_classify_type(x) >= 1 && __builtin_classify_type(x) <= 4)
#define __marker_tp_is_scalar(x)	(__marker_is_ptr(x) || __marker_tp_is_int(x))

/* @x if it is a scalar, else 0: what the scalar branches may convert. */
#define __marker_tp_scalar(x)						\
	__builtin_choose_expr(__marker_tp_is_scalar(x), (x), 0)
#define __marker_tp_signed(x)						\
	is_signed_type(typeof(__builtin_choose_expr(__marker_tp_is_int(x), \
						    (x), 0U)))

#define __marker_tp_type(x)						\
	(__marker_is_ptr(x) ? MARKER_ARG_PTR :				\
	 !__marker_tp_is_int(x) ? MARKER_ARG_U64 :			\
	 sizeof(x) > 4 ?						\
		(__marker_tp_signed(x) ? MARKER_ARG_S64 : MARKER_ARG_U64) : \
		(__marker_tp_signed(x) ? MARKER_ARG_S32 : MARKER_ARG_U32))

/* A scalar as a MARK() site passes it; a small struct copied. */
#define __marker_tp_slot(x)						\
	__builtin_choose_expr(__marker_tp_is_scalar(x),			\
			      __marker_slot(__marker_tp_scalar(x)),	\
			      __marker_tp_raw(x))
#endif

#define __marker_tp_uint(size)						\
	__typeof__(__builtin_choose_expr(size == 1, (u8)1,		\
		   __builtin_choose_expr(size == 2, (u16)2,		\
		   __builtin_choose_expr(size == 4, (u32)3,		\
		   __builtin_choose_expr(size == 8, (u64)4,		\
					 (void)5)))))
#define __marker_tp_raw(x) ({						\
	typeof(x) __src = (x);						\
	__marker_tp_uint(sizeof(x)) __dst;				\
									\
	memcpy(&__dst, &__src, sizeof(__dst));				\
	(u64)__dst; })

#endif /* _LINUX_MARKER_TP_H */
