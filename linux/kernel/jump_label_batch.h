/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hooks between kernel/jump_label.c, kernel/static_call_inline.c and the
 * static key batches of kernel/jump_label_batch.c; not for other users.
 */
#ifndef _KERNEL_JUMP_LABEL_BATCH_H
#define _KERNEL_JUMP_LABEL_BATCH_H

#include <linux/jump_label.h>
#include <linux/types.h>

struct jump_entry;
struct static_call_key;

/* kernel/jump_label_batch.c, for jump_label_update() */
bool jump_label_batch_collect(struct jump_entry *entry,
			      enum jump_label_type type);
bool jump_label_batch_collecting(void);

/* kernel/jump_label.c, for static_key_batch_apply() */
void jump_label_batch_update_key(struct static_key *key);

#ifdef CONFIG_HAVE_STATIC_CALL_INLINE
/* kernel/static_call_inline.c, for static_key_batch_apply() */
void static_call_update_locked(struct static_call_key *key, void *tramp,
			       void *func, bool queue);
void static_call_batch_lock(void);
void static_call_batch_unlock(void);
#else
static inline void static_call_batch_lock(void) { }
static inline void static_call_batch_unlock(void) { }
#endif

/*
 * kernel/jump_label_batch.c, for static_call_update_locked() asked to
 * queue its pokes into the batch being applied.
 */
#if defined(CONFIG_JUMP_LABEL) && defined(CONFIG_HAVE_STATIC_CALL_INLINE)
bool static_call_batch_collect(void *site, void *tramp, void *func, bool tail);
#else
static inline bool static_call_batch_collect(void *site, void *tramp,
					     void *func, bool tail)
{
	return false;
}
#endif

#endif /* _KERNEL_JUMP_LABEL_BATCH_H */
