// SPDX-License-Identifier: GPL-2.0-only
/*
 * Static key batches.
 *
 * Queueing a change only records it in the caller's batch object: no
 * lock is taken and nothing global changes.  static_key_batch_apply()
 * takes cpus_read_lock() and then jump_label_mutex, in the order every
 * static key update takes them, applies the queued changes in order to
 * per-key records, patches what changed and drops both locks before it
 * returns; no caller code runs in between.  Everything below (the key
 * records, the site vector, the collect flags) is guarded by
 * jump_label_mutex, and only an apply uses it.
 *
 * Key states while a key has a record in the batch being applied:
 *
 *	enabled > 0	code jumps (or was never off); the count is live
 *	enabled == 0	code was on and is to be turned off, or stays off
 *	enabled == -1	code is off and is to be turned on; the count is
 *			kept in the record until the apply publishes it
 *
 * static_call retargets of the batch are recorded in batch_calls (latest
 * target per key) and applied under static_call_mutex, which the apply
 * holds from collecting their pokes until they are patched, so that no
 * other update of the same key can slip in between.
 *
 * These are the states mainline uses during a single key update.
 * static_key_fast_inc_not_disabled() and static_key_dec_not_one() never
 * succeed on 0 or -1, so no task can take a reference to a key whose
 * code is not yet patched: the apply patches every site first and
 * publishes the count with a release after.
 */
#include <linux/atomic.h>
#include <linux/cpu.h>
#include <linux/export.h>
#include <linux/hashtable.h>
#include <linux/jump_label_batch.h>
#include <linux/limits.h>
#include <linux/list.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/static_call.h>

#include "jump_label_batch.h"

/**
 * struct jump_label_batch_rec - a key changed by the batch being applied
 * @node: in batch_hash, by key
 * @list: in batch_recs, in order of first change
 * @key: the key
 * @pending: the key's count while key->enabled is -1
 * @code_on: the key's sites were in the enabled direction at first change
 */
struct jump_label_batch_rec {
	struct hlist_node node;
	struct list_head list;
	struct static_key *key;
	int pending;
	bool code_on;
};

/**
 * struct jump_label_batch_call - a static_call retarget of the batch applied
 * @node: in batch_call_hash, by key
 * @list: in batch_calls, in order of first update
 * @key: the static_call key
 * @tramp: its trampoline
 * @func: the latest target given
 */
struct jump_label_batch_call {
	struct hlist_node node;
	struct list_head list;
	struct static_call_key *key;
	void *tramp;
	void *func;
};

/*
 * Static key batches are for the kernel's own callers, such as the
 * tracing core.  Modules may not queue key changes; the only one that
 * may is this API's KUnit module.
 */
#define STATIC_KEY_BATCH_MODULES	"jump_label_batch_mod_kunit"

#define BATCH_HASH_BITS	10

static DEFINE_HASHTABLE(batch_hash, BATCH_HASH_BITS);
static LIST_HEAD(batch_recs);

/*
 * Site collection during an apply, one pass into a growing vector;
 * batch_collect_failed when it could not grow (the sites are then patched
 * key by key).
 */
static bool batch_collect;
static bool batch_collect_failed;
static struct jump_label_batch_site *batch_sites;
static unsigned int batch_nr_sites;
static unsigned int batch_max_sites;

/* static_call updates, and their pokes while an apply collects them */
#ifdef CONFIG_HAVE_STATIC_CALL_INLINE
static DEFINE_HASHTABLE(batch_call_hash, BATCH_HASH_BITS);
#endif
static LIST_HEAD(batch_calls);
static struct jump_label_batch_site *batch_call_sites;
static unsigned int batch_nr_calls;
static unsigned int batch_max_calls;

static atomic_long_t batch_stat_applied;
static atomic_long_t batch_stat_sites;
static atomic_long_t batch_stat_calls;
static atomic_long_t batch_stat_batches;
static atomic_long_t batch_stat_ipi_rounds;
static atomic_long_t batch_stat_refused;
static atomic_long_t batch_stat_queued;

