// SPDX-License-Identifier: GPL-2.0
/*
 * Test module: owns a static key and a tracepoint that
 * test_static_key_batch_hold queues in its batches, so that the
 * static_keys kselftest can try to unload it while a batch holds them.
 */

#include <linux/jump_label.h>
#include <linux/module.h>
#include <linux/tracepoint.h>

#include "test_static_key_batch.h"

DEFINE_TRACE(test_static_key_batch_owner_tp, TP_PROTO(int n), TP_ARGS(n));

static DEFINE_STATIC_KEY_FALSE(skbo_key);

static void skbo_fire(int n)
{
	/* A site, so that static_keys/keys and sites list the key. */
	if (static_branch_unlikely(&skbo_key))
		n = -n;
	trace_test_static_key_batch_owner_tp(n);
}

static struct test_static_key_batch_owner skbo = {
	.key	= &skbo_key.key,
	.tp	= &__tracepoint_test_static_key_batch_owner_tp,
	.fire	= skbo_fire,
};

static int __init skbo_init(void)
{
	test_static_key_batch_offer(&skbo);
	return 0;
}
module_init(skbo_init);

/*
 * Runs only once no batch holds the module: the holder unregisters its
 * probe from the tracepoint before the tracepoint goes away.
 */
static void __exit skbo_exit(void)
{
	test_static_key_batch_withdraw(&skbo);
}
module_exit(skbo_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Static key batch test: the owner of a queued key and tracepoint");
