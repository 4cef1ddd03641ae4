/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared between the built-in static key batch tests and the
 * module ones: a vmlinux key with sites in vmlinux and in the module.
 */
#ifndef _KERNEL_TESTS_JUMP_LABEL_BATCH_KUNIT_H
#define _KERNEL_TESTS_JUMP_LABEL_BATCH_KUNIT_H

#include <kunit/test.h>
#include <linux/jump_label.h>
#include <linux/jump_label_batch.h>
#include <linux/limits.h>

#define BATCH_KUNIT_SHARED_SITES	4

DECLARE_STATIC_KEY_FALSE(static_key_batch_kunit_shared);
unsigned int static_key_batch_kunit_shared_run(void);

/*
 * Text-poke batches and IPI rounds are counted by the architectures that
 * patch a static key batch in text_poke batches of their own (x86);
 * elsewhere the counters stay 0 and the batch size is unbounded.
 */
static inline bool batch_kunit_counts(void)
{
	return IS_ENABLED(CONFIG_JUMP_LABEL) &&
	       static_key_batch_max() != UINT_MAX;
}

/* Expect @left == @right where the architecture counts batches. */
#define BATCH_EXPECT_COUNT(test, left, right)				\
do {									\
	if (batch_kunit_counts())						\
		KUNIT_EXPECT_EQ(test, left, right);			\
} while (0)

/*
 * End of a case that checked counts with BATCH_EXPECT_COUNT(): where they
 * were left out, a case that passed the rest says so as a skip.
 */
static inline void batch_kunit_counts_done(struct kunit *test)
{
	if (!batch_kunit_counts() && test->status == KUNIT_SUCCESS)
		kunit_mark_skipped(test,
				   "batches and IPI rounds are counted on x86 only");
}

#endif /* _KERNEL_TESTS_JUMP_LABEL_BATCH_KUNIT_H */