/* Queued changes beyond the ones the batch object holds. */
struct jump_label_batch_chunk {
	struct list_head list;
	unsigned int nr;
	struct static_key_batch_op ops[];
};

#define BATCH_CHUNK_OPS							\
	((PAGE_SIZE - sizeof(struct jump_label_batch_chunk)) /		\
	 sizeof(struct static_key_batch_op))

static struct jump_label_batch_rec *batch_find(struct static_key *key)
{
	struct jump_label_batch_rec *rec;

	hash_for_each_possible(batch_hash, rec, node, (unsigned long)key) {
		if (rec->key == key)
			return rec;
	}
	return NULL;
}

/*
 * Find or make @key's record.  A new record takes the code direction from
 * key->enabled, which is settled for keys not yet in the batch.
 * NULL only when out of memory: the caller then updates the key at once.
 */
static struct jump_label_batch_rec *batch_get(struct static_key *key)
{
	struct jump_label_batch_rec *rec = batch_find(key);

	if (rec)
		return rec;

	rec = kmalloc_obj(*rec);
	if (!rec)
		return NULL;

	rec->key = key;
	rec->pending = 0;
	rec->code_on = atomic_read(&key->enabled) > 0;
	hash_add(batch_hash, &rec->node, (unsigned long)key);
	list_add_tail(&rec->list, &batch_recs);
	return rec;
}

/* 0 -> 1 in a batch apply, deferring the code change. */
static void batch_enable_from_zero(struct static_key *key)
{
	struct jump_label_batch_rec *rec = batch_get(key);

	if (!rec) {
		/* No memory: fall back to an immediate update. */
		atomic_set(&key->enabled, -1);
		jump_label_batch_update_key(key);
		/* Pairs with static_key_fast_inc_not_disabled(). */
		atomic_set_release(&key->enabled, 1);
		return;
	}

	if (rec->code_on) {
		/*
		 * The code was never turned off: cancel the pending disable.
		 * Pairs with static_key_fast_inc_not_disabled(); the text it
		 * must observe was patched before the batch.
		 */
		atomic_set_release(&key->enabled, 1);
		return;
	}

	rec->pending = 1;
	atomic_set(&key->enabled, -1);
}

/* 1 -> 0 in a batch apply, deferring the code change. */
static void batch_disable_from_one(struct static_key *key)
{
	struct jump_label_batch_rec *rec = batch_get(key);

	if (atomic_cmpxchg(&key->enabled, 1, 0) != 1)
		return;
	if (!rec)
		jump_label_batch_update_key(key);
}

/* Pending count -> 0: the code was off and stays off. */
static void batch_cancel_enable(struct jump_label_batch_rec *rec)
{
	rec->pending = 0;
	atomic_set(&rec->key->enabled, 0);
}

/*
 * The changes of a batch being applied, as static_key_slow_inc(),
 * static_key_slow_dec(), static_key_enable() and static_key_disable()
 * make them, except that the code change is left to the apply.  Each
 * returns false, changing nothing, for a change those functions would
 * refuse or WARN about.
 */
static bool batch_inc(struct static_key *key)
{
	struct jump_label_batch_rec *rec;
	int v;

	if (static_key_fast_inc_not_disabled(key))
		return true;

	v = atomic_read(&key->enabled);
	if (v == 0) {
		batch_enable_from_zero(key);
		return true;
	}
	if (v == -1) {
		rec = batch_find(key);
		if (WARN_ON_ONCE(!rec) || rec->pending == INT_MAX)
			return false;
		rec->pending++;
		return true;
	}
	/* INT_MAX: refuse, as static_key_slow_inc() does. */
	return false;
}

