// SPDX-License-Identifier: GPL-2.0-only
/*
 * Static key transactions.
 *
 * Locking: a transaction is one task's critical section.
 * static_key_txn_begin() takes cpus_read_lock() and then jump_label_mutex,
 * in the order every static key update takes them, and
 * static_key_txn_commit() drops them.  Everything below (the owner, the
 * key records, the site vector, the collect flag) is guarded by
 * jump_label_mutex; only txn_owner is also read without it, by tasks that
 * compare it with current and so can only match their own store.
 *
 * Key states while a key has a record in the open transaction:
 *
 *	enabled > 0	code jumps (or was never off); the count is live and
 *			other tasks may inc/dec it above one, as usual
 *	enabled == 0	code was on and is to be turned off, or stays off;
 *			other tasks' increments go to the slow path and wait
 *	enabled == -1	code is off and is to be turned on; the count is
 *			kept in the record until the commit publishes it
 *
 * static_call updates by the owner are recorded in txn_calls (latest
 * target per key) and applied by the commit under static_call_mutex,
 * which it holds from collecting their pokes until they are patched, so
 * that no other update of the same key can slip in between.
 *
 * These are the states mainline uses during a single key update, held
 * for longer.  static_key_fast_inc_not_disabled() and
 * static_key_dec_not_one() never succeed on 0 or -1, so no task can take
 * a reference to a key whose code is not yet patched: the commit patches
 * every site first and publishes the count with a release after.
 */
#include <linux/atomic.h>
#include <linux/cpu.h>
#include <linux/export.h>
#include <linux/hashtable.h>
#include <linux/jump_label_txn.h>
#include <linux/limits.h>
#include <linux/list.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/static_call.h>

/**
 * struct jump_label_txn_rec - a key changed by the open transaction
 * @node: in txn_hash, by key
 * @list: in txn_recs, in order of first change
 * @key: the key
 * @pending: the key's count while key->enabled is -1
 * @code_on: the key's sites were in the enabled direction at first change
 */
struct jump_label_txn_rec {
	struct hlist_node node;
	struct list_head list;
	struct static_key *key;
	int pending;
	bool code_on;
};

/**
 * struct jump_label_txn_call - a static_call update of the open transaction
 * @node: in txn_call_hash, by key
 * @list: in txn_calls, in order of first update
 * @key: the static_call key
 * @tramp: its trampoline
 * @func: the latest target given
 */
struct jump_label_txn_call {
	struct hlist_node node;
	struct list_head list;
	struct static_call_key *key;
	void *tramp;
	void *func;
};

#define TXN_HASH_BITS	10

static DEFINE_HASHTABLE(txn_hash, TXN_HASH_BITS);
static LIST_HEAD(txn_recs);
static struct task_struct *txn_owner;

/* Site collection during a commit; NULL txn_sites means count only. */
static bool txn_collect;
static struct jump_label_txn_site *txn_sites;
static unsigned int txn_nr_sites;

/* static_call updates, and their pokes while a commit collects them */
#ifdef CONFIG_HAVE_STATIC_CALL_INLINE
static DEFINE_HASHTABLE(txn_call_hash, TXN_HASH_BITS);
static bool txn_collect_calls;
#endif
static LIST_HEAD(txn_calls);
static struct jump_label_txn_site *txn_call_sites;
static unsigned int txn_nr_calls;
static unsigned int txn_max_calls;

static atomic_long_t txn_stat_transactions;
static atomic_long_t txn_stat_sites;
static atomic_long_t txn_stat_calls;
static atomic_long_t txn_stat_batches;
static atomic_long_t txn_stat_ipi_rounds;

/**
 * static_key_txn_owned - does current have a transaction open
 *
 * Context: Any context.
 * Return: true between static_key_txn_begin() and static_key_txn_commit()
 * of the calling task.
 */
bool static_key_txn_owned(void)
{
	return READ_ONCE(txn_owner) == current;
}
EXPORT_SYMBOL_GPL(static_key_txn_owned);

/**
 * static_key_txn_begin - open a static key transaction
 *
 * Until static_key_txn_commit(), static key changes by the calling task
 * are recorded, not applied.  Other tasks changing static keys, loading
 * or unloading modules with static keys, or hotplugging CPUs wait for the
 * commit.  Transactions do not nest.
 *
 * Context: Process context, may sleep.  Takes cpus_read_lock() and
 * jump_label_mutex; the caller must hold neither.
 * Return: 0 on success, -EBUSY if the calling task already has a
 * transaction open (the open transaction is kept).
 */
