// SPDX-License-Identifier: GPL-2.0
/*
 * Tracepoint batches: registrations that leave the code patching to one
 * static key batch.
 *
 * It works on the probe arrays under tracepoints_mutex with the helpers
 * kernel/tracepoint.c shares in kernel/tracepoint_internal.h.
 *
 * Outside a batch, a tracepoint's key is on exactly while it has probes,
 * and its static call reaches the only probe, or the iterator otherwise.
 * Inside one, the probe array changes at once and the key and the static
 * call follow at tracepoint_batch_apply(), so these rules hold instead:
 *
 *  - A site calls the static call with the data of the first probe of
 *    the array it read; a tracepoint with no probes is skipped even with
 *    its key on.  The iterator reads the array again and calls each
 *    probe with its own data, so it is safe for any array.
 *  - Before a batch publishes an array with probes, the static call
 *    reaches the iterator, or the probe in the array's first slot with
 *    that slot's data: a tracepoint switched on by the batch still has
 *    the iterator from when it had none; one whose only probe keeps the
 *    first slot keeps its static call until the apply
 *    (tracepoint_batch_defer_iter()); any other is moved to the
 *    iterator at once (tracepoint_batch_defer()).
 *  - The static call reaches a probe again only in the apply, after the
 *    grace periods tracepoint_add_func() and tracepoint_remove_func()
 *    would have waited for, waited for once for the whole batch.
 *
 * Registrations made without a batch while a tracepoint waits in one
 * find one of these states and make the tracepoint's state theirs at
 * once, as they would from the state outside a batch: the key and the
 * static call there are a safe superset of what the array needs.  The
 * apply then brings each tracepoint to its state at that time.
 */

#include <linux/jump_label_batch.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/tracepoint_batch.h>

#include "tracepoint_internal.h"

/*
 * A tracepoint, or a static call a regfunc retargets, of a module in a
 * batch holds that module until the batch is applied or discarded, so
 * that the module cannot be unloaded, and the tracepoint or static call
 * freed, under the batch.  False if the module is going away.  A module
 * still loading is held too; see struct tracepoint_batch for what its
 * caller must do.
 */
static bool tracepoint_batch_hold(const void *addr)
{
	struct module *mod;

	guard(preempt)();
	mod = __module_address((unsigned long)addr);
	return !mod || try_module_get(mod);
}

static void tracepoint_batch_release(const void *addr)
{
	struct module *mod;

	scoped_guard(preempt)
		mod = __module_address((unsigned long)addr);
	module_put(mod);
}

/**
 * struct tracepoint_batch_call - a static call retarget left to the apply
 * @key: the static call
 * @tramp: its trampoline
 * @func: the last target a regfunc or unregfunc gave it
 * @tp: the tracepoint whose regfunc or unregfunc that was
 * @probes: whether that was its regfunc (@tp to have probes) or not
 * @fresh: set by the regfunc or unregfunc running now, until it returns
 *
 * The apply, or the discard, retargets only if @tp's probes are still
 * as @probes says: if a registration made without the batch, or with
 * another one, has since run @tp's other function, that one's retarget
 * is the newer and stands.
 */
struct tracepoint_batch_call {
	struct static_call_key *key;
	void *tramp;
	void *func;
	struct tracepoint *tp;
	bool probes;
	bool fresh;
};

/*
 * The registration whose regfunc or unregfunc is running, for
 * __tracepoint_regfunc_static_call_update(): its batch, its tracepoint,
 * which function, and the task running it.  Set only around that call,
 * under tracepoints_mutex; a registration without a batch leaves the
 * task NULL, and its function retargets at once.
 */
static struct {
	struct tracepoint_batch *batch;
	struct tracepoint *tp;
	bool probes;
	struct task_struct *task;
} tracepoint_regfunc_caller;

static void tracepoint_regfunc_enter(struct tracepoint_batch *batch,
				     struct tracepoint *tp, bool probes)
{
	lockdep_assert_held(&tracepoints_mutex);
	tracepoint_regfunc_caller.batch = batch;
	tracepoint_regfunc_caller.tp = tp;
	tracepoint_regfunc_caller.probes = probes;
	WRITE_ONCE(tracepoint_regfunc_caller.task, batch ? current : NULL);
}

static void tracepoint_regfunc_exit(void)
{
	WRITE_ONCE(tracepoint_regfunc_caller.task, NULL);
	tracepoint_regfunc_caller.batch = NULL;
	tracepoint_regfunc_caller.tp = NULL;
}