static bool batch_dec(struct static_key *key)
{
	struct jump_label_batch_rec *rec;
	int v;

	v = atomic_read(&key->enabled);
	for (;;) {
		if (v > 1) {
			/* Others may inc/dec a live count concurrently. */
			if (atomic_try_cmpxchg(&key->enabled, &v, v - 1))
				return true;
			continue;
		}
		if (v != 1)
			break;
		rec = batch_get(key);
		if (atomic_try_cmpxchg(&key->enabled, &v, 0)) {
			if (!rec)
				jump_label_batch_update_key(key);
			return true;
		}
	}

	if (v != -1)
		return false;	/* the count is 0: underflow */
	rec = batch_find(key);
	if (WARN_ON_ONCE(!rec))
		return false;
	if (--rec->pending == 0)
		batch_cancel_enable(rec);
	return true;
}

static bool batch_enable(struct static_key *key)
{
	struct jump_label_batch_rec *rec;
	int v;

	v = atomic_read(&key->enabled);
	if (v > 0)
		return v == 1;
	if (v == -1) {
		rec = batch_find(key);
		return rec && rec->pending == 1;
	}
	batch_enable_from_zero(key);
	return true;
}

static bool batch_disable(struct static_key *key)
{
	struct jump_label_batch_rec *rec;
	int v;

	v = atomic_read(&key->enabled);
	if (v == 1) {
		batch_disable_from_one(key);
		return true;
	}
	if (v == -1) {
		rec = batch_find(key);
		if (!rec || rec->pending != 1)
			return false;
		batch_cancel_enable(rec);
		return true;
	}
	return v == 0;
}

/**
 * jump_label_batch_collecting - is a batch apply collecting sites
 *
 * Context: jump_label_mutex held.
 * Return: true while jump_label_batch_collect() takes sites.
 */
bool jump_label_batch_collecting(void)
{
	return batch_collect;
}

/* Make room for one more site; false when out of memory. */
static bool batch_grow(struct jump_label_batch_site **vec, unsigned int nr,
		       unsigned int *max)
{
	struct jump_label_batch_site *sites;
	unsigned int n;

	if (nr < *max)
		return true;
	n = max(2 * *max, 64U);
	sites = kvmalloc_array(n, sizeof(*sites), GFP_KERNEL);
	if (!sites)
		return false;
	if (nr)
		memcpy(sites, *vec, nr * sizeof(*sites));
	kvfree(*vec);
	*vec = sites;
	*max = n;
	return true;
}

/**
 * jump_label_batch_collect - take a site to patch in the batch applied
 * @entry: the site
 * @type: the instruction it needs
 *
 * Sites are taken in one pass: a module going from COMING to LIVE (which
 * does not take jump_label_mutex) can change which init sites
 * jump_label_update() visits, so a count from an earlier pass would not
 * be reliable.  Without memory for the vector the site is dropped from
 * it and the apply patches every changed key on its own afterwards.
 *
 * Context: jump_label_mutex held.
 * Return: true if the site was taken, false if the caller must patch it
 * itself.
 */
bool jump_label_batch_collect(struct jump_entry *entry,
			      enum jump_label_type type)
{
	if (!batch_collect)
		return false;

	if (!batch_grow(&batch_sites, batch_nr_sites, &batch_max_sites)) {
		batch_collect_failed = true;
		return true;
	}
	batch_sites[batch_nr_sites++] = (struct jump_label_batch_site){
		.addr	= jump_entry_code(entry),
		.entry	= entry,
		.type	= type,
	};
	return true;
}

static bool batch_rec_changes(struct jump_label_batch_rec *rec)
{
	return (atomic_read(&rec->key->enabled) != 0) != rec->code_on;
}

static void batch_collect_sites(void)
{
	struct jump_label_batch_rec *rec;

	batch_collect = true;
	list_for_each_entry(rec, &batch_recs, list) {
		if (batch_rec_changes(rec))
			jump_label_batch_update_key(rec->key);
	}
	batch_collect = false;
}

