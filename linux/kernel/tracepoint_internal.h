/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What kernel/tracepoint.c shares with kernel/tracepoint_batch.c: the
 * registration steps a tracepoint batch completes later, under
 * tracepoints_mutex.
 */
#ifndef _KERNEL_TRACEPOINT_INTERNAL_H
#define _KERNEL_TRACEPOINT_INTERNAL_H

#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/static_call.h>
#include <linux/tracepoint.h>

struct tracepoint_batch;

extern struct mutex tracepoints_mutex;

int tracepoint_add_func(struct tracepoint *tp, struct tracepoint_func *func,
			int prio, bool warn, struct tracepoint_batch *batch);
int tracepoint_remove_func(struct tracepoint *tp, struct tracepoint_func *func,
			   struct tracepoint_batch *batch);
void tracepoint_update_call(struct tracepoint *tp,
			    struct tracepoint_func *tp_funcs);
void tracepoint_sync_transitions(void);

bool tracepoint_batch_defer(struct tracepoint_batch *batch,
			    struct tracepoint *tp, bool adds);
bool tracepoint_batch_defer_iter(struct tracepoint_batch *batch,
				 struct tracepoint *tp,
				 struct tracepoint_func *funcs,
				 struct tracepoint_func *old);
void tracepoint_batch_stub_call(struct tracepoint *tp);
void tracepoint_batch_fix_call(struct tracepoint *tp,
			       struct tracepoint_func *funcs,
			       struct tracepoint_func *old);
int tracepoint_batch_regfunc(struct tracepoint_batch *batch,
			     struct tracepoint *tp, int (*regfunc)(void));
void tracepoint_batch_unregfunc(struct tracepoint_batch *batch,
				struct tracepoint *tp, void (*unregfunc)(void));

/* The static key of @tp, whatever its type. */
#define TRACEPOINT_KEY(tp)	(&(tp)->key.key)

/* Under tracepoints_mutex: whether @tp has probes, counting a batch's. */
static inline bool tracepoint_has_probes(struct tracepoint *tp)
{
	return rcu_access_pointer(tp->funcs);
}

/* What @tp's static call reaches now, or NULL if it has none. */
static inline void *tracepoint_live_call(struct tracepoint *tp)
{
	return tp->static_call_key ? READ_ONCE(tp->static_call_key->func) :
				     NULL;
}

#endif /* _KERNEL_TRACEPOINT_INTERNAL_H */
