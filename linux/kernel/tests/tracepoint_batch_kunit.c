// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for tracepoint batches: at every step of a batch, the key
 * and the static call of a tracepoint must be safe for the probe array a
 * site reads, and after the apply they must be what the unbatched
 * registrations would have left.
 *
 * The tracepoint tpb_kunit_tp, defined here, has three probes that log
 * each call and count calls that got another probe's data.
 */

#include <kunit/test.h>
#include <linux/jump_label.h>
#include <linux/static_call.h>
#include <linux/tracepoint.h>
#include <linux/tracepoint_batch.h>

DECLARE_TRACE(tpb_kunit, TP_PROTO(int a), TP_ARGS(a));
DEFINE_TRACE(tpb_kunit_tp, TP_PROTO(int a), TP_ARGS(a));

#define tpb_tp	__tracepoint_tpb_kunit_tp

struct tpb_probe_data {
	int calls;
	int wrong_data;
};

static struct tpb_probe_data tpb_data[3];
/* Probes registered, as a bit mask, and the batch of the test. */
static unsigned int tpb_registered;
static struct tracepoint_batch tpb_batch;

static void tpb_probe0(void *data, int a)
{
	tpb_data[0].calls++;
	if (data != &tpb_data[0])
		tpb_data[0].wrong_data++;
}

static void tpb_probe1(void *data, int a)
{
	tpb_data[1].calls++;
	if (data != &tpb_data[1])
		tpb_data[1].wrong_data++;
}

static void tpb_probe2(void *data, int a)
{
	tpb_data[2].calls++;
	if (data != &tpb_data[2])
		tpb_data[2].wrong_data++;
}

static void (* const tpb_probes[])(void *data, int a) = {
	tpb_probe0, tpb_probe1, tpb_probe2,
};

/*
 * tpb_kunit_fn_tp has a regfunc and an unregfunc that retarget a static
 * call of their own, as lock:contended_release's retarget the spinlock
 * unlock on x86 (tracepoint_regfunc_static_call_update()).
 */
DECLARE_TRACE(tpb_kunit_fn, TP_PROTO(int a), TP_ARGS(a));

static int tpb_call_off(void)
{
	return 0;
}

static int tpb_call_on(void)
{
	return 1;
}

DEFINE_STATIC_CALL(tpb_kunit_call, tpb_call_off);

static int tpb_fn_regfuncs;
static bool tpb_fn_fail;
static bool tpb_fn_fail_first;

static int tpb_fn_reg(void)
{
	/* As a regfunc whose first allocation fails. */
	if (tpb_fn_fail_first)
		return -ENOMEM;
	tracepoint_regfunc_static_call_update(tpb_kunit_call, tpb_call_on);
	if (tpb_fn_fail) {
		/* A regfunc that fails undoes its retarget. */
		tracepoint_regfunc_static_call_update(tpb_kunit_call,
						      tpb_call_off);
		return -ENOMEM;
	}
	tpb_fn_regfuncs++;
	return 0;
}

static void tpb_fn_unreg(void)
{
	tpb_fn_regfuncs--;
	tracepoint_regfunc_static_call_update(tpb_kunit_call, tpb_call_off);
}

DEFINE_TRACE_FN(tpb_kunit_fn_tp, tpb_fn_reg, tpb_fn_unreg, TP_PROTO(int a),
		TP_ARGS(a));

#define tpb_fn_tp	__tracepoint_tpb_kunit_fn_tp

static bool tpb_fn_registered;

static int tpb_fn_register(struct tracepoint_batch *batch)
{
	int ret;

	ret = tracepoint_probe_register_batch(batch, &tpb_fn_tp, tpb_probe0,
					      &tpb_data[0]);
	if (!ret)
		tpb_fn_registered = true;
	return ret;
}

static int tpb_fn_unregister(struct tracepoint_batch *batch)
{
	int ret;

	ret = tracepoint_probe_unregister_batch(batch, &tpb_fn_tp, tpb_probe0,
						&tpb_data[0]);
	if (!ret)
		tpb_fn_registered = false;
	return ret;
}