#ifdef CONFIG_HAVE_STATIC_CALL_INLINE
/* Record a static_call retarget of the batch being applied. */
static void batch_call_defer(struct static_call_key *key, void *tramp,
			     void *func)
{
	struct jump_label_batch_call *call;

	hash_for_each_possible(batch_call_hash, call, node, (unsigned long)key) {
		if (call->key == key) {
			call->tramp = tramp;
			call->func = func;
			return;
		}
	}

	call = kmalloc_obj(*call);
	if (!call) {
		/* No memory: update at once, cpus_read_lock() is held. */
		static_call_batch_lock();
		static_call_update_locked(key, tramp, func, false);
		static_call_batch_unlock();
		return;
	}
	call->key = key;
	call->tramp = tramp;
	call->func = func;
	hash_add(batch_call_hash, &call->node, (unsigned long)key);
	list_add_tail(&call->list, &batch_calls);
}

static bool batch_add_call(void *insn, void *func, bool tramp, bool tail)
{
	if (!batch_grow(&batch_call_sites, batch_nr_calls, &batch_max_calls))
		return false;
	batch_call_sites[batch_nr_calls++] = (struct jump_label_batch_site){
		.addr	= (unsigned long)insn,
		.func	= func,
		.tramp	= tramp,
		.tail	= tail,
	};
	return true;
}

/**
 * static_call_batch_collect - take a static_call poke to patch in the batch
 * @site: call site to patch, or NULL
 * @tramp: trampoline to patch if @site is NULL, or NULL
 * @func: the new target
 * @tail: @site is a tail call
 *
 * Only static_call_update_locked() calls this, and only when the apply
 * below asks it to queue (batch_collect_static_calls()): every other
 * arch_static_call_transform() caller patches as it always did.
 *
 * Context: static_key_batch_apply(), static_call_mutex held.
 * Return: true if the pokes were taken or patched, false if the caller
 * must patch.
 */
bool static_call_batch_collect(void *site, void *tramp, void *func, bool tail)
{
	/* A call site names its trampoline too; that is patched on its own. */
	if (tramp && !site && !batch_add_call(tramp, func, true, false))
		goto now;
	if (site && !batch_add_call(site, func, false, tail)) {
		tramp = NULL;
		goto now;
	}
	return true;

now:
	/* No memory: patch what was not taken, at once. */
	arch_static_call_transform(site, tramp, func, tail);
	return true;
}

/* Apply the recorded updates, collecting their pokes in batch_call_sites. */
static void batch_collect_static_calls(void)
{
	struct jump_label_batch_call *call, *tmp;

	batch_nr_calls = 0;
	list_for_each_entry_safe(call, tmp, &batch_calls, list) {
		static_call_update_locked(call->key, call->tramp, call->func,
					  true);
		hash_del(&call->node);
		list_del(&call->list);
		kfree(call);
	}
}

static void batch_poke_call(const struct jump_label_batch_site *s)
{
	void *insn = (void *)s->addr;

	arch_static_call_transform(s->tramp ? NULL : insn,
				   s->tramp ? insn : NULL, s->func, s->tail);
}
#else
static void batch_collect_static_calls(void)
{
	batch_nr_calls = 0;
}

static void batch_poke_call(const struct jump_label_batch_site *s)
{
}
#endif /* CONFIG_HAVE_STATIC_CALL_INLINE */

static int batch_site_cmp(const void *a, const void *b)
{
	unsigned long ca = ((const struct jump_label_batch_site *)a)->addr;
	unsigned long cb = ((const struct jump_label_batch_site *)b)->addr;

	return ca < cb ? -1 : ca > cb;
}

/* No memory for the sorted vector: one key or poke at a time. */
static void batch_patch_slowly(void)
{
	struct jump_label_batch_rec *rec;
	unsigned int i;

	list_for_each_entry(rec, &batch_recs, list) {
		if (batch_rec_changes(rec))
			jump_label_batch_update_key(rec->key);
	}
	for (i = 0; i < batch_nr_calls; i++)
		batch_poke_call(&batch_call_sites[i]);
}

/*
 * Patch every site of every changed key and every static_call poke:
 * sorted by address, one batch per vector.
 */
