// SPDX-License-Identifier: GPL-2.0
/*
 * Test module: a static key batch and a tracepoint batch that hold the
 * key and the tracepoint of another module, test_static_key_batch_owner,
 * from queue to apply or discard, so that
 * tools/testing/selftests/static_keys/batch_unload.sh can try to unload
 * that module under them.
 *
 * The owner offers its key and tracepoint when it loads and withdraws
 * them when it unloads.  Root drives the batches by writing the "step"
 * parameter: "queue" queues the owner's key to be enabled and registers
 * a probe on its tracepoint, both in a batch; "apply" or "discard" ends
 * both batches; "fire" hits the tracepoint.  The "state" parameter
 * reads "<owner> <key> <probe> <tracepoint> <hits>": whether an owner
 * is there, its key is on, the probe is registered, the tracepoint is
 * on, and how many times the probe ran.
 */

#include <linux/jump_label.h>
#include <linux/jump_label_batch.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/tracepoint_batch.h>

#include "test_static_key_batch.h"

static DEFINE_MUTEX(skbh_lock);
static struct test_static_key_batch_owner *skbh_owner;
static DEFINE_STATIC_KEY_BATCH(skbh_keys);
static DEFINE_TRACEPOINT_BATCH(skbh_tps);
static bool skbh_probe_on;
static atomic_t skbh_hits = ATOMIC_INIT(0);

/* Of the owner's tracepoint's prototype, void (void *, int). */
static void skbh_probe(void *data, int n)
{
	atomic_inc(&skbh_hits);
}

void test_static_key_batch_offer(struct test_static_key_batch_owner *owner)
{
	guard(mutex)(&skbh_lock);
	skbh_owner = owner;
}
EXPORT_SYMBOL_GPL(test_static_key_batch_offer);

void test_static_key_batch_withdraw(struct test_static_key_batch_owner *owner)
{
	guard(mutex)(&skbh_lock);
	if (skbh_owner != owner)
		return;
	if (skbh_probe_on) {
		tracepoint_probe_unregister(owner->tp, skbh_probe, NULL);
		tracepoint_synchronize_unregister();
		skbh_probe_on = false;
	}
	skbh_owner = NULL;
}
EXPORT_SYMBOL_GPL(test_static_key_batch_withdraw);

static int skbh_queue(void)
{
	int ret;

	if (!skbh_owner)
		return -ENODEV;
	if (skbh_probe_on)
		return -EBUSY;
	ret = static_key_batch_enable(&skbh_keys, skbh_owner->key);
	if (ret)
		return ret;
	ret = tracepoint_probe_register_batch(&skbh_tps, skbh_owner->tp,
					      skbh_probe, NULL);
	if (ret) {
		static_key_batch_discard(&skbh_keys);
		return ret;
	}
	skbh_probe_on = true;
	return 0;
}

static int skbh_step_set(const char *val, const struct kernel_param *kp)
{
	int ret = 0;

	guard(mutex)(&skbh_lock);
	if (sysfs_streq(val, "queue")) {
		ret = skbh_queue();
	} else if (sysfs_streq(val, "apply")) {
		ret = static_key_batch_apply(&skbh_keys);
		ret = tracepoint_batch_apply(&skbh_tps, NULL) ?: ret;
	} else if (sysfs_streq(val, "discard")) {
		static_key_batch_discard(&skbh_keys);
		tracepoint_batch_discard(&skbh_tps);
	} else if (sysfs_streq(val, "fire")) {
		if (!skbh_owner)
			return -ENODEV;
		skbh_owner->fire(1);
	} else {
		ret = -EINVAL;
	}
	return ret;
}

static const struct kernel_param_ops skbh_step_ops = {
	.set = skbh_step_set,
};
module_param_cb(step, &skbh_step_ops, NULL, 0200);
MODULE_PARM_DESC(step, "queue, apply, discard or fire");

static int skbh_state_get(char *buf, const struct kernel_param *kp)
{
	struct test_static_key_batch_owner *owner;

	guard(mutex)(&skbh_lock);
	owner = skbh_owner;
	return sysfs_emit(buf, "%d %d %d %d %d\n", !!owner,
			  owner && static_key_enabled(owner->key),
			  skbh_probe_on,
			  owner && static_key_enabled(&owner->tp->key),
			  atomic_read(&skbh_hits));
}

static const struct kernel_param_ops skbh_state_ops = {
	.get = skbh_state_get,
};
module_param_cb(state, &skbh_state_ops, NULL, 0400);
MODULE_PARM_DESC(state, "owner, key, probe, tracepoint and hits");

/* The owner depends on this module: it is gone, and no batch is open. */
static void __exit skbh_exit(void)
{
	static_key_batch_discard(&skbh_keys);
	tracepoint_batch_discard(&skbh_tps);
}
module_exit(skbh_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Static key batch test: batches that hold another module");