int static_key_txn_begin(void)
{
	if (WARN_ON_ONCE(static_key_txn_owned()))
		return -EBUSY;

	cpus_read_lock();
	jump_label_lock();
	WRITE_ONCE(txn_owner, current);
	return 0;
}
EXPORT_SYMBOL_GPL(static_key_txn_begin);

static struct jump_label_txn_rec *txn_find(struct static_key *key)
{
	struct jump_label_txn_rec *rec;

	hash_for_each_possible(txn_hash, rec, node, (unsigned long)key) {
		if (rec->key == key)
			return rec;
	}
	return NULL;
}

/*
 * Find or make @key's record.  A new record takes the code direction from
 * key->enabled, which is settled for keys not yet in the transaction.
 * NULL only when out of memory: the caller then updates the key at once.
 */
static struct jump_label_txn_rec *txn_get(struct static_key *key)
{
	struct jump_label_txn_rec *rec = txn_find(key);

	if (rec)
		return rec;

	rec = kmalloc_obj(*rec);
	if (!rec)
		return NULL;

	rec->key = key;
	rec->pending = 0;
	rec->code_on = atomic_read(&key->enabled) > 0;
	hash_add(txn_hash, &rec->node, (unsigned long)key);
	list_add_tail(&rec->list, &txn_recs);
	return rec;
}

/* 0 -> 1 for the owner, deferring the code change. */
static void txn_enable_from_zero(struct static_key *key)
{
	struct jump_label_txn_rec *rec = txn_get(key);

	if (!rec) {
		/* No memory: fall back to an immediate update. */
		atomic_set(&key->enabled, -1);
		jump_label_txn_update_key(key);
		/* Pairs with static_key_fast_inc_not_disabled(). */
		atomic_set_release(&key->enabled, 1);
		return;
	}

	if (rec->code_on) {
		/*
		 * The code was never turned off: cancel the pending disable.
		 * Pairs with static_key_fast_inc_not_disabled(); the text it
		 * must observe was patched before the transaction.
		 */
		atomic_set_release(&key->enabled, 1);
		return;
	}

	rec->pending = 1;
	atomic_set(&key->enabled, -1);
}

/* 1 -> 0 for the owner, deferring the code change. */
static void txn_disable_from_one(struct static_key *key)
{
	struct jump_label_txn_rec *rec = txn_get(key);

	if (atomic_cmpxchg(&key->enabled, 1, 0) != 1)
		return;
	if (!rec)
		jump_label_txn_update_key(key);
}

/* Pending count -> 0: the code was off and stays off. */
static void txn_cancel_enable(struct jump_label_txn_rec *rec)
{
	rec->pending = 0;
	atomic_set(&rec->key->enabled, 0);
}

/**
 * jump_label_txn_inc - record static_key_slow_inc() in a transaction
 * @key: the key
 * @ret: the value static_key_slow_inc() returns
 *
 * Context: Any context; does something only for the transaction owner.
 * Return: true if the increment was taken by the transaction.
 */
bool jump_label_txn_inc(struct static_key *key, bool *ret)
{
	struct jump_label_txn_rec *rec;
	int v;

	if (!static_key_txn_owned())
		return false;

	*ret = true;
	if (static_key_fast_inc_not_disabled(key))
		return true;

	v = atomic_read(&key->enabled);
	if (v == 0) {
		txn_enable_from_zero(key);
	} else if (v == -1) {
		rec = txn_find(key);
		if (WARN_ON_ONCE(!rec) || rec->pending == INT_MAX)
			*ret = false;
		else
			rec->pending++;
	} else {
		/* INT_MAX: refuse, as static_key_slow_inc() does. */
		*ret = false;
	}
	return true;
}

/**
 * jump_label_txn_dec - record static_key_slow_dec() in a transaction
 * @key: the key
 *
 * Context: Any context; does something only for the transaction owner.
 * Return: true if the decrement was taken by the transaction.
 */
bool jump_label_txn_dec(struct static_key *key)
{
	struct jump_label_txn_rec *rec;
	int v;

	if (!static_key_txn_owned())
		return false;

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
		rec = txn_get(key);
		if (atomic_try_cmpxchg(&key->enabled, &v, 0)) {
			if (!rec)
				jump_label_txn_update_key(key);
			return true;
		}
	}

	if (v == -1) {
		rec = txn_find(key);
		if (!WARN_ON_ONCE(!rec) && --rec->pending == 0)
			txn_cancel_enable(rec);
	} else {
		WARN_ON_ONCE(1);	/* underflow */
	}
	return true;
}