static void batch_patch(void)
{
	bool calls = !list_empty(&batch_calls);
	unsigned int vec, nr, i;

	if (calls) {
		static_call_batch_lock();
		batch_collect_static_calls();
	}

	/* The static_call pokes first, then the jump sites, one vector. */
	batch_sites = batch_call_sites;
	batch_nr_sites = batch_nr_calls;
	batch_max_sites = batch_max_calls;
	batch_call_sites = NULL;
	batch_collect_failed = false;
	batch_collect_sites();
	nr = batch_nr_sites;
	if (batch_collect_failed) {
		batch_call_sites = batch_sites;
		batch_patch_slowly();
		nr = 0;
	} else {
		atomic_long_add(nr - batch_nr_calls, &batch_stat_sites);
		atomic_long_add(batch_nr_calls, &batch_stat_calls);
	}

	sort(batch_sites, nr, sizeof(*batch_sites), batch_site_cmp, NULL);
	vec = static_key_batch_max();
	for (i = 0; i < nr; i += vec)
		arch_jump_label_batch_apply(batch_sites + i, min(vec, nr - i));

	kvfree(batch_sites);
	batch_sites = NULL;
	batch_nr_sites = 0;
	batch_max_sites = 0;
	batch_call_sites = NULL;
	batch_nr_calls = 0;
	batch_max_calls = 0;
	if (calls)
		static_call_batch_unlock();
}

/* Publish the keys' counts and drop their records. */
static void batch_publish(void)
{
	struct jump_label_batch_rec *rec, *tmp;

	list_for_each_entry_safe(rec, tmp, &batch_recs, list) {
		if (atomic_read(&rec->key->enabled) == -1) {
			/*
			 * Pairs with static_key_fast_inc_not_disabled() and
			 * static_key_dec_not_one(): whoever observes the
			 * positive count also observes the patched text.
			 */
			atomic_set_release(&rec->key->enabled, rec->pending);
		}
		hash_del(&rec->node);
		list_del(&rec->list);
		kfree(rec);
	}
}

static bool batch_apply_op(const struct static_key_batch_op *op)
{
	switch (op->type) {
	case STATIC_KEY_BATCH_INC:
		return batch_inc(op->key);
	case STATIC_KEY_BATCH_DEC:
		return batch_dec(op->key);
	case STATIC_KEY_BATCH_ENABLE:
		return batch_enable(op->key);
	case STATIC_KEY_BATCH_DISABLE:
		return batch_disable(op->key);
	case STATIC_KEY_BATCH_CALL:
#ifdef CONFIG_HAVE_STATIC_CALL_INLINE
		batch_call_defer(op->key, op->tramp, op->func);
#endif
		return true;
	}
	return false;
}

/* Without inline static calls a retarget patches one trampoline. */
static void batch_apply_calls_early(struct static_key_batch *batch)
{
	struct jump_label_batch_chunk *chunk;
	struct static_key_batch_op *op;
	unsigned int i;

	if (IS_ENABLED(CONFIG_HAVE_STATIC_CALL_INLINE))
		return;
	for (i = 0; i < batch->nr; i++) {
		op = &batch->ops[i];
		if (op->type == STATIC_KEY_BATCH_CALL)
			__static_call_update(op->key, op->tramp, op->func);
	}
	list_for_each_entry(chunk, &batch->chunks, list) {
		for (op = chunk->ops; op < chunk->ops + chunk->nr; op++) {
			if (op->type == STATIC_KEY_BATCH_CALL)
				__static_call_update(op->key, op->tramp,
						     op->func);
		}
	}
}

/*
 * A change queued for a key or static_call of a module holds that module
 * until the batch is applied or discarded: the module cannot be unloaded,
 * and its keys freed, under the batch.  A module going away refuses new
 * changes (-ENOENT); its own teardown switches its keys at once.  A
 * module still loading is held too, but a failed init frees it whatever
 * its references: a caller that queues its keys, as a MODULE_STATE_COMING
 * notifier does, ends the batch before that module's MODULE_STATE_GOING
 * notifiers return (under a lock they take, or before returning).
 */