/* Hit the tracepoint once; return which probes ran, as a bit mask. */
static int tpb_hit(struct kunit *test)
{
	int before[3] = { tpb_data[0].calls, tpb_data[1].calls,
			  tpb_data[2].calls };

	trace_tpb_kunit_tp(1);
	KUNIT_EXPECT_EQ(test, tpb_data[0].wrong_data, 0);
	KUNIT_EXPECT_EQ(test, tpb_data[1].wrong_data, 0);
	KUNIT_EXPECT_EQ(test, tpb_data[2].wrong_data, 0);
	return (tpb_data[0].calls != before[0]) |
	       (tpb_data[1].calls != before[1]) << 1 |
	       (tpb_data[2].calls != before[2]) << 2;
}

static bool tpb_key_on(void)
{
	return static_key_enabled(&tpb_tp.key);
}

/* What the static call reaches: 0 to 2 for a probe, -1 the iterator. */
static int tpb_target(void)
{
	void *func = READ_ONCE(tpb_tp.static_call_key->func);
	int i;

	for (i = 0; i < ARRAY_SIZE(tpb_probes); i++)
		if (func == tpb_probes[i])
			return i;
	return func == tpb_tp.iterator ? -1 : -2;
}

static int tpb_reg(struct tracepoint_batch *batch, int i)
{
	int ret;

	ret = tracepoint_probe_register_batch(batch, &tpb_tp, tpb_probes[i],
					      &tpb_data[i]);
	if (!ret)
		tpb_registered |= BIT(i);
	return ret;
}

static int tpb_unreg(struct tracepoint_batch *batch, int i)
{
	int ret;

	ret = tracepoint_probe_unregister_batch(batch, &tpb_tp, tpb_probes[i],
						&tpb_data[i]);
	if (!ret)
		tpb_registered &= ~BIT(i);
	return ret;
}

static int tpb_apply(void)
{
	return tracepoint_batch_apply(&tpb_batch, NULL);
}

static int tpb_init(struct kunit *test)
{
	memset(tpb_data, 0, sizeof(tpb_data));
	tpb_registered = 0;
	tpb_fn_registered = false;
	tpb_fn_fail = false;
	tpb_fn_fail_first = false;
	tpb_batch = (struct tracepoint_batch){ };
	if (!tpb_tp.static_call_key)
		kunit_skip(test, "tracepoint without a static call");
	KUNIT_ASSERT_FALSE(test, tpb_key_on());
	return 0;
}

/* Also after a failed step: leave no probe and no batch behind. */
static void tpb_exit(struct kunit *test)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(tpb_probes); i++)
		if (tpb_registered & BIT(i))
			tpb_unreg(NULL, i);
	if (tpb_fn_registered)
		tpb_fn_unregister(NULL);
	tpb_apply();
	tracepoint_synchronize_unregister();
}

/* 0 -> 1: nothing runs until the apply, then the probe is called directly. */
static void tpb_enable_test(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, tpb_reg(&tpb_batch, 0), 0);
	KUNIT_EXPECT_FALSE(test, tpb_key_on());
	KUNIT_EXPECT_EQ(test, tpb_target(), -1);
	KUNIT_EXPECT_EQ(test, tpb_hit(test), 0);
	KUNIT_EXPECT_EQ(test, tpb_apply(), 0);
	KUNIT_EXPECT_TRUE(test, tpb_key_on());
	KUNIT_EXPECT_EQ(test, tpb_target(), 0);
	KUNIT_EXPECT_EQ(test, tpb_hit(test), 1);
}

/*
 * 1 -> 2 on a live tracepoint: the first probe keeps the first slot, so the
 * static call keeps reaching it with its data until the apply moves it to
 * the iterator; 2 -> 1 keeps the iterator until the apply; 1 -> 0
 * publishes the empty array at once, so no probe runs, and the apply
 * switches the key off.
 */
