// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for static key batches with keys in a module.
 *
 * The keys here live in this module (struct static_key entries point at
 * this module's jump table), and static_key_batch_kunit_shared is a vmlinux
 * key with sites both in vmlinux and here (its sites hang off a
 * struct static_key_mod list).  One batch flips both kinds.
 */
#include <kunit/test.h>
#include <linux/jump_label_batch.h>
#include <linux/kernel.h>
#include <linux/math.h>
#include <linux/module.h>
#include <linux/string.h>

#include "jump_label_batch_kunit.h"

#define MOD_NR_KEYS	300
/* In this module, as many again in vmlinux. */
#define SHARED_SITES	BATCH_KUNIT_SHARED_SITES

static struct static_key_false mod_keys[MOD_NR_KEYS] = {
	[0 ... MOD_NR_KEYS - 1] = STATIC_KEY_FALSE_INIT,
};

static __always_inline void mkeys_1(u8 *hit, unsigned int i)
{
	hit[i] = static_branch_unlikely(&mod_keys[i]);
}

static __always_inline void mkeys_4(u8 *hit, unsigned int i)
{
	mkeys_1(hit, i);
	mkeys_1(hit, i + 1);
	mkeys_1(hit, i + 2);
	mkeys_1(hit, i + 3);
}

static __always_inline void mkeys_20(u8 *hit, unsigned int i)
{
	mkeys_4(hit, i);
	mkeys_4(hit, i + 4);
	mkeys_4(hit, i + 8);
	mkeys_4(hit, i + 12);
	mkeys_4(hit, i + 16);
}

static __always_inline void mkeys_100(u8 *hit, unsigned int i)
{
	mkeys_20(hit, i);
	mkeys_20(hit, i + 20);
	mkeys_20(hit, i + 40);
	mkeys_20(hit, i + 60);
	mkeys_20(hit, i + 80);
}

static noinline void run_mod_keys(u8 *hit)
{
	mkeys_100(hit, 0);
	mkeys_100(hit, 100);
	mkeys_100(hit, 200);
}

static noinline unsigned int run_shared(void)
{
	return static_branch_unlikely(&static_key_batch_kunit_shared) +
	       static_branch_unlikely(&static_key_batch_kunit_shared) +
	       static_branch_likely(&static_key_batch_kunit_shared) +
	       static_branch_unlikely(&static_key_batch_kunit_shared);
}

struct mod_batch_case {
	const char *name;
	unsigned int nr_keys;	/* module keys to flip */
	bool shared;		/* flip the vmlinux key too */
};

static const struct mod_batch_case mod_batch_cases[] = {
	{ "1 module key", 1, false },
	{ "300 module keys", 300, false },
	{ "vmlinux key with module sites", 0, true },
	{ "300 module keys and a vmlinux key", 300, true },
};

static void mod_batch_desc(const struct mod_batch_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(mod_batch, mod_batch_cases, mod_batch_desc);

static void mod_batch_check(struct kunit *test, const struct mod_batch_case *c,
			    bool on)
{
	unsigned int i, bad_code = 0, bad_state = 0;
	u8 hit[MOD_NR_KEYS];

	run_mod_keys(hit);
	for (i = 0; i < MOD_NR_KEYS; i++) {
		bool want = on && i < c->nr_keys;

		bad_code += hit[i] != want;
		bad_state += static_key_enabled(&mod_keys[i].key) != want;
	}
	KUNIT_EXPECT_EQ(test, bad_code, 0);
	KUNIT_EXPECT_EQ(test, bad_state, 0);

	on = on && c->shared;
	KUNIT_EXPECT_EQ(test, static_key_enabled(&static_key_batch_kunit_shared),
			on);
	KUNIT_EXPECT_EQ(test, run_shared(), on ? SHARED_SITES : 0);
	KUNIT_EXPECT_EQ(test, static_key_batch_kunit_shared_run(),
			on ? SHARED_SITES : 0);
}

static void mod_batch_flip(struct kunit *test, const struct mod_batch_case *c,
			   bool on)
{
	unsigned int i, sites = c->nr_keys + (c->shared ? 2 * SHARED_SITES : 0);
	DEFINE_STATIC_KEY_BATCH(batch);
	struct static_key_batch_stats a, b;
	int ret = 0;

	static_key_batch_get_stats(&a);
	for (i = 0; i < c->nr_keys && !ret; i++) {
		if (on)
			ret = static_branch_batch_inc(&batch, &mod_keys[i]);
		else
			ret = static_branch_batch_dec(&batch, &mod_keys[i]);
	}
	if (c->shared && !ret) {
		if (on)
			ret = static_branch_batch_enable(&batch,
							 &static_key_batch_kunit_shared);
		else
			ret = static_branch_batch_disable(&batch,
							  &static_key_batch_kunit_shared);
	}
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_ASSERT_EQ(test, static_key_batch_apply(&batch), 0);
	static_key_batch_get_stats(&b);

	mod_batch_check(test, c, on);
	BATCH_EXPECT_COUNT(test, b.own_batches - a.own_batches,
			   DIV_ROUND_UP(sites, static_key_batch_max()));
	BATCH_EXPECT_COUNT(test, b.own_ipi_rounds - a.own_ipi_rounds,
			   3 * DIV_ROUND_UP(sites, static_key_batch_max()));
	batch_kunit_counts_done(test);
}

static void mod_batch_test(struct kunit *test)
{
	const struct mod_batch_case *c = test->param_value;

	mod_batch_check(test, c, false);
	mod_batch_flip(test, c, true);
	mod_batch_flip(test, c, false);
}

/*
 * A change queued for a key of a module holds that module until the
 * batch is applied or discarded: while queued, the module's reference
 * count is up one per change, so that its unload fails with EWOULDBLOCK
 * instead of freeing the key under the batch.  The keys here are this
 * module's.
 */
static void mod_batch_holds_module_test(struct kunit *test)
{
	struct static_key_false *key = &mod_keys[MOD_NR_KEYS - 1];
	DEFINE_STATIC_KEY_BATCH(batch);
	int refs = module_refcount(THIS_MODULE);

	KUNIT_EXPECT_EQ(test, static_branch_batch_enable(&batch, key), 0);
	KUNIT_EXPECT_EQ(test, module_refcount(THIS_MODULE), refs + 1);
	static_key_batch_discard(&batch);
	KUNIT_EXPECT_EQ(test, module_refcount(THIS_MODULE), refs);
	KUNIT_EXPECT_FALSE(test, static_key_enabled(key));

	KUNIT_EXPECT_EQ(test, static_branch_batch_enable(&batch, key), 0);
	KUNIT_EXPECT_EQ(test, static_branch_batch_disable(&batch, key), 0);
	KUNIT_EXPECT_EQ(test, module_refcount(THIS_MODULE), refs + 2);
	KUNIT_EXPECT_EQ(test, static_key_batch_apply(&batch), 0);
	KUNIT_EXPECT_EQ(test, module_refcount(THIS_MODULE), refs);
	KUNIT_EXPECT_FALSE(test, static_key_enabled(key));
}

static struct kunit_case mod_batch_test_cases[] = {
	KUNIT_CASE_PARAM(mod_batch_test, mod_batch_gen_params),
	KUNIT_CASE(mod_batch_holds_module_test),
	{}
};

static struct kunit_suite mod_batch_suite = {
	.name = "static_key_batch_module",
	.test_cases = mod_batch_test_cases,
};

kunit_test_suite(mod_batch_suite);

MODULE_DESCRIPTION("KUnit tests for static key batches on module keys");
MODULE_LICENSE("GPL");