static int batch_hold_module(void *key)
{
	struct module *mod;

	/* Preemption off: a read side for __module_address() on every base. */
	guard(preempt)();
	mod = __module_address((unsigned long)key);
	return !mod || try_module_get(mod) ? 0 : -ENOENT;
}

static void batch_release_module(void *key)
{
	struct module *mod;

	scoped_guard(preempt)
		mod = __module_address((unsigned long)key);
	module_put(mod);
}

static int batch_queue(struct static_key_batch *batch,
		       enum static_key_batch_op_type type, void *key,
		       void *tramp, void *func)
{
	struct jump_label_batch_chunk *chunk;
	struct static_key_batch_op *op;

	if (!key)
		return -EINVAL;
	might_sleep();
	if (batch_hold_module(key))
		return -ENOENT;

	if (batch->nr < STATIC_KEY_BATCH_INLINE) {
		op = &batch->ops[batch->nr++];
	} else {
		chunk = NULL;
		if (!list_empty(&batch->chunks))
			chunk = list_last_entry(&batch->chunks,
						struct jump_label_batch_chunk,
						list);
		if (!chunk || chunk->nr == BATCH_CHUNK_OPS) {
			chunk = kmalloc(PAGE_SIZE, GFP_KERNEL);
			if (!chunk) {
				batch_release_module(key);
				return -ENOMEM;
			}
			chunk->nr = 0;
			list_add_tail(&chunk->list, &batch->chunks);
		}
		op = &chunk->ops[chunk->nr++];
	}
	*op = (struct static_key_batch_op){
		.key	= key,
		.tramp	= tramp,
		.func	= func,
		.type	= type,
	};
	atomic_long_inc(&batch_stat_queued);
	return 0;
}

/**
 * static_key_batch_inc - queue static_key_slow_inc() of @key in @batch
 * @batch: the batch
 * @key: the key
 *
 * static_branch_batch_inc() takes a static_key_{true,false}.  The change
 * is made by static_key_batch_apply().
 *
 * Context: Process context, may sleep; no lock is taken.
 * A key of a module holds the module until the batch is applied or
 * discarded; one of a module still loading must be applied or
 * discarded before the module's MODULE_STATE_GOING notifiers return.
 *
 * Return: 0, -EINVAL without @key, -ENOENT if @key's module is going
 * away, -ENOMEM if the change could not be queued (the batch keeps the
 * changes queued before).
 */
int static_key_batch_inc(struct static_key_batch *batch,
			 struct static_key *key)
{
	return batch_queue(batch, STATIC_KEY_BATCH_INC, key, NULL, NULL);
}
EXPORT_SYMBOL_FOR_MODULES(static_key_batch_inc, STATIC_KEY_BATCH_MODULES);

/**
 * static_key_batch_dec - queue static_key_slow_dec() of @key in @batch
 * @batch: the batch
 * @key: the key
 *
 * Context: Process context, may sleep; no lock is taken.
 * Return: as static_key_batch_inc().
 */
int static_key_batch_dec(struct static_key_batch *batch,
			 struct static_key *key)
{
	return batch_queue(batch, STATIC_KEY_BATCH_DEC, key, NULL, NULL);
}
EXPORT_SYMBOL_FOR_MODULES(static_key_batch_dec, STATIC_KEY_BATCH_MODULES);

/**
 * static_key_batch_enable - queue static_key_enable() of @key in @batch
 * @batch: the batch
 * @key: the key
 *
 * Context: Process context, may sleep; no lock is taken.
 * Return: as static_key_batch_inc().
 */
int static_key_batch_enable(struct static_key_batch *batch,
			    struct static_key *key)
{
	return batch_queue(batch, STATIC_KEY_BATCH_ENABLE, key, NULL, NULL);
}
EXPORT_SYMBOL_FOR_MODULES(static_key_batch_enable, STATIC_KEY_BATCH_MODULES);