static void tpb_steps_test(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, tpb_reg(NULL, 0), 0);
	KUNIT_ASSERT_EQ(test, tpb_target(), 0);

	KUNIT_ASSERT_EQ(test, tpb_reg(&tpb_batch, 1), 0);
	KUNIT_EXPECT_EQ(test, tpb_target(), 0);
	/* Without static calls, a site always runs the iterator. */
	KUNIT_EXPECT_EQ(test, tpb_hit(test),
			IS_ENABLED(CONFIG_HAVE_STATIC_CALL) ? 1 : 3);
	KUNIT_EXPECT_EQ(test, tpb_apply(), 0);
	KUNIT_EXPECT_EQ(test, tpb_target(), -1);
	KUNIT_EXPECT_EQ(test, tpb_hit(test), 3);

	KUNIT_ASSERT_EQ(test, tpb_unreg(&tpb_batch, 0), 0);
	KUNIT_EXPECT_EQ(test, tpb_target(), -1);
	KUNIT_EXPECT_EQ(test, tpb_hit(test), 2);
	KUNIT_EXPECT_EQ(test, tpb_apply(), 0);
	KUNIT_EXPECT_EQ(test, tpb_target(), 1);
	KUNIT_EXPECT_EQ(test, tpb_hit(test), 2);

	KUNIT_ASSERT_EQ(test, tpb_unreg(&tpb_batch, 1), 0);
	KUNIT_EXPECT_TRUE(test, tpb_key_on());
	KUNIT_EXPECT_EQ(test, tpb_hit(test), 0);
	KUNIT_EXPECT_EQ(test, tpb_apply(), 0);
	KUNIT_EXPECT_FALSE(test, tpb_key_on());
	KUNIT_EXPECT_EQ(test, tpb_target(), -1);
}

/*
 * 1 -> 0 -> 1 with another probe in one batch: the key is still on and the
 * static call still reaches the first probe when the second one's array
 * is published, so the static call must reach the iterator first.
 */
static void tpb_swap_test(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, tpb_reg(NULL, 0), 0);
	KUNIT_ASSERT_EQ(test, tpb_unreg(&tpb_batch, 0), 0);
	KUNIT_EXPECT_EQ(test, tpb_target(), 0);
	KUNIT_ASSERT_EQ(test, tpb_reg(&tpb_batch, 1), 0);
	KUNIT_EXPECT_EQ(test, tpb_target(), -1);
	KUNIT_EXPECT_EQ(test, tpb_hit(test), 2);
	KUNIT_EXPECT_EQ(test, tpb_apply(), 0);
	KUNIT_EXPECT_TRUE(test, tpb_key_on());
	KUNIT_EXPECT_EQ(test, tpb_target(), 1);
	KUNIT_EXPECT_EQ(test, tpb_hit(test), 2);
}

/*
 * While the static call still reaches the first probe after a batched
 * 1 -> 2, that probe leaves: the static call must reach the iterator
 * before the array holding only the second probe is published, with or
 * without a batch.
 */
static void tpb_first_leaves_test(struct kunit *test)
{
	int batched;

	for (batched = 0; batched < 2; batched++) {
		KUNIT_ASSERT_EQ(test, tpb_reg(NULL, 0), 0);
		KUNIT_ASSERT_EQ(test, tpb_reg(&tpb_batch, 1), 0);
		KUNIT_ASSERT_EQ(test, tpb_target(), 0);
		KUNIT_ASSERT_EQ(test, tpb_unreg(batched ? &tpb_batch : NULL, 0),
				0);
		KUNIT_EXPECT_EQ(test, tpb_target(), batched ? -1 : 1);
		KUNIT_EXPECT_EQ(test, tpb_hit(test), 2);
		KUNIT_EXPECT_EQ(test, tpb_apply(), 0);
		KUNIT_EXPECT_EQ(test, tpb_target(), 1);
		KUNIT_EXPECT_EQ(test, tpb_hit(test), 2);
		KUNIT_ASSERT_EQ(test, tpb_unreg(NULL, 1), 0);
		KUNIT_EXPECT_FALSE(test, tpb_key_on());
	}
}

/*
 * Registrations without a batch while the tracepoint waits in one make
 * their change at once, the key included; the apply then finds the state
 * they left.
 */
