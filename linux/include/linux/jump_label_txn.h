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
 * @sites: sites patched by committed transactions
 * @batches: text_poke batch sequences, all users of the architecture's
 *	batch interface (0 where the architecture does not count them)
 * @ipi_rounds: core serialising IPI broadcasts, all users (3 per batch
 *	sequence; 0 where the architecture does not count them)
 */
struct static_key_txn_stats {
	unsigned long transactions;
	unsigned long sites;
	unsigned long batches;
	unsigned long ipi_rounds;
};

#ifdef CONFIG_JUMP_LABEL

int static_key_txn_begin(void);
int static_key_txn_commit(void);
bool static_key_txn_owned(void);
void static_key_txn_get_stats(struct static_key_txn_stats *stats);
unsigned int static_key_txn_batch_max(void);

/**
 * struct jump_label_txn_site - one site to patch in a commit
 * @entry: the site's jump table entry
 * @type: the instruction to write there
 */
struct jump_label_txn_site {
	struct jump_entry *entry;
	enum jump_label_type type;
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
 * sorted by address, @nr <= arch_jump_label_txn_batch_max(), as one batch.
 * The defaults patch one site at a time and count nothing.
 */
void arch_jump_label_txn_apply(struct jump_label_txn_site *sites,
			       unsigned int nr);
unsigned int arch_jump_label_txn_batch_max(void);
unsigned long arch_jump_label_txn_batches(void);
unsigned long arch_jump_label_txn_ipi_rounds(void);

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

#endif /* _LINUX_JUMP_LABEL_TXN_H */