/**
 * jump_label_txn_enable - record static_key_enable() in a transaction
 * @key: the key
 *
 * Context: Any context; does something only for the transaction owner.
 * Return: true if the change was taken by the transaction.
 */
bool jump_label_txn_enable(struct static_key *key)
{
	struct jump_label_txn_rec *rec;
	int v;

	if (!static_key_txn_owned())
		return false;

	v = atomic_read(&key->enabled);
	if (v > 0) {
		WARN_ON_ONCE(v != 1);
	} else if (v == -1) {
		rec = txn_find(key);
		WARN_ON_ONCE(!rec || rec->pending != 1);
	} else {
		txn_enable_from_zero(key);
	}
	return true;
}

/**
 * jump_label_txn_disable - record static_key_disable() in a transaction
 * @key: the key
 *
 * Context: Any context; does something only for the transaction owner.
 * Return: true if the change was taken by the transaction.
 */
bool jump_label_txn_disable(struct static_key *key)
{
	struct jump_label_txn_rec *rec;
	int v;

	if (!static_key_txn_owned())
		return false;

	v = atomic_read(&key->enabled);
	if (v == 1) {
		txn_disable_from_one(key);
	} else if (v == -1) {
		rec = txn_find(key);
		if (!WARN_ON_ONCE(!rec || rec->pending != 1))
			txn_cancel_enable(rec);
	} else {
		WARN_ON_ONCE(v != 0);
	}
	return true;
}

/**
 * jump_label_txn_collecting - is a commit collecting sites
 *
 * Context: jump_label_mutex held.
 * Return: true while jump_label_txn_collect() takes sites.
 */
bool jump_label_txn_collecting(void)
{
	return txn_collect;
}

/**
 * jump_label_txn_collect - take a site to patch in the commit
 * @entry: the site
 * @type: the instruction it needs
 *
 * Context: jump_label_mutex held.
 * Return: true if the site was taken (or counted), false if the caller
 * must patch it itself.
 */
bool jump_label_txn_collect(struct jump_entry *entry,
			    enum jump_label_type type)
{
	if (!txn_collect)
		return false;

	if (txn_sites) {
		txn_sites[txn_nr_sites] = (struct jump_label_txn_site){
			.addr	= jump_entry_code(entry),
			.entry	= entry,
			.type	= type,
		};
	}
	txn_nr_sites++;
	return true;
}

static bool txn_rec_changes(struct jump_label_txn_rec *rec)
{
	return (atomic_read(&rec->key->enabled) != 0) != rec->code_on;
}

static void txn_collect_sites(void)
{
	struct jump_label_txn_rec *rec;

	txn_nr_sites = 0;
	txn_collect = true;
	list_for_each_entry(rec, &txn_recs, list) {
		if (txn_rec_changes(rec))
			jump_label_txn_update_key(rec->key);
	}
	txn_collect = false;
}

#ifdef CONFIG_HAVE_STATIC_CALL_INLINE
/**
 * static_call_txn_defer - record a static_call update in a transaction
 * @key: the static_call key
 * @tramp: its trampoline
 * @func: the new target
 *
 * Context: Any context; does something only for the transaction owner.
 * Return: true if the update was taken by the transaction.
 */
bool static_call_txn_defer(struct static_call_key *key, void *tramp,
			   void *func)
{
	struct jump_label_txn_call *call;

	if (!static_key_txn_owned())
		return false;

	hash_for_each_possible(txn_call_hash, call, node, (unsigned long)key) {
		if (call->key == key) {
			call->tramp = tramp;
			call->func = func;
			return true;
		}
	}

	call = kmalloc(sizeof(*call), GFP_KERNEL);
	if (!call) {
		/* No memory: update at once, cpus_read_lock() is held. */
		static_call_txn_lock();
		static_call_update_locked(key, tramp, func);
		static_call_txn_unlock();
		return true;
	}
	call->key = key;
	call->tramp = tramp;
	call->func = func;
	hash_add(txn_call_hash, &call->node, (unsigned long)key);
	list_add_tail(&call->list, &txn_calls);
	return true;
}

static bool txn_add_call(void *insn, void *func, bool tramp, bool tail)
{
	struct jump_label_txn_site *sites;
	unsigned int max;

	if (txn_nr_calls == txn_max_calls) {
		max = max(2 * txn_max_calls, 64U);
		sites = kvmalloc_array(max, sizeof(*sites), GFP_KERNEL);
		if (!sites)
			return false;
		if (txn_nr_calls)
			memcpy(sites, txn_call_sites,
			       txn_nr_calls * sizeof(*sites));
		kvfree(txn_call_sites);
		txn_call_sites = sites;
		txn_max_calls = max;
	}
	txn_call_sites[txn_nr_calls++] = (struct jump_label_txn_site){
		.addr	= (unsigned long)insn,
		.func	= func,
		.tramp	= tramp,
		.tail	= tail,
	};
	return true;
}