static void tpb_mixed_test(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, tpb_reg(&tpb_batch, 0), 0);
	KUNIT_EXPECT_FALSE(test, tpb_key_on());
	KUNIT_ASSERT_EQ(test, tpb_reg(NULL, 1), 0);
	KUNIT_EXPECT_TRUE(test, tpb_key_on());
	KUNIT_EXPECT_EQ(test, tpb_target(), -1);
	KUNIT_EXPECT_EQ(test, tpb_hit(test), 3);
	KUNIT_EXPECT_EQ(test, tpb_apply(), 0);
	KUNIT_EXPECT_TRUE(test, tpb_key_on());
	KUNIT_EXPECT_EQ(test, tpb_target(), -1);
	KUNIT_EXPECT_EQ(test, tpb_hit(test), 3);

	KUNIT_ASSERT_EQ(test, tpb_unreg(&tpb_batch, 0), 0);
	KUNIT_ASSERT_EQ(test, tpb_unreg(NULL, 1), 0);
	KUNIT_EXPECT_FALSE(test, tpb_key_on());
	KUNIT_EXPECT_EQ(test, tpb_hit(test), 0);
	KUNIT_EXPECT_EQ(test, tpb_apply(), 0);
	KUNIT_EXPECT_FALSE(test, tpb_key_on());
	KUNIT_EXPECT_EQ(test, tpb_target(), -1);
}

/*
 * A third probe after a batched 1 -> 2 that left the static call on the
 * first probe: with or without a batch, the third probe is called at
 * once, as tracepoint_probe_register() promises, so the static call
 * must reach the iterator before the array of three is published.
 */
static void tpb_third_test(struct kunit *test)
{
	int batched;

	for (batched = 0; batched < 2; batched++) {
		KUNIT_ASSERT_EQ(test, tpb_reg(NULL, 0), 0);
		KUNIT_ASSERT_EQ(test, tpb_reg(&tpb_batch, 1), 0);
		KUNIT_ASSERT_EQ(test, tpb_target(), 0);
		KUNIT_ASSERT_EQ(test, tpb_reg(batched ? &tpb_batch : NULL, 2),
				0);
		KUNIT_EXPECT_EQ(test, tpb_target(), -1);
		KUNIT_EXPECT_EQ(test, tpb_hit(test), 7);
		KUNIT_EXPECT_EQ(test, tpb_apply(), 0);
		KUNIT_EXPECT_EQ(test, tpb_target(), -1);
		KUNIT_EXPECT_EQ(test, tpb_hit(test), 7);
		KUNIT_ASSERT_EQ(test, tpb_unreg(NULL, 2), 0);
		KUNIT_ASSERT_EQ(test, tpb_unreg(NULL, 1), 0);
		KUNIT_ASSERT_EQ(test, tpb_unreg(NULL, 0), 0);
		KUNIT_EXPECT_FALSE(test, tpb_key_on());
	}
}

/*
 * A discarded batch switches each tracepoint at once, to what the apply
 * would have left: 0 -> 1 turns the key on and calls the probe directly,
 * 1 -> 2 moves the static call to the iterator, 1 -> 0 turns the key off,
 * and 2 -> 1 retargets the static call to the probe left, with its data.
 */
