/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Static key batches: flip many static keys, and retarget static calls,
 * with one text_poke batch sequence.
 *
 * A batch is an object its owner keeps (on the stack or allocated).
 * Queueing a change only records it in the batch; no lock is taken and
 * nothing changes until static_key_batch_apply(), which takes
 * cpus_read_lock() and jump_label_mutex, applies every queued change in
 * order, patches every site of every key whose branch direction changed
 * and every static_call trampoline and call site retargeted, sorted by
 * address, in as few text_poke batches as the architecture allows, and
 * only then publishes the keys' new enabled counts:
 *
 *	DEFINE_STATIC_KEY_BATCH(batch);
 *
 *	for (i = 0; i < n; i++)
 *		static_branch_batch_enable(&batch, &keys[i]);
 *	static_call_batch_update(&batch, my_call, my_func);
 *	err = static_key_batch_apply(&batch);
 *
 * Between queueing and applying the owner may do anything, sleep, take
 * any lock, load modules or change static keys directly.  A change that
 * is not valid when the batch is applied (a decrement of a count that
 * is 0, an enable of a key whose count is above one) is skipped and
 * counted in the refused counter of static_key_batch_get_stats(); the others
 * are applied, and static_key_batch_apply() returns -EINVAL.  A batch not
 * to be applied is released with static_key_batch_discard().
 *
 * Without CONFIG_JUMP_LABEL the changes are applied by the plain static
 * key functions; static_call retargets are batched only where the
 * architecture has inline static calls, else applied one by one.
 */
#ifndef _LINUX_JUMP_LABEL_BATCH_H
#define _LINUX_JUMP_LABEL_BATCH_H

#include <linux/errno.h>
#include <linux/jump_label.h>
#include <linux/list.h>
#include <linux/static_call.h>
#include <linux/types.h>

/**
 * struct static_key_batch_stats - patching counters since boot
 * @applied: applied static key batches
 * @sites: jump sites patched by applied batches
 * @calls: static_call trampolines and call sites patched by them
 * @batches: text_poke batch sequences, all users of the architecture's
 *	batch interface (0 where the architecture does not count them)
 * @ipi_rounds: core serialising IPI broadcasts, all users (3 per batch
 *	sequence; 0 where the architecture does not count them)
 * @own_batches: the part of @batches that applied static key batches
 *	sent, counted while the apply holds the architecture's patching
 *	lock, so no other user's batch is in it
 * @own_ipi_rounds: the part of @ipi_rounds that static key batches sent
 * @refused: queued changes skipped as invalid when applied
 * @queued: changes queued in batches not yet applied or discarded
 */
struct static_key_batch_stats {
	unsigned long applied;
	unsigned long sites;
	unsigned long calls;
	unsigned long batches;
	unsigned long ipi_rounds;
	unsigned long own_batches;
	unsigned long own_ipi_rounds;
	unsigned long refused;
	unsigned long queued;
};

/* Queued changes kept in the batch object itself before any allocation. */
#define STATIC_KEY_BATCH_INLINE	4

enum static_key_batch_op_type {
	STATIC_KEY_BATCH_INC,
	STATIC_KEY_BATCH_DEC,
	STATIC_KEY_BATCH_ENABLE,
	STATIC_KEY_BATCH_DISABLE,
	STATIC_KEY_BATCH_CALL,
};

/* One queued change; private to kernel/jump_label_batch.c. */
struct static_key_batch_op {
	void *key;
	void *tramp;
	void *func;
	enum static_key_batch_op_type type;
};

/**
 * struct static_key_batch - static key changes queued for one apply
 * @chunks: further queued changes, in allocated chunks
 * @nr: changes in @ops
 * @refused: without CONFIG_JUMP_LABEL, changes the queueing functions
 *	refused since the batch was last applied (they apply at once there)
 * @ops: the first queued changes
 *
 * Initialise with DEFINE_STATIC_KEY_BATCH() or static_key_batch_init();
 * the other fields are private.
 */
struct static_key_batch {
	struct list_head chunks;
	unsigned int nr;
	unsigned int refused;
	struct static_key_batch_op ops[STATIC_KEY_BATCH_INLINE];
};

#define STATIC_KEY_BATCH_INIT(name)					\
	{ .chunks = LIST_HEAD_INIT((name).chunks) }

#define DEFINE_STATIC_KEY_BATCH(name)					\
	struct static_key_batch name = STATIC_KEY_BATCH_INIT(name)

static inline void static_key_batch_init(struct static_key_batch *batch)
{
	*batch = (struct static_key_batch)STATIC_KEY_BATCH_INIT(*batch);
}

#define static_branch_batch_inc(batch, x)				\
	static_key_batch_inc(batch, &(x)->key)
#define static_branch_batch_dec(batch, x)				\
	static_key_batch_dec(batch, &(x)->key)
#define static_branch_batch_enable(batch, x)				\
	static_key_batch_enable(batch, &(x)->key)
#define static_branch_batch_disable(batch, x)				\
	static_key_batch_disable(batch, &(x)->key)