/* After a regfunc (@ret its result) or an unregfunc returned. */
static void tracepoint_batch_calls_done(struct tracepoint_batch *batch,
					int ret)
{
	unsigned int i;

	for (i = 0; batch && i < batch->nr_calls; i++) {
		/*
		 * A regfunc that fails undoes what it did, and the
		 * registration fails: the retargets it left in the batch are
		 * for its tracepoint without probes.  The batch's earlier
		 * ones stay as they were: one a registration without the
		 * batch has since undone must still be skipped by the apply.
		 */
		if (ret < 0 && batch->calls[i].fresh)
			batch->calls[i].probes = false;
		batch->calls[i].fresh = false;
	}
}

/*
 * Called under tracepoints_mutex by a registration made with @batch (or
 * without one, NULL) instead of calling @tp's regfunc or unregfunc
 * itself, so that a static call the function retargets through
 * tracepoint_regfunc_static_call_update() joins @batch.
 */
int tracepoint_batch_regfunc(struct tracepoint_batch *batch,
			     struct tracepoint *tp, int (*regfunc)(void))
{
	int ret;

	tracepoint_regfunc_enter(batch, tp, true);
	ret = regfunc();
	tracepoint_regfunc_exit();
	tracepoint_batch_calls_done(batch, ret);
	return ret;
}

void tracepoint_batch_unregfunc(struct tracepoint_batch *batch,
				struct tracepoint *tp, void (*unregfunc)(void))
{
	tracepoint_regfunc_enter(batch, tp, false);
	unregfunc();
	tracepoint_regfunc_exit();
	tracepoint_batch_calls_done(batch, 0);
}

/* Record @key's new target in @batch; false if @batch cannot take it. */
static bool tracepoint_batch_add_call(struct tracepoint_batch *batch,
				      struct static_call_key *key,
				      void *tramp, void *func)
{
	struct tracepoint *tp = tracepoint_regfunc_caller.tp;
	bool probes = tracepoint_regfunc_caller.probes;
	struct tracepoint_batch_call *calls;
	unsigned int i, size;

	for (i = 0; i < batch->nr_calls; i++) {
		if (batch->calls[i].key != key)
			continue;
		/* One tracepoint's functions only: see the macro's doc. */
		if (WARN_ON_ONCE(batch->calls[i].tp != tp))
			return false;
		batch->calls[i].func = func;
		batch->calls[i].probes = probes;
		batch->calls[i].fresh = true;
		return true;
	}
	if (batch->nr_calls == batch->size_calls) {
		size = max(2 * batch->size_calls, 4U);
		calls = krealloc_array(batch->calls, size, sizeof(*calls),
				       GFP_KERNEL);
		if (!calls)
			return false;
		batch->calls = calls;
		batch->size_calls = size;
	}
	/* The static call's module, and the tracepoint's, with its functions. */
	if (!tracepoint_batch_hold(key))
		return false;
	if (!tracepoint_batch_hold(tp)) {
		tracepoint_batch_release(key);
		return false;
	}
	batch->calls[batch->nr_calls++] = (struct tracepoint_batch_call){
		.key	= key,
		.tramp	= tramp,
		.func	= func,
		.tp	= tp,
		.probes	= probes,
		.fresh	= true,
	};
	return true;
}

/* Under tracepoints_mutex: whether @call is still the newest retarget. */
static bool tracepoint_batch_call_current(struct tracepoint_batch_call *call)
{
	return tracepoint_has_probes(call->tp) == call->probes;
}

/**
 * __tracepoint_regfunc_static_call_update - retarget a static call from a regfunc
 * @key: the static call
 * @tramp: its trampoline
 * @func: the new target
 *
 * Use tracepoint_regfunc_static_call_update(), which checks the type of
 * @func.  Built-in code only.  Called from any other context than a
 * regfunc or unregfunc run for a registration with a batch, or if the
 * batch cannot take the retarget, it is made at once, as
 * __static_call_update() does.
 *
 * Context: Process context, may sleep; in a regfunc or unregfunc,
 * tracepoints_mutex is held by its caller.
 */
void __tracepoint_regfunc_static_call_update(struct static_call_key *key,
					     void *tramp, void *func)
{
	/* Only the task that set them reads the others: no race. */
	if (READ_ONCE(tracepoint_regfunc_caller.task) == current &&
	    tracepoint_batch_add_call(tracepoint_regfunc_caller.batch, key,
				      tramp, func))
		return;
	__static_call_update(key, tramp, func);
}

