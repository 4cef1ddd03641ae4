// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for raw tracepoint programs on markers.  Included by
 * bpf_markers.c (CONFIG_MARKERS_KUNIT_TEST) to reach its descriptors.
 *
 * Only bpf_raw_tp_link_attach() may find a marker, for untyped programs:
 * bpf_get_raw_tracepoint(), which the verifier and BTF-typed programs
 * take as the tracepoint whose BTF prototype types their arguments, must
 * not return one.
 */
#include <kunit/test.h>
#include <linux/align.h>

#define BMK_MARKER	"bpf_markers_kunit_m"

static noinline void bmk_hit(int a, unsigned long long b, const void *p)
{
	MARK(bpf_markers_kunit_m, "a=%d b=%llu p=%p", a, b, p);
}

static void bpf_marker_lookup_test(struct kunit *test)
{
	struct bpf_raw_event_map *btp;

	bmk_hit(1, 2, test);

	/* The typed lookup sees tracepoints only. */
	btp = bpf_get_raw_tracepoint(BMK_MARKER);
	if (btp)
		bpf_put_raw_tracepoint(btp);
	KUNIT_EXPECT_NULL(test, btp);

	btp = bpf_get_raw_marker(BMK_MARKER);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, btp);
	KUNIT_EXPECT_TRUE(test, bpf_is_raw_marker(btp));
	KUNIT_EXPECT_STREQ(test, btp->tp->name, BMK_MARKER);
	KUNIT_EXPECT_EQ(test, btp->num_args, 3);
	KUNIT_EXPECT_EQ(test, btp->writable_size, 0);
	KUNIT_EXPECT_TRUE(test, IS_ALIGNED((unsigned long)btp,
					   __alignof__(struct bpf_raw_event_map)));
	KUNIT_EXPECT_STREQ(test, bpf_marker_tp(btp)->format,
			   "a=%d b=%llu p=%p");
	/* bpf_put_raw_tracepoint() tells it from a tracepoint's. */
	bpf_put_raw_tracepoint(btp);

	KUNIT_EXPECT_NULL(test, bpf_get_raw_marker("bpf_markers_kunit_none"));
}

static struct kunit_case bpf_markers_kunit_cases[] = {
	KUNIT_CASE(bpf_marker_lookup_test),
	{}
};

static struct kunit_suite bpf_markers_kunit_suite = {
	.name = "markers_bpf",
	.test_cases = bpf_markers_kunit_cases,
};

kunit_test_suite(bpf_markers_kunit_suite);
