// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the markers trace events.  Included by trace_markers.c
 * (CONFIG_MARKERS_KUNIT_TEST) to reach the events it keeps.
 *
 * A hit is recorded into a trace instance of its own, read back from the
 * instance's ring buffer and decoded as trace-cmd, perf and bpftrace
 * decode records: each field by the offset, size and signedness the event
 * declares in its format file.
 */
#include <kunit/test.h>
#include <linux/limits.h>
#include <linux/ring_buffer.h>
#include <linux/trace.h>

#define TMK_INSTANCE	"markers_kunit"
#define TMK_EVENT	"trace_markers_kunit_wide"

static noinline void tmk_hit_wide(long l, ssize_t z, unsigned long ul,
				  size_t sz, int i)
{
	MARK(trace_markers_kunit_wide, "l=%ld z=%zd ul=%lu sz=%zu i=%d",
	     l, z, ul, sz, i);
}

struct tmk_want {
	const char *name;
	unsigned int size;
	bool is_signed;
	u64 bits;	/* the value, as the tools widen it to 64 bits */
};

static struct tm_event *tmk_find_event(const char *name)
{
	struct tm_event *ev;

	guard(mutex)(&event_mutex);
	list_for_each_entry(ev, &tm_events, list)
		if (!strcmp(trace_event_name(&ev->call), name))
			return ev;
	return NULL;
}

/* Decode field @w->name of @rec by what the event declares about it. */
static void tmk_check_field(struct kunit *test, struct tm_event *ev,
			    const void *rec, unsigned int len,
			    const struct tmk_want *w)
{
	struct ftrace_event_field *f;
	const void *p;
	u64 bits;

	list_for_each_entry(f, trace_get_fields(&ev->call), link) {
		if (strcmp(f->name, w->name))
			continue;
		KUNIT_EXPECT_EQ_MSG(test, f->size, w->size, "%s", w->name);
		KUNIT_EXPECT_EQ_MSG(test, (bool)f->is_signed, w->is_signed,
				    "%s", w->name);
		KUNIT_ASSERT_LE(test, f->offset + f->size, len);
		p = rec + f->offset;
		switch (f->size) {
		case 1:
			bits = f->is_signed ? (u64)*(s8 *)p : *(u8 *)p;
			break;
		case 2:
			bits = f->is_signed ? (u64)*(s16 *)p : *(u16 *)p;
			break;
		case 4:
			bits = f->is_signed ? (u64)*(s32 *)p : *(u32 *)p;
			break;
		default:
			bits = *(u64 *)p;
			break;
		}
		KUNIT_EXPECT_EQ_MSG(test, bits, w->bits, "%s", w->name);
		return;
	}
	KUNIT_FAIL(test, "no field %s", w->name);
}

/*
 * long, size_t and ssize_t fields have their C type's size, so a 32-bit
 * kernel's -2 reads back as -2 (it read 4294967294 when every such field
 * was 8 bytes, zero-extended).
 */
static void tm_event_long_fields_test(struct kunit *test)
{
	const struct tmk_want want[] = {
		{ "l", sizeof(long), true, (u64)-2 },
		{ "z", sizeof(ssize_t), true, (u64)-3 },
		{ "ul", sizeof(long), false, ULONG_MAX },
		{ "sz", sizeof(size_t), false, SIZE_MAX },
		{ "i", sizeof(int), true, (u64)-4 },
	};
	struct ring_buffer_event *e;
	struct trace_entry *ent;
	struct trace_array *tr;
	struct tm_event *ev;
	unsigned int found = 0, len, i;
	int cpu;

	ev = tmk_find_event(TMK_EVENT);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	tr = trace_array_get_by_name(TMK_INSTANCE, TM_SYSTEM);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tr);

	KUNIT_EXPECT_EQ(test, trace_array_set_clr_event(tr, TM_SYSTEM,
							TMK_EVENT, true), 0);
	tmk_hit_wide(-2, -3, ULONG_MAX, SIZE_MAX, -4);
	KUNIT_EXPECT_EQ(test, trace_array_set_clr_event(tr, TM_SYSTEM,
							TMK_EVENT, false), 0);

	for_each_online_cpu(cpu) {
		while ((e = ring_buffer_consume(tr->array_buffer.buffer, cpu,
						NULL, NULL))) {
			ent = ring_buffer_event_data(e);
			if (ent->type != ev->call.event.type)
				continue;
			found++;
			len = ring_buffer_event_length(e);
			for (i = 0; i < ARRAY_SIZE(want); i++)
				tmk_check_field(test, ev, ent, len, &want[i]);
		}
	}
	KUNIT_EXPECT_EQ(test, found, 1);

	trace_array_put(tr);
	trace_array_destroy(tr);
}

/*
 * Sites call the events' probes indirectly: with IBT each must begin with
 * ENDBR64 at run time, which objtool keeps only for functions whose
 * address it sees taken (it seals the others at boot).
 */
static void tm_probe_endbr_test(struct kunit *test)
{
	static const u8 endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };

	if (!IS_ENABLED(CONFIG_X86_KERNEL_IBT))
		kunit_skip(test, "no IBT (CONFIG_X86_KERNEL_IBT=n)");
	/* FineIBT moves the ENDBR into the __cfi_ preamble. */
	if (IS_ENABLED(CONFIG_FINEIBT))
		kunit_skip(test, "FineIBT may rewrite function entries");
	KUNIT_EXPECT_MEMEQ(test, (const void *)tm_ftrace_probe, endbr64,
			   sizeof(endbr64));
#ifdef CONFIG_PERF_EVENTS
	KUNIT_EXPECT_MEMEQ(test, (const void *)tm_perf_probe, endbr64,
			   sizeof(endbr64));
#endif
}

static struct kunit_case tm_kunit_cases[] = {
	KUNIT_CASE(tm_event_long_fields_test),
	KUNIT_CASE(tm_probe_endbr_test),
	{}
};

static struct kunit_suite tm_kunit_suite = {
	.name = "markers_trace_events",
	.test_cases = tm_kunit_cases,
};

kunit_test_suite(tm_kunit_suite);