/*
 * Called under tracepoints_mutex by a registration that moves @tp to a
 * state the apply of @batch is to complete.  @adds: the registration is
 * about to publish an array with probes.  Returns false, and the caller
 * completes the change at once, without a batch, if @batch cannot grow
 * or if @tp's module is going away.
 */
bool tracepoint_batch_defer(struct tracepoint_batch *batch,
			    struct tracepoint *tp, bool adds)
{
	struct tracepoint **tps;
	unsigned int size;

	if (!batch)
		return false;
	if (batch->nr == batch->size) {
		size = max(2 * batch->size, 64U);
		tps = kvrealloc(batch->tps, array_size(size, sizeof(*tps)),
				GFP_KERNEL);
		if (!tps)
			return false;
		batch->tps = tps;
		batch->size = size;
	}
	if (!tracepoint_batch_hold(tp))
		return false;
	if (adds && tp->static_call_key && tracepoint_live_call(tp) != tp->iterator)
		tracepoint_update_call(tp, NULL);
	batch->tps[batch->nr++] = tp;
	return true;
}

/*
 * Called under tracepoints_mutex before @funcs replaces @old as the probe
 * array of @tp.  A batch may leave the static call reaching the probe in
 * the first slot while the array grows from one probe to two
 * (tracepoint_batch_defer_iter()): if the first slot of @funcs holds
 * another probe or other data, or @funcs has more than two probes (the
 * new one is to be called at once), the static call moves to the
 * iterator before the array is published.
 */
void tracepoint_batch_fix_call(struct tracepoint *tp,
			       struct tracepoint_func *funcs,
			       struct tracepoint_func *old)
{
	if (!tp->static_call_key || !funcs || !old ||
	    tracepoint_live_call(tp) == tp->iterator)
		return;
	if ((funcs[1].func && funcs[2].func) ||
	    funcs[0].func != old[0].func || funcs[0].data != old[0].data)
		tracepoint_update_call(tp, NULL);
}

/*
 * Called under tracepoints_mutex when a removal could not allocate the
 * smaller array and put tp_stub_func in the removed probe's slots of the
 * live one.  With two probes or more the static call must reach the
 * iterator, which calls the stub: a batch may have left it on the first
 * probe (tracepoint_batch_defer_iter()), which sites would otherwise go
 * on calling, with its data, after the removal returned.
 */
void tracepoint_batch_stub_call(struct tracepoint *tp)
{
	if (tp->static_call_key && tracepoint_live_call(tp) != tp->iterator)
		tracepoint_update_call(tp, NULL);
}

/*
 * Called under tracepoints_mutex by a registration that takes @tp from
 * one probe (@old) to two (@funcs).  The static call may keep reaching
 * the first probe until the apply of @batch as long as that probe keeps
 * the first slot, since a site passes the data of the first slot: the
 * new probe is then called from the apply on.  Returns false, and the
 * caller moves the static call to the iterator at once, without a batch
 * or if @batch cannot grow.
 */
bool tracepoint_batch_defer_iter(struct tracepoint_batch *batch,
				 struct tracepoint *tp,
				 struct tracepoint_func *funcs,
				 struct tracepoint_func *old)
{
	if (!batch)
		return false;
	tracepoint_batch_fix_call(tp, funcs, old);
	return tracepoint_batch_defer(batch, tp, false);
}

/**
 * tracepoint_probe_register_batch - connect a probe, patching with others
 * @batch: the batch that is to switch the tracepoint, or NULL for at once
 * @tp: tracepoint
 * @probe: probe handler, of the tracepoint's prototype
 * @data: tracepoint data
 *
 * As tracepoint_probe_register(), except that a tracepoint that gets its
 * first probe is switched on by tracepoint_batch_apply(@batch): until
 * then the probe is not called.  On a tracepoint that had one probe,
 * the new one is called from the apply on too, unless it goes before
 * that one (registered with a lower priority): then the static call
 * moves to the iterator at once.  On a tracepoint with more probes, it
 * is called at once.
 *
 * Context: Process context; takes tracepoints_mutex, may sleep.
 * Return: as tracepoint_probe_register().
 */
int tracepoint_probe_register_batch(struct tracepoint_batch *batch,
				    struct tracepoint *tp, void *probe,
				    void *data)
{
	struct tracepoint_func tp_func = {
		.func = probe,
		.data = data,
		.prio = TRACEPOINT_DEFAULT_PRIO,
	};

	guard(mutex)(&tracepoints_mutex);
	return tracepoint_add_func(tp, &tp_func, TRACEPOINT_DEFAULT_PRIO, true,
				   batch);
}