/**
 * static_key_batch_disable - queue static_key_disable() of @key in @batch
 * @batch: the batch
 * @key: the key
 *
 * Context: Process context, may sleep; no lock is taken.
 * Return: as static_key_batch_inc().
 */
int static_key_batch_disable(struct static_key_batch *batch,
			     struct static_key *key)
{
	return batch_queue(batch, STATIC_KEY_BATCH_DISABLE, key, NULL, NULL);
}
EXPORT_SYMBOL_FOR_MODULES(static_key_batch_disable, STATIC_KEY_BATCH_MODULES);

/**
 * __static_call_batch_update - queue a static_call retarget in @batch
 * @batch: the batch
 * @key: the static_call key
 * @tramp: its trampoline
 * @func: the new target
 *
 * Use static_call_batch_update(), which checks the type of @func.  With
 * inline static calls the trampoline and every call site are patched in
 * the text_poke batches of the jump sites; the last target queued for a
 * static_call wins, and one that ends where it started patches nothing.
 * Without them, the trampoline is patched on its own when the batch is
 * applied, before the keys change.
 *
 * Context: Process context, may sleep; no lock is taken.
 * Return: as static_key_batch_inc().
 */
int __static_call_batch_update(struct static_key_batch *batch,
			       struct static_call_key *key, void *tramp,
			       void *func)
{
	return batch_queue(batch, STATIC_KEY_BATCH_CALL, key, tramp, func);
}

/**
 * static_key_batch_discard - drop the changes queued in @batch
 * @batch: the batch
 *
 * Frees what the batch allocated and drops the modules it held; it can
 * be used again.
 *
 * Context: Process context.
 */
void static_key_batch_discard(struct static_key_batch *batch)
{
	struct jump_label_batch_chunk *chunk, *tmp;
	unsigned long nr = batch->nr;
	unsigned int i;

	for (i = 0; i < batch->nr; i++)
		batch_release_module(batch->ops[i].key);
	list_for_each_entry_safe(chunk, tmp, &batch->chunks, list) {
		for (i = 0; i < chunk->nr; i++)
			batch_release_module(chunk->ops[i].key);
		nr += chunk->nr;
		list_del(&chunk->list);
		kfree(chunk);
	}
	atomic_long_sub(nr, &batch_stat_queued);
	batch->nr = 0;
	batch->refused = 0;
}
EXPORT_SYMBOL_FOR_MODULES(static_key_batch_discard, STATIC_KEY_BATCH_MODULES);

/**
 * static_key_batch_apply - make the changes queued in @batch
 * @batch: the batch
 *
 * Applies the queued changes in order, under cpus_read_lock() and
 * jump_label_mutex, then patches the sites of every key whose direction
 * changed and the trampolines and call sites of every static_call
 * retargeted, sorted by address, in ceil(pokes /
 * static_key_batch_max()) text_poke batches, and only then publishes
 * each enabled key's count.  Keys whose changes cancel out and
 * static_calls set back to their old target are not patched.  A change
 * that is invalid when it is applied (a decrement of a count that is 0,
 * an increment past INT_MAX, an enable or disable of a key whose count
 * is above one) is skipped; the others are made.  The batch is empty
 * afterwards and can be used again.
 *
 * Context: Process context, may sleep.  Takes cpus_read_lock() and
 * jump_label_mutex; the caller must hold neither.
 * Return: 0, or -EINVAL if a change was skipped as invalid.
 */
int static_key_batch_apply(struct static_key_batch *batch)
{
	struct jump_label_batch_chunk *chunk;
	struct static_key_batch_op *op;
	unsigned int i, refused = 0;

	if (!batch->nr)
		return 0;

	batch_apply_calls_early(batch);
	cpus_read_lock();
	jump_label_lock();
	for (i = 0; i < batch->nr; i++)
		refused += !batch_apply_op(&batch->ops[i]);
	list_for_each_entry(chunk, &batch->chunks, list) {
		for (op = chunk->ops; op < chunk->ops + chunk->nr; op++)
			refused += !batch_apply_op(op);
	}
	batch_patch();
	batch_publish();
	atomic_long_inc(&batch_stat_applied);
	jump_label_unlock();
	cpus_read_unlock();

	static_key_batch_discard(batch);
	if (!refused)
		return 0;
	atomic_long_add(refused, &batch_stat_refused);
	return -EINVAL;
}
EXPORT_SYMBOL_FOR_MODULES(static_key_batch_apply, STATIC_KEY_BATCH_MODULES);