static void tpb_discard_test(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, tpb_reg(&tpb_batch, 0), 0);
	KUNIT_EXPECT_FALSE(test, tpb_key_on());
	tracepoint_batch_discard(&tpb_batch);
	KUNIT_EXPECT_EQ(test, tpb_batch.nr, 0);
	KUNIT_EXPECT_TRUE(test, tpb_key_on());
	KUNIT_EXPECT_EQ(test, tpb_target(), 0);
	KUNIT_EXPECT_EQ(test, tpb_hit(test), 1);

	KUNIT_ASSERT_EQ(test, tpb_reg(&tpb_batch, 1), 0);
	tracepoint_batch_discard(&tpb_batch);
	KUNIT_EXPECT_EQ(test, tpb_target(), -1);
	KUNIT_EXPECT_EQ(test, tpb_hit(test), 3);

	KUNIT_ASSERT_EQ(test, tpb_unreg(&tpb_batch, 0), 0);
	KUNIT_ASSERT_EQ(test, tpb_unreg(&tpb_batch, 1), 0);
	KUNIT_EXPECT_TRUE(test, tpb_key_on());
	tracepoint_batch_discard(&tpb_batch);
	KUNIT_EXPECT_FALSE(test, tpb_key_on());
	KUNIT_EXPECT_EQ(test, tpb_target(), -1);
	KUNIT_EXPECT_EQ(test, tpb_hit(test), 0);

	/* 2 -> 1 leaving the second probe: it is reached after the wait. */
	KUNIT_ASSERT_EQ(test, tpb_reg(NULL, 0), 0);
	KUNIT_ASSERT_EQ(test, tpb_reg(NULL, 1), 0);
	KUNIT_ASSERT_EQ(test, tpb_unreg(&tpb_batch, 0), 0);
	KUNIT_EXPECT_EQ(test, tpb_target(), -1);
	tracepoint_batch_discard(&tpb_batch);
	KUNIT_EXPECT_EQ(test, tpb_target(), 1);
	KUNIT_EXPECT_EQ(test, tpb_hit(test), 2);
}

/*
 * The static call's target, 1 on or 0 off, as static_call_query() says
 * and as a call through it finds; -1 if the two differ.
 */
static int tpb_fn_call(void)
{
	int query = static_call_query(tpb_kunit_call) == tpb_call_on;

	return static_call(tpb_kunit_call)() == query ? query : -1;
}

/* Patched by the apply: text_poke batches of static key batches. */
static unsigned long tpb_own_batches(void)
{
	struct static_key_batch_stats st;

	static_key_batch_get_stats(&st);
	return st.own_batches;
}

/*
 * A static call a regfunc retargets joins the batch: it keeps its target
 * until the apply, which patches it with the tracepoint, in one
 * text_poke batch; the last target a batch was given wins; a discard
 * retargets at once; without a batch the regfunc retargets at once; and
 * a retarget a registration without the batch made since is not undone
 * by the batch's older one, while a registration whose regfunc failed
 * leaves the batch's earlier retarget to apply.
 */