/**
 * tracepoint_probe_unregister_batch - disconnect a probe, patching with others
 * @batch: the batch that is to switch the tracepoint, or NULL for at once
 * @tp: tracepoint
 * @probe: the probe given at registration
 * @data: the data given at registration
 *
 * As tracepoint_probe_unregister(): the probe is not called for new hits
 * on return, and calls in flight may run until
 * tracepoint_synchronize_unregister() returns.  A tracepoint that lost
 * its last probe is switched off by tracepoint_batch_apply(@batch); until
 * then its sites call nothing.
 *
 * Context: Process context; takes tracepoints_mutex, may sleep.
 * Return: as tracepoint_probe_unregister().
 */
int tracepoint_probe_unregister_batch(struct tracepoint_batch *batch,
				      struct tracepoint *tp, void *probe,
				      void *data)
{
	struct tracepoint_func tp_func = {
		.func = probe,
		.data = data,
	};

	guard(mutex)(&tracepoints_mutex);
	return tracepoint_remove_func(tp, &tp_func, batch);
}

static int tracepoint_ptr_cmp(const void *a, const void *b)
{
	const struct tracepoint *x = *(struct tracepoint * const *)a;
	const struct tracepoint *y = *(struct tracepoint * const *)b;

	return x < y ? -1 : x > y;
}

/* What the static call of @tp should reach for its probes now. */
static void *tracepoint_batch_target(struct tracepoint *tp)
{
	struct tracepoint_func *funcs;

	funcs = rcu_dereference_protected(tp->funcs,
					  lockdep_is_held(&tracepoints_mutex));
	return funcs && !funcs[1].func ? funcs[0].func : tp->iterator;
}

/*
 * Queue in @keys what brings @tp to the state of its probes.  If @keys
 * cannot take it, apply what it holds and switch @tp at once: nothing is
 * lost.  Returns what such an early apply of @keys returned, or 0.
 */
static int tracepoint_batch_queue(struct static_key_batch *keys,
				  struct tracepoint *tp)
{
	bool on = tracepoint_has_probes(tp);
	void *target = tracepoint_batch_target(tp);
	int err = 0;

	if (on != static_key_enabled(TRACEPOINT_KEY(tp)) &&
	    (on ? static_key_batch_enable(keys, TRACEPOINT_KEY(tp)) :
		  static_key_batch_disable(keys, TRACEPOINT_KEY(tp)))) {
		err = static_key_batch_apply(keys);
		if (on)
			static_key_enable(TRACEPOINT_KEY(tp));
		else
			static_key_disable(TRACEPOINT_KEY(tp));
	}
	if (!tp->static_call_key || tracepoint_live_call(tp) == target)
		return err;
	if (__static_call_batch_update(keys, tp->static_call_key,
				       tp->static_call_tramp, target)) {
		err = err ?: static_key_batch_apply(keys);
		__static_call_update(tp->static_call_key, tp->static_call_tramp,
				     target);
	}
	return err;
}

/* As tracepoint_batch_queue(), for a regfunc's static call retarget. */
static int tracepoint_batch_queue_call(struct static_key_batch *keys,
				       struct tracepoint_batch_call *call)
{
	int err;

	if (!__static_call_batch_update(keys, call->key, call->tramp,
					call->func))
		return 0;
	err = static_key_batch_apply(keys);
	__static_call_update(call->key, call->tramp, call->func);
	return err;
}

/*
 * Under tracepoints_mutex: sort the tracepoints of @batch, so that a
 * tracepoint queued twice is switched once, and wait once, if needed,
 * for the sites still running with an older probe array before a
 * static call reaches a probe again.
 */
static void tracepoint_batch_prepare(struct tracepoint_batch *batch)
{
	struct tracepoint *tp;
	unsigned int i;

	sort(batch->tps, batch->nr, sizeof(*batch->tps), tracepoint_ptr_cmp,
	     NULL);
	for (i = 0; i < batch->nr; i++) {
		tp = batch->tps[i];
		if (tp->static_call_key &&
		    tracepoint_batch_target(tp) != tp->iterator &&
		    tracepoint_batch_target(tp) != tracepoint_live_call(tp)) {
			tracepoint_sync_transitions();
			return;
		}
	}
}