/**
 * static_key_batch_max - sites patched per text_poke batch
 *
 * Context: Any context.
 * Return: the most sites one text_poke batch of an apply patches, with
 * one IPI sequence.
 */
unsigned int static_key_batch_max(void)
{
	return max(arch_jump_label_batch_max(), 1U);
}
EXPORT_SYMBOL_FOR_MODULES(static_key_batch_max, STATIC_KEY_BATCH_MODULES);

/**
 * static_key_batch_get_stats - read the patching counters
 * @stats: filled with the counters since boot
 *
 * Context: Any context.
 */
void static_key_batch_get_stats(struct static_key_batch_stats *stats)
{
	stats->applied = atomic_long_read(&batch_stat_applied);
	stats->sites = atomic_long_read(&batch_stat_sites);
	stats->calls = atomic_long_read(&batch_stat_calls);
	stats->batches = arch_jump_label_poke_batches();
	stats->ipi_rounds = arch_jump_label_ipi_rounds();
	stats->own_batches = atomic_long_read(&batch_stat_batches);
	stats->own_ipi_rounds = atomic_long_read(&batch_stat_ipi_rounds);
	stats->refused = atomic_long_read(&batch_stat_refused);
	stats->queued = atomic_long_read(&batch_stat_queued);
}
EXPORT_SYMBOL_FOR_MODULES(static_key_batch_get_stats, STATIC_KEY_BATCH_MODULES);

#ifdef HAVE_JUMP_LABEL_BATCH
/* As __jump_label_update() does where the architecture batches. */
static void batch_transform(struct jump_entry *entry, enum jump_label_type type)
{
	if (!arch_jump_label_transform_queue(entry, type)) {
		arch_jump_label_transform_apply();
		/* An empty queue takes one entry. */
		WARN_ON_ONCE(!arch_jump_label_transform_queue(entry, type));
	}
}

static void batch_transform_apply(void)
{
	arch_jump_label_transform_apply();
}
#else
static void batch_transform(struct jump_entry *entry, enum jump_label_type type)
{
	arch_jump_label_transform(entry, type);
}

static void batch_transform_apply(void)
{
}
#endif

/*
 * Without an architecture batch of its own, patch the sites the way
 * jump_label_update() would, in the architecture's batches if it has
 * them (arm64, riscv, ...), and static_call pokes one by one.
 */
void __weak arch_jump_label_batch_apply(struct jump_label_batch_site *sites,
					unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++) {
		if (sites[i].entry) {
			batch_transform(sites[i].entry, sites[i].type);
		} else {
			batch_transform_apply();
			batch_poke_call(&sites[i]);
		}
	}
	batch_transform_apply();
}

/**
 * jump_label_batch_account - add the cost of one arch_jump_label_batch_apply()
 * @batches: text_poke batches it sent
 * @ipi_rounds: serialising IPI broadcasts it sent
 *
 * Called by the architecture with its patching lock held, so the figures
 * are the batch's alone, whatever else patches text.
 */
void jump_label_batch_account(unsigned long batches, unsigned long ipi_rounds)
{
	atomic_long_add(batches, &batch_stat_batches);
	atomic_long_add(ipi_rounds, &batch_stat_ipi_rounds);
}

unsigned int __weak arch_jump_label_batch_max(void)
{
	return UINT_MAX;
}

unsigned long __weak arch_jump_label_poke_batches(void)
{
	return 0;
}

unsigned long __weak arch_jump_label_ipi_rounds(void)
{
	return 0;
}
