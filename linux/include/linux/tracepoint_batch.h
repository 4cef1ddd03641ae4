/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoint probe registrations whose code patching is done together.
 *
 * Registering or unregistering a probe that changes whether a tracepoint
 * is on, or which function its static call reaches, patches code: three
 * IPI rounds for its static key and three more for each static call
 * trampoline and call site.  A tracer that switches many tracepoints at
 * once passes a struct tracepoint_batch to the registrations; the probe
 * arrays change at once, and tracepoint_batch_apply() then brings every
 * tracepoint of the batch to the state its probes ask for, in one static
 * key batch (see <linux/jump_label_batch.h>).
 */
#ifndef _LINUX_TRACEPOINT_BATCH_H
#define _LINUX_TRACEPOINT_BATCH_H

#include <linux/errno.h>
#include <linux/jump_label_batch.h>
#include <linux/static_call.h>

struct tracepoint;
struct tracepoint_batch_call;

/**
 * struct tracepoint_batch - tracepoints whose keys and static calls wait
 * @tps: the tracepoints registrations left to tracepoint_batch_apply()
 * @nr: number of entries in @tps (a tracepoint may be there twice)
 * @size: room in @tps
 * @calls: static call retargets the tracepoints' regfuncs and unregfuncs
 *	left to the apply (tracepoint_regfunc_static_call_update())
 * @nr_calls: number of entries in @calls, one per static call
 * @size_calls: room in @calls
 *
 * The caller owns the batch, on its stack or allocated, initialised with
 * DEFINE_TRACEPOINT_BATCH() or zeroed, and ends it with
 * tracepoint_batch_apply() or tracepoint_batch_discard() before the
 * probes' owners may go away.  Until then the batch holds the module of
 * each tracepoint it waits for, and of each static call a regfunc left
 * to it, so that the module cannot be unloaded under it; a module still
 * loading is held too, but a failed init frees it whatever its
 * references, so a batch with tracepoints of such a module ends before
 * its MODULE_STATE_GOING notifiers return.  No lock is
 * held between the registrations and the apply.  The apply switches the
 * tracepoints in one static key batch; the discard, one by one (the
 * registrations stand either way).
 */
struct tracepoint_batch {
	struct tracepoint **tps;
	unsigned int nr;
	unsigned int size;
	struct tracepoint_batch_call *calls;
	unsigned int nr_calls;
	unsigned int size_calls;
};

#define DEFINE_TRACEPOINT_BATCH(name)	struct tracepoint_batch name = { }

#ifdef CONFIG_TRACEPOINTS

int tracepoint_probe_register_batch(struct tracepoint_batch *batch,
				    struct tracepoint *tp, void *probe,
				    void *data);
int tracepoint_probe_unregister_batch(struct tracepoint_batch *batch,
				      struct tracepoint *tp, void *probe,
				      void *data);
int tracepoint_batch_apply(struct tracepoint_batch *batch,
			   struct static_key_batch *keys);
void tracepoint_batch_discard(struct tracepoint_batch *batch);
void __tracepoint_regfunc_static_call_update(struct static_call_key *key,
					     void *tramp, void *func);

#else

static inline void
__tracepoint_regfunc_static_call_update(struct static_call_key *key,
					void *tramp, void *func)
{
	__static_call_update(key, tramp, func);
}

static inline int tracepoint_batch_apply(struct tracepoint_batch *batch,
					 struct static_key_batch *keys)
{
	return keys ? static_key_batch_apply(keys) : 0;
}

static inline void tracepoint_batch_discard(struct tracepoint_batch *batch)
{
}

#endif /* CONFIG_TRACEPOINTS */

/**
 * tracepoint_regfunc_static_call_update - retarget a static call from a regfunc
 * @name: the static call
 * @func: its new target, of its type
 *
 * For a tracepoint's regfunc or unregfunc (DEFINE_TRACE_FN(),
 * TRACE_EVENT_FN()) that switches a static call along with the
 * tracepoint: as static_call_update(), except that when the regfunc runs
 * for a registration made with a tracepoint batch, the retarget is made
 * by that batch's tracepoint_batch_apply(), in the same text_poke
 * batches as the tracepoints, or at once by tracepoint_batch_discard().
 * Until then static_call_query() returns the old target, and the last
 * target a batch is given for a static call wins: a regfunc picks its
 * target from the current one in a way that gives the same result
 * whether or not an earlier retarget is still waiting.  The apply skips
 * a retarget if a registration without the batch, or with another one,
 * has since run the tracepoint's other function: that one's is newer.
 * So the static call must be this one tracepoint's to switch (its
 * regfunc and unregfunc the only ones to retarget it), and a regfunc
 * that fails must undo its retarget.  For built-in code; a module's
 * regfunc uses static_call_update().
 */
#define tracepoint_regfunc_static_call_update(name, func)		\
({									\
	typeof(STATIC_CALL_TRAMP(name)) *__F = (func);			\
	__tracepoint_regfunc_static_call_update(&STATIC_CALL_KEY(name),	\
						STATIC_CALL_TRAMP_ADDR(name), \
						__F);			\
})

#endif /* _LINUX_TRACEPOINT_BATCH_H */