static void tpb_regfunc_call_test(struct kunit *test)
{
	unsigned long b0;
	int before;

	KUNIT_ASSERT_EQ(test, tpb_fn_register(&tpb_batch), 0);
	KUNIT_EXPECT_EQ(test, tpb_fn_regfuncs, 1);
	KUNIT_EXPECT_EQ(test, tpb_fn_call(), 0);
	KUNIT_EXPECT_EQ(test, tpb_batch.nr_calls, 1);
	b0 = tpb_own_batches();
	KUNIT_EXPECT_EQ(test, tpb_apply(), 0);
	KUNIT_EXPECT_EQ(test, tpb_fn_call(), 1);
	/*
	 * The tracepoint's key, its static call and this one: one batch,
	 * where the architecture counts them (x86, which bounds its size).
	 */
	if (IS_ENABLED(CONFIG_HAVE_STATIC_CALL_INLINE) &&
	    static_key_batch_max() != UINT_MAX)
		KUNIT_EXPECT_EQ(test, tpb_own_batches() - b0, 1);
	before = tpb_data[0].calls;
	trace_tpb_kunit_fn_tp(1);
	KUNIT_EXPECT_EQ(test, tpb_data[0].calls, before + 1);

	KUNIT_ASSERT_EQ(test, tpb_fn_unregister(&tpb_batch), 0);
	KUNIT_EXPECT_EQ(test, tpb_fn_regfuncs, 0);
	KUNIT_EXPECT_EQ(test, tpb_fn_call(), 1);
	KUNIT_EXPECT_EQ(test, tpb_apply(), 0);
	KUNIT_EXPECT_EQ(test, tpb_fn_call(), 0);

	/* On and off again in one batch: the last target wins. */
	KUNIT_ASSERT_EQ(test, tpb_fn_register(&tpb_batch), 0);
	KUNIT_ASSERT_EQ(test, tpb_fn_unregister(&tpb_batch), 0);
	KUNIT_EXPECT_EQ(test, tpb_batch.nr_calls, 1);
	KUNIT_EXPECT_EQ(test, tpb_apply(), 0);
	KUNIT_EXPECT_EQ(test, tpb_fn_call(), 0);

	/* A discarded batch retargets at once. */
	KUNIT_ASSERT_EQ(test, tpb_fn_register(&tpb_batch), 0);
	tracepoint_batch_discard(&tpb_batch);
	KUNIT_EXPECT_EQ(test, tpb_batch.nr_calls, 0);
	KUNIT_EXPECT_EQ(test, tpb_fn_call(), 1);

	/*
	 * A batch's off, then a registration without it (its regfunc
	 * retargets at once): the apply leaves the newer target.
	 */
	KUNIT_ASSERT_EQ(test, tpb_fn_unregister(&tpb_batch), 0);
	KUNIT_ASSERT_EQ(test, tpb_fn_register(NULL), 0);
	KUNIT_EXPECT_EQ(test, tpb_fn_regfuncs, 1);
	KUNIT_EXPECT_EQ(test, tpb_apply(), 0);
	KUNIT_EXPECT_EQ(test, tpb_fn_call(), 1);

	/* A regfunc failing after a batch's off: that off still applies. */
	KUNIT_ASSERT_EQ(test, tpb_fn_unregister(&tpb_batch), 0);
	tpb_fn_fail = true;
	KUNIT_EXPECT_EQ(test, tpb_fn_register(&tpb_batch), -ENOMEM);
	tpb_fn_fail = false;
	KUNIT_EXPECT_EQ(test, tpb_apply(), 0);
	KUNIT_EXPECT_EQ(test, tpb_fn_call(), 0);
	KUNIT_EXPECT_EQ(test, tpb_fn_regfuncs, 0);

	/* Without a batch, at once. */
	KUNIT_ASSERT_EQ(test, tpb_fn_register(NULL), 0);
	KUNIT_EXPECT_EQ(test, tpb_fn_call(), 1);
	KUNIT_ASSERT_EQ(test, tpb_fn_unregister(NULL), 0);
	KUNIT_EXPECT_EQ(test, tpb_fn_call(), 0);
	KUNIT_EXPECT_EQ(test, tpb_fn_regfuncs, 0);
	tracepoint_synchronize_unregister();
}

/*
 * A regfunc that fails before it retargets anything leaves the batch's
 * earlier retargets as they were: here an on that a registration made
 * without the batch has since undone, which the apply must still skip.
 */
static void tpb_regfunc_fail_first_test(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, tpb_fn_register(&tpb_batch), 0);
	KUNIT_ASSERT_EQ(test, tpb_fn_unregister(NULL), 0);
	KUNIT_EXPECT_EQ(test, tpb_fn_call(), 0);
	tpb_fn_fail_first = true;
	KUNIT_EXPECT_EQ(test, tpb_fn_register(&tpb_batch), -ENOMEM);
	tpb_fn_fail_first = false;
	KUNIT_EXPECT_EQ(test, tpb_apply(), 0);
	KUNIT_EXPECT_EQ(test, tpb_fn_call(), 0);
	KUNIT_EXPECT_EQ(test, tpb_fn_regfuncs, 0);
	tracepoint_synchronize_unregister();
}

static struct kunit_case tracepoint_batch_cases[] = {
	KUNIT_CASE(tpb_enable_test),
	KUNIT_CASE(tpb_steps_test),
	KUNIT_CASE(tpb_swap_test),
	KUNIT_CASE(tpb_first_leaves_test),
	KUNIT_CASE(tpb_mixed_test),
	KUNIT_CASE(tpb_third_test),
	KUNIT_CASE(tpb_discard_test),
	KUNIT_CASE(tpb_regfunc_call_test),
	KUNIT_CASE(tpb_regfunc_fail_first_test),
	{}
};

static struct kunit_suite tracepoint_batch_suite = {
	.name = "tracepoint_batch",
	.init = tpb_init,
	.exit = tpb_exit,
	.test_cases = tracepoint_batch_cases,
};

kunit_test_suite(tracepoint_batch_suite);

MODULE_DESCRIPTION("KUnit tests for tracepoint batches");
MODULE_LICENSE("GPL");