/*
 * static_call_batch_update - queue a static_call retarget in a batch
 * @batch: the batch
 * @name: the static_call, as for static_call_update()
 * @func: the new target, of the static_call's type
 */
#define static_call_batch_update(batch, name, func)			\
({									\
	typeof(STATIC_CALL_TRAMP(name)) *__F = (func);			\
	__static_call_batch_update(batch, &STATIC_CALL_KEY(name),	\
				   STATIC_CALL_TRAMP_ADDR(name), __F);	\
})

#ifdef CONFIG_JUMP_LABEL

int static_key_batch_inc(struct static_key_batch *batch,
			 struct static_key *key);
int static_key_batch_dec(struct static_key_batch *batch,
			 struct static_key *key);
int static_key_batch_enable(struct static_key_batch *batch,
			    struct static_key *key);
int static_key_batch_disable(struct static_key_batch *batch,
			     struct static_key *key);
int __static_call_batch_update(struct static_key_batch *batch,
			       struct static_call_key *key, void *tramp,
			       void *func);
int static_key_batch_apply(struct static_key_batch *batch);
void static_key_batch_discard(struct static_key_batch *batch);

void static_key_batch_get_stats(struct static_key_batch_stats *stats);
unsigned int static_key_batch_max(void);

/**
 * struct jump_label_batch_site - one site to patch in a batch apply
 * @addr: address of the instruction
 * @entry: the jump table entry of a jump site, NULL for a static_call
 * @type: the instruction a jump site needs
 * @func: new target of a static_call trampoline or call site
 * @tramp: @addr is a static_call trampoline
 * @tail: @addr is a static_call tail-call site
 */
struct jump_label_batch_site {
	unsigned long addr;
	struct jump_entry *entry;
	enum jump_label_type type;
	void *func;
	bool tramp;
	bool tail;
};

/*
 * Architecture hooks.  arch_jump_label_batch_apply() patches @nr sites,
 * sorted by address, @nr <= arch_jump_label_batch_max(), as one batch;
 * it hands static_call entries to arch_static_call_transform_queue().
 * The defaults patch one site at a time and count nothing.
 */
void arch_jump_label_batch_apply(struct jump_label_batch_site *sites,
				 unsigned int nr);
unsigned int arch_jump_label_batch_max(void);
unsigned long arch_jump_label_poke_batches(void);
unsigned long arch_jump_label_ipi_rounds(void);
/* For arch_jump_label_batch_apply(): what its batch cost. */
void jump_label_batch_account(unsigned long batches, unsigned long ipi_rounds);

#else /* !CONFIG_JUMP_LABEL */

/*
 * Key changes are plain atomic updates here: apply each at once, with
 * the checks static_key_batch_apply() makes.
 */
static inline int static_key_batch_refuse(struct static_key_batch *batch)
{
	batch->refused++;
	return 0;
}

static inline int static_key_batch_inc(struct static_key_batch *batch,
				       struct static_key *key)
{
	return static_key_slow_inc(key) ? 0 : static_key_batch_refuse(batch);
}

static inline int static_key_batch_dec(struct static_key_batch *batch,
				       struct static_key *key)
{
	if (atomic_read(&key->enabled) <= 0)
		return static_key_batch_refuse(batch);
	static_key_slow_dec(key);
	return 0;
}

static inline int static_key_batch_enable(struct static_key_batch *batch,
					  struct static_key *key)
{
	if (atomic_read(&key->enabled) > 1)
		return static_key_batch_refuse(batch);
	static_key_enable(key);
	return 0;
}

static inline int static_key_batch_disable(struct static_key_batch *batch,
					   struct static_key *key)
{
	if (atomic_read(&key->enabled) > 1)
		return static_key_batch_refuse(batch);
	static_key_disable(key);
	return 0;
}

static inline int __static_call_batch_update(struct static_key_batch *batch,
					     struct static_call_key *key,
					     void *tramp, void *func)
{
	__static_call_update(key, tramp, func);
	return 0;
}

static inline int static_key_batch_apply(struct static_key_batch *batch)
{
	unsigned int refused = batch->refused;

	batch->refused = 0;
	return refused ? -EINVAL : 0;
}

static inline void static_key_batch_discard(struct static_key_batch *batch)
{
	batch->refused = 0;
}

static inline void static_key_batch_get_stats(struct static_key_batch_stats *stats)
{
	*stats = (struct static_key_batch_stats){ };
}

static inline unsigned int static_key_batch_max(void)
{
	return 0;
}

#endif /* CONFIG_JUMP_LABEL */

/*
 * The architecture's queue hook for static_call pokes, the counterpart of
 * arch_jump_label_transform_queue(): queue one poke a static key batch
 * collected (a trampoline if @tramp, else a call site) into the text_poke
 * batch arch_jump_label_batch_apply() builds and finishes.  Called only
 * from there, with text_mutex held.
 */
void arch_static_call_transform_queue(void *insn, bool tramp, void *func,
				      bool tail);

#endif /* _LINUX_JUMP_LABEL_BATCH_H */