/* Release what @batch held and leave it empty. */
static void tracepoint_batch_release_all(struct tracepoint_batch *batch)
{
	unsigned int i;

	for (i = 0; i < batch->nr; i++)
		tracepoint_batch_release(batch->tps[i]);
	for (i = 0; i < batch->nr_calls; i++) {
		tracepoint_batch_release(batch->calls[i].key);
		tracepoint_batch_release(batch->calls[i].tp);
	}
	kvfree(batch->tps);
	kfree(batch->calls);
	*batch = (struct tracepoint_batch){ };
}

/**
 * tracepoint_batch_apply - switch the tracepoints of a batch
 * @batch: a batch given to registrations, left empty and reusable
 * @keys: a static key batch to add the changes to and apply, or NULL
 *
 * Brings every tracepoint registrations made with @batch changed to the
 * state of its probes now: its key on while it has probes, its static
 * call to its only probe or to the iterator; and retargets each static
 * call their regfuncs and unregfuncs gave a new target
 * (tracepoint_regfunc_static_call_update()).  All of it is patched in
 * one static key batch, @keys with what the caller queued there (the
 * caller holds what keeps its own changes valid), or a batch of its own.
 * Before a static call reaches a probe again, it waits once, if needed,
 * for the sites still running with an older probe array.  Applying an
 * empty batch patches only @keys.  The batch held the modules of its
 * tracepoints and static calls until now.
 *
 * Context: Process context; takes tracepoints_mutex, cpus_read_lock() and
 * jump_label_mutex, may sleep.
 * Return: what static_key_batch_apply() returns for @keys, or the first
 * error of an apply of @keys made early because it could not grow.
 */
int tracepoint_batch_apply(struct tracepoint_batch *batch,
			   struct static_key_batch *keys)
{
	DEFINE_STATIC_KEY_BATCH(own);
	struct tracepoint *tp, *prev = NULL;
	unsigned int i;
	int err = 0, ret;

	if (!keys)
		keys = &own;
	guard(mutex)(&tracepoints_mutex);
	tracepoint_batch_prepare(batch);
	for (i = 0; i < batch->nr; prev = tp, i++) {
		tp = batch->tps[i];
		if (tp == prev)
			continue;
		ret = tracepoint_batch_queue(keys, tp);
		err = err ?: ret;
	}
	for (i = 0; i < batch->nr_calls; i++) {
		if (!tracepoint_batch_call_current(&batch->calls[i]))
			continue;
		ret = tracepoint_batch_queue_call(keys, &batch->calls[i]);
		err = err ?: ret;
	}
	ret = static_key_batch_apply(keys);
	tracepoint_batch_release_all(batch);
	return err ?: ret;
}

/**
 * tracepoint_batch_discard - give up the shared patching of a batch
 * @batch: a batch given to registrations, left empty and reusable
 *
 * For an error path that drops a batch without applying it, e.g. with
 * the static key batch it was to be applied with.  Unlike
 * static_key_batch_discard(), which drops changes not made yet, this
 * cannot drop the registrations made with @batch: their probe arrays
 * are published and they stand (unregistering the probes undoes them).
 * What they left to the apply is done now, for each tracepoint on its
 * own, as if they had been made without a batch: its key on while it
 * has probes, its static call to its only probe or to the iterator; and
 * each static call their regfuncs retargeted gets its last target.  It
 * cannot fail.  The modules the batch held are released.
 *
 * Context: Process context; takes tracepoints_mutex, cpus_read_lock(),
 * jump_label_mutex and static_call_mutex; may wait for the grace periods
 * a static call retarget waits for.
 */
void tracepoint_batch_discard(struct tracepoint_batch *batch)
{
	struct tracepoint *tp;
	void *target;
	unsigned int i;
	bool on;

	guard(mutex)(&tracepoints_mutex);
	tracepoint_batch_prepare(batch);
	for (i = 0; i < batch->nr; i++) {
		tp = batch->tps[i];
		on = tracepoint_has_probes(tp);
		target = tracepoint_batch_target(tp);
		if (on && !static_key_enabled(TRACEPOINT_KEY(tp)))
			static_key_enable(TRACEPOINT_KEY(tp));
		if (tp->static_call_key && tracepoint_live_call(tp) != target)
			__static_call_update(tp->static_call_key,
					     tp->static_call_tramp, target);
		if (!on && static_key_enabled(TRACEPOINT_KEY(tp)))
			static_key_disable(TRACEPOINT_KEY(tp));
	}
	for (i = 0; i < batch->nr_calls; i++) {
		if (tracepoint_batch_call_current(&batch->calls[i]))
			__static_call_update(batch->calls[i].key,
					     batch->calls[i].tramp,
					     batch->calls[i].func);
	}
	tracepoint_batch_release_all(batch);
}
