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
 * parameter: "queue_key" queues the owner's key to be enabled in the
 * static key batch, "queue_tp" registers a probe on its tracepoint in the
 * tracepoint batch, "apply" applies both in one static key batch,
 * "discard" discards both, "fire" hits the tracepoint.  The "state"
 * parameter reads "<owner> <key> <probe> <tracepoint> <hits>": whether
 * an owner is there, its key is on, the probe is registered, the
 * tracepoint is on, and how many times the probe ran.
 *
 * A second probe registers and unregisters without a batch: "plain_tp"
 * and "unplain_tp"; "unqueue_tp" unregisters the first without one.  The
 * "plain" parameter reads "<probe> <hits>" for the second probe.
 */

#include <linux/atomic.h>
#include <linux/bug.h>
#include <linux/jump_label.h>
#include <linux/jump_label_batch.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/tracepoint.h>
#include <linux/tracepoint_batch.h>

#include "test_static_key_batch.h"

static DEFINE_MUTEX(skbh_lock);
static struct test_static_key_batch_owner *skbh_owner;
static DEFINE_STATIC_KEY_BATCH(skbh_keys);
static DEFINE_TRACEPOINT_BATCH(skbh_tps);
static bool skbh_probe_on;
static atomic_t skbh_hits = ATOMIC_INIT(0);
static bool skbh_plain_on;
static atomic_t skbh_plain_hits = ATOMIC_INIT(0);

static void skbh_probe(void *data, int n)
{
	atomic_inc(&skbh_hits);
}

static void skbh_plain_probe(void *data, int n)
{
	atomic_inc(&skbh_plain_hits);
}

/* Under skbh_lock: end both batches without patching the owner's key. */
static void skbh_discard(void)
{
	static_key_batch_discard(&skbh_keys);
	tracepoint_batch_discard(&skbh_tps);
}

void test_static_key_batch_offer(struct test_static_key_batch_owner *owner)
{
	guard(mutex)(&skbh_lock);
	skbh_owner = owner;
}
EXPORT_SYMBOL_FOR_MODULES(test_static_key_batch_offer,
			  "test_static_key_batch_owner");

/*
 * From the owner's exit, which runs only once no batch holds the owner:
 * a batch still open here lost its hold, and would patch the owner's
 * freed key and tracepoint; end it while they are still there.
 */
void test_static_key_batch_withdraw(struct test_static_key_batch_owner *owner)
{
	guard(mutex)(&skbh_lock);
	if (skbh_owner != owner)
		return;
	if (WARN_ON_ONCE(skbh_keys.nr || skbh_tps.nr))
		skbh_discard();
	if (skbh_probe_on)
		tracepoint_probe_unregister(owner->tp, skbh_probe, NULL);
	if (skbh_plain_on)
		tracepoint_probe_unregister(owner->tp, skbh_plain_probe, NULL);
	if (skbh_probe_on || skbh_plain_on)
		tracepoint_synchronize_unregister();
	skbh_probe_on = false;
	skbh_plain_on = false;
	skbh_owner = NULL;
}
EXPORT_SYMBOL_FOR_MODULES(test_static_key_batch_withdraw,
			  "test_static_key_batch_owner");

static int skbh_queue_tp(void)
{
	int ret;

	if (skbh_probe_on)
		return -EBUSY;
	ret = tracepoint_probe_register_batch(&skbh_tps, skbh_owner->tp,
					      skbh_probe, NULL);
	if (!ret)
		skbh_probe_on = true;
	return ret;
}

/* Without a batch: @on says whether @probe is registered. */
static int skbh_plain(void (*probe)(void *data, int n), bool *on, bool reg)
{
	int ret;

	if (*on == reg)
		return reg ? -EBUSY : -ENOENT;
	if (reg)
		ret = tracepoint_probe_register(skbh_owner->tp, probe, NULL);
	else
		ret = tracepoint_probe_unregister(skbh_owner->tp, probe, NULL);
	if (!ret)
		*on = reg;
	return ret;
}

static int skbh_step_set(const char *val, const struct kernel_param *kp)
{
	guard(mutex)(&skbh_lock);
	if (sysfs_streq(val, "apply")) {
		/* The key with the tracepoints, in one static key batch. */
		return tracepoint_batch_apply(&skbh_tps, &skbh_keys);
	}
	if (sysfs_streq(val, "discard")) {
		skbh_discard();
		return 0;
	}
	if (!skbh_owner)
		return -ENODEV;
	if (sysfs_streq(val, "queue_key"))
		return static_key_batch_enable(&skbh_keys, skbh_owner->key);
	if (sysfs_streq(val, "queue_tp"))
		return skbh_queue_tp();
	if (sysfs_streq(val, "unqueue_tp"))
		return skbh_plain(skbh_probe, &skbh_probe_on, false);
	if (sysfs_streq(val, "plain_tp"))
		return skbh_plain(skbh_plain_probe, &skbh_plain_on, true);
	if (sysfs_streq(val, "unplain_tp"))
		return skbh_plain(skbh_plain_probe, &skbh_plain_on, false);
	if (sysfs_streq(val, "fire")) {
		skbh_owner->fire(1);
		return 0;
	}
	return -EINVAL;
}

static const struct kernel_param_ops skbh_step_ops = {
	.set = skbh_step_set,
};
module_param_cb(step, &skbh_step_ops, NULL, 0200);
MODULE_PARM_DESC(step, "queue_key, queue_tp, apply, discard, fire, unqueue_tp, plain_tp or unplain_tp");

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

static int skbh_plain_get(char *buf, const struct kernel_param *kp)
{
	guard(mutex)(&skbh_lock);
	return sysfs_emit(buf, "%d %d\n", skbh_plain_on,
			  atomic_read(&skbh_plain_hits));
}

static const struct kernel_param_ops skbh_plain_ops = {
	.get = skbh_plain_get,
};
module_param_cb(plain, &skbh_plain_ops, NULL, 0400);
MODULE_PARM_DESC(plain, "second probe: registered, hits");

static int __init skbh_init(void)
{
	/* The probe has the owner's tracepoint's prototype (kCFI). */
	check_trace_callback_type_test_static_key_batch_owner_tp(skbh_probe);
	check_trace_callback_type_test_static_key_batch_owner_tp(skbh_plain_probe);
	return 0;
}
module_init(skbh_init);

/* The owner depends on this module: it is gone, and so are the batches. */
static void __exit skbh_exit(void)
{
}
module_exit(skbh_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Static key batch test: batches that hold another module");