/**
 * static_call_txn_collect - take a static_call poke to patch in the commit
 * @site: call site to patch, or NULL
 * @tramp: trampoline to patch if @site is NULL, or NULL
 * @func: the new target
 * @tail: @site is a tail call
 *
 * Context: arch_static_call_transform(), static_call_mutex held.
 * Return: true if the pokes were taken, false if the caller must patch.
 */
bool static_call_txn_collect(void *site, void *tramp, void *func, bool tail)
{
	if (!txn_collect_calls || !static_key_txn_owned())
		return false;

	/* A call site names its trampoline too; that is patched on its own. */
	if (tramp && !site && !txn_add_call(tramp, func, true, false))
		goto now;
	if (site && !txn_add_call(site, func, false, tail)) {
		tramp = NULL;
		goto now;
	}
	return true;

now:
	/* No memory: the caller patches what was not taken, at once. */
	txn_collect_calls = false;
	arch_static_call_transform(site, tramp, func, tail);
	txn_collect_calls = true;
	return true;
}

/* Apply the recorded updates, collecting their pokes in txn_call_sites. */
static void txn_collect_static_calls(void)
{
	struct jump_label_txn_call *call, *tmp;

	txn_nr_calls = 0;
	txn_collect_calls = true;
	list_for_each_entry_safe(call, tmp, &txn_calls, list) {
		static_call_update_locked(call->key, call->tramp, call->func);
		hash_del(&call->node);
		list_del(&call->list);
		kfree(call);
	}
	txn_collect_calls = false;
}

static void txn_poke_call(const struct jump_label_txn_site *s)
{
	void *insn = (void *)s->addr;

	arch_static_call_transform(s->tramp ? NULL : insn,
				   s->tramp ? insn : NULL, s->func, s->tail);
}
#else
static void txn_collect_static_calls(void)
{
	txn_nr_calls = 0;
}

static void txn_poke_call(const struct jump_label_txn_site *s)
{
}
#endif /* CONFIG_HAVE_STATIC_CALL_INLINE */

static int txn_site_cmp(const void *a, const void *b)
{
	unsigned long ca = ((const struct jump_label_txn_site *)a)->addr;
	unsigned long cb = ((const struct jump_label_txn_site *)b)->addr;

	return ca < cb ? -1 : ca > cb;
}

/* No memory for the sorted vector: one key or poke at a time. */
static void txn_patch_slowly(void)
{
	struct jump_label_txn_rec *rec;
	unsigned int i;

	list_for_each_entry(rec, &txn_recs, list) {
		if (txn_rec_changes(rec))
			jump_label_txn_update_key(rec->key);
	}
	for (i = 0; i < txn_nr_calls; i++)
		txn_poke_call(&txn_call_sites[i]);
}

/*
 * Patch every site of every changed key and every static_call poke:
 * sorted by address, one batch per vector.
 */
static void txn_patch(void)
{
	bool calls = !list_empty(&txn_calls);
	unsigned int vec, nr, nr_calls, i;

	if (calls) {
		static_call_txn_lock();
		txn_collect_static_calls();
	}
	nr_calls = txn_nr_calls;

	txn_sites = NULL;
	txn_collect_sites();
	nr = txn_nr_sites;
	if (!nr && !nr_calls)
		goto out;

	txn_sites = kvmalloc_array(nr + nr_calls, sizeof(*txn_sites),
				   GFP_KERNEL);
	if (!txn_sites) {
		txn_patch_slowly();
		goto out;
	}

	if (nr) {
		txn_collect_sites();
		if (WARN_ON_ONCE(txn_nr_sites != nr))
			nr = min(nr, txn_nr_sites);
	}
	atomic_long_add(nr, &txn_stat_sites);
	atomic_long_add(nr_calls, &txn_stat_calls);
	if (nr_calls)
		memcpy(txn_sites + nr, txn_call_sites,
		       nr_calls * sizeof(*txn_sites));
	nr += nr_calls;
	sort(txn_sites, nr, sizeof(*txn_sites), txn_site_cmp, NULL);

	vec = static_key_txn_batch_max();
	for (i = 0; i < nr; i += vec)
		arch_jump_label_txn_apply(txn_sites + i, min(vec, nr - i));

	kvfree(txn_sites);
	txn_sites = NULL;
out:
	kvfree(txn_call_sites);
	txn_call_sites = NULL;
	txn_nr_calls = 0;
	txn_max_calls = 0;
	if (calls)
		static_call_txn_unlock();
}

