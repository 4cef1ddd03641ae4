/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Static key transactions: flip many static keys with one text_poke
 * batch sequence.
 *
 * Between static_key_txn_begin() and static_key_txn_commit() the calling
 * task owns the static key machinery: it holds cpus_read_lock() and
 * jump_label_mutex.  The static_branch_{enable,disable,inc,dec}() and
 * static_key_{enable,disable,slow_inc,slow_dec}() calls it makes, and
 * their _cpuslocked forms, only record the change.  The commit patches
 * every site of every key whose branch direction changed, sorted by
 * address, in as few text_poke batches as the architecture allows, and
 * only then publishes the new key->enabled values:
 *
 *	static_key_txn_begin();
 *	for (i = 0; i < n; i++)
 *		static_branch_enable(&keys[i]);
 *	err = static_key_txn_commit();
 *
 * Inside a transaction a key being enabled reads as enabled
 * (static_key_enabled() is true, as in the "enabling in progress" state of
 * static_key_slow_inc()) while its code still takes the old direction;
 * other tasks that touch such a key block until the commit.  The owner must
 * not wait for anything that itself waits for a static key change or CPU
 * hotplug, and must commit before returning to user space.
 *
 * static_call updates join the transaction too (where the architecture
 * has inline static calls): static_call_update() by the owner only records
 * the new target, and the commit queues the trampoline and every call site
 * into the same text_poke batches as the jump sites.  static_call_query()
 * returns the old target until the commit.
 *
 * Without CONFIG_JUMP_LABEL key changes are plain atomic updates and
 * begin/commit do nothing.
 */
#ifndef _LINUX_JUMP_LABEL_TXN_H
#define _LINUX_JUMP_LABEL_TXN_H

#include <linux/jump_label.h>
#include <linux/types.h>

/**
 * struct static_key_txn_stats - patching counters since boot
 * @transactions: committed static key transactions
 * @sites: jump sites patched by committed transactions
 * @calls: static_call trampolines and call sites patched by them
 * @batches: text_poke batch sequences, all users of the architecture's
 *	batch interface (0 where the architecture does not count them)
 * @ipi_rounds: core serialising IPI broadcasts, all users (3 per batch
 *	sequence; 0 where the architecture does not count them)
 * @txn_batches: the part of @batches that committed transactions sent,
 *	counted while the commit holds the architecture's patching lock, so
 *	no other user's batch is in it
 * @txn_ipi_rounds: the part of @ipi_rounds that committed transactions sent
 */
struct static_key_txn_stats {
	unsigned long transactions;
	unsigned long sites;
	unsigned long calls;
	unsigned long batches;
	unsigned long ipi_rounds;
	unsigned long txn_batches;
	unsigned long txn_ipi_rounds;
};

#ifdef CONFIG_JUMP_LABEL

int static_key_txn_begin(void);
int static_key_txn_commit(void);
bool static_key_txn_owned(void);
void static_key_txn_get_stats(struct static_key_txn_stats *stats);
unsigned int static_key_txn_batch_max(void);

/**
 * struct jump_label_txn_site - one site to patch in a commit
 * @addr: address of the instruction
 * @entry: the jump table entry of a jump site, NULL for a static_call
 * @type: the instruction a jump site needs
 * @func: new target of a static_call trampoline or call site
 * @tramp: @addr is a static_call trampoline
 * @tail: @addr is a static_call tail-call site
 */
struct jump_label_txn_site {
	unsigned long addr;
	struct jump_entry *entry;
	enum jump_label_type type;
	void *func;
	bool tramp;
	bool tail;
};

/* Hooks for kernel/jump_label.c, not for other users. */
bool jump_label_txn_inc(struct static_key *key, bool *ret);
bool jump_label_txn_dec(struct static_key *key);
bool jump_label_txn_enable(struct static_key *key);
bool jump_label_txn_disable(struct static_key *key);
bool jump_label_txn_collect(struct jump_entry *entry,
			    enum jump_label_type type);
bool jump_label_txn_collecting(void);
void jump_label_txn_update_key(struct static_key *key);

/*
 * Architecture hooks.  arch_jump_label_txn_apply() patches @nr sites,
 * sorted by address, @nr <= arch_jump_label_txn_batch_max(), as one batch;
 * it hands static_call entries to arch_static_call_txn_queue().  The
 * defaults patch one site at a time and count nothing.
 */
void arch_jump_label_txn_apply(struct jump_label_txn_site *sites,
			       unsigned int nr);
unsigned int arch_jump_label_txn_batch_max(void);
unsigned long arch_jump_label_txn_batches(void);
unsigned long arch_jump_label_txn_ipi_rounds(void);
/* For arch_jump_label_txn_apply(): what its batch cost. */
void jump_label_txn_account(unsigned long batches, unsigned long ipi_rounds);

#else /* !CONFIG_JUMP_LABEL */

static inline int static_key_txn_begin(void)
{
	return 0;
}

static inline int static_key_txn_commit(void)
{
	return 0;
}

static inline bool static_key_txn_owned(void)
{
	return false;
}

static inline void static_key_txn_get_stats(struct static_key_txn_stats *stats)
{
	*stats = (struct static_key_txn_stats){ };
}

static inline unsigned int static_key_txn_batch_max(void)
{
	return 0;
}

#endif /* CONFIG_JUMP_LABEL */

/*
 * static_call hooks.  Only inline static calls join transactions, but the
 * architecture's static_call code calls static_call_txn_collect() and
 * defines arch_static_call_txn_queue() in every configuration.
 */
struct static_call_key;

#ifdef CONFIG_HAVE_STATIC_CALL_INLINE
/* kernel/static_call_inline.c, for the commit */
void static_call_update_locked(struct static_call_key *key, void *tramp,
			       void *func);
void static_call_txn_lock(void);
void static_call_txn_unlock(void);
#else
static inline void static_call_txn_lock(void) { }
static inline void static_call_txn_unlock(void) { }
#endif

#if defined(CONFIG_JUMP_LABEL) && defined(CONFIG_HAVE_STATIC_CALL_INLINE)
bool static_call_txn_defer(struct static_call_key *key, void *tramp,
			   void *func);
bool static_call_txn_collect(void *site, void *tramp, void *func, bool tail);
#else
static inline bool static_call_txn_defer(struct static_call_key *key,
					 void *tramp, void *func)
{
	return false;
}

static inline bool static_call_txn_collect(void *site, void *tramp,
					   void *func, bool tail)
{
	return false;
}
#endif

/* Queues one poke into the batch arch_jump_label_txn_apply() builds. */
void arch_static_call_txn_queue(void *insn, bool tramp, void *func,
				bool tail);

#endif /* _LINUX_JUMP_LABEL_TXN_H */