/**
 * static_key_txn_commit - apply and close the open static key transaction
 *
 * Patches the sites of every key whose direction changed and the
 * trampolines and call sites of every static_call updated, sorted by
 * address, in ceil(pokes / static_key_txn_batch_max()) batches, then
 * publishes each enabled key's count.  Keys whose changes cancelled out
 * and static_calls set back to their old target are not patched.
 *
 * Context: Process context, may sleep; only the task that called
 * static_key_txn_begin().  Drops jump_label_mutex and cpus_read_lock().
 * Return: 0 on success, -EINVAL if the calling task has no transaction
 * open.
 */
int static_key_txn_commit(void)
{
	struct jump_label_txn_rec *rec, *tmp;

	if (WARN_ON_ONCE(!static_key_txn_owned()))
		return -EINVAL;

	txn_patch();

	list_for_each_entry_safe(rec, tmp, &txn_recs, list) {
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

	atomic_long_inc(&txn_stat_transactions);
	WRITE_ONCE(txn_owner, NULL);
	jump_label_unlock();
	cpus_read_unlock();
	return 0;
}
EXPORT_SYMBOL_GPL(static_key_txn_commit);

/**
 * static_key_txn_batch_max - sites patched per text_poke batch
 *
 * Context: Any context.
 * Return: the most sites one commit batch patches with one IPI sequence.
 */
unsigned int static_key_txn_batch_max(void)
{
	return max(arch_jump_label_txn_batch_max(), 1U);
}
EXPORT_SYMBOL_GPL(static_key_txn_batch_max);

/**
 * static_key_txn_get_stats - read the patching counters
 * @stats: filled with the counters since boot
 *
 * Context: Any context.
 */
void static_key_txn_get_stats(struct static_key_txn_stats *stats)
{
	stats->transactions = atomic_long_read(&txn_stat_transactions);
	stats->sites = atomic_long_read(&txn_stat_sites);
	stats->calls = atomic_long_read(&txn_stat_calls);
	stats->batches = arch_jump_label_txn_batches();
	stats->ipi_rounds = arch_jump_label_txn_ipi_rounds();
	stats->txn_batches = atomic_long_read(&txn_stat_batches);
	stats->txn_ipi_rounds = atomic_long_read(&txn_stat_ipi_rounds);
}
EXPORT_SYMBOL_GPL(static_key_txn_get_stats);

#ifdef HAVE_JUMP_LABEL_BATCH
/* As __jump_label_update() does where the architecture batches. */
static void txn_transform(struct jump_entry *entry, enum jump_label_type type)
{
	if (!arch_jump_label_transform_queue(entry, type)) {
		arch_jump_label_transform_apply();
		/* An empty queue takes one entry. */
		WARN_ON_ONCE(!arch_jump_label_transform_queue(entry, type));
	}
}

static void txn_transform_apply(void)
{
	arch_jump_label_transform_apply();
}
#else
static void txn_transform(struct jump_entry *entry, enum jump_label_type type)
{
	arch_jump_label_transform(entry, type);
}

static void txn_transform_apply(void)
{
}
#endif

/*
 * Without an architecture batch of its own, patch the sites the way
 * jump_label_update() would, in the architecture's batches if it has
 * them (arm64, riscv, ...), and static_call pokes one by one.
 */
void __weak arch_jump_label_txn_apply(struct jump_label_txn_site *sites,
				      unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++) {
		if (sites[i].entry) {
			txn_transform(sites[i].entry, sites[i].type);
		} else {
			txn_transform_apply();
			txn_poke_call(&sites[i]);
		}
	}
	txn_transform_apply();
}

/**
 * jump_label_txn_account - add the cost of one arch_jump_label_txn_apply()
 * @batches: text_poke batches it sent
 * @ipi_rounds: serialising IPI broadcasts it sent
 *
 * Called by the architecture with its patching lock held, so the figures
 * are the transaction's alone, whatever else patches text.
 */
void jump_label_txn_account(unsigned long batches, unsigned long ipi_rounds)
{
	atomic_long_add(batches, &txn_stat_batches);
	atomic_long_add(ipi_rounds, &txn_stat_ipi_rounds);
}

unsigned int __weak arch_jump_label_txn_batch_max(void)
{
	return UINT_MAX;
}

unsigned long __weak arch_jump_label_txn_batches(void)
{
	return 0;
}

unsigned long __weak arch_jump_label_txn_ipi_rounds(void)
{
	return 0;
}
