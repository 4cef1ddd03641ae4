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
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
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

/* The event of marker @name, or NULL; under event_mutex. */
static struct tm_event *__tmk_find_event(const char *name)
{
	struct tm_event *ev;

	lockdep_assert_held(&event_mutex);
	list_for_each_entry(ev, &tm_events, list)
		if (!strcmp(trace_event_name(&ev->call), name))
			return ev;
	return NULL;
}

static struct tm_event *tmk_find_event(const char *name)
{
	guard(mutex)(&event_mutex);
	return __tmk_find_event(name);
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

/* The record bytes no field covers are zero: fields store masked slots. */
static void tmk_check_padding(struct kunit *test, struct tm_event *ev,
			      const u8 *rec, unsigned int len)
{
	struct ftrace_event_field *f;
	unsigned int off;
	bool field;

	for (off = sizeof(struct trace_entry); off < ev->size && off < len;
	     off++) {
		field = false;
		list_for_each_entry(f, trace_get_fields(&ev->call), link)
			if (off >= f->offset && off < f->offset + f->size)
				field = true;
		if (!field)
			KUNIT_EXPECT_EQ_MSG(test, rec[off], 0,
					    "padding byte %u", off);
	}
}

/*
 * Enable @event in a trace instance of its own, run @hit, and check the
 * one record it made against @want.
 */
static void tmk_record_check(struct kunit *test, const char *event,
			     void (*hit)(void), const struct tmk_want *want,
			     unsigned int nr_want)
{
	struct ring_buffer_event *e;
	struct trace_entry *ent;
	struct trace_array *tr;
	struct tm_event *ev;
	unsigned int found = 0, len, i;
	int cpu;

	ev = tmk_find_event(event);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	tr = trace_array_get_by_name(TMK_INSTANCE, TM_SYSTEM);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tr);

	KUNIT_EXPECT_EQ(test, trace_array_set_clr_event(tr, TM_SYSTEM,
							event, true), 0);
	hit();
	KUNIT_EXPECT_EQ(test, trace_array_set_clr_event(tr, TM_SYSTEM,
							event, false), 0);

	for_each_online_cpu(cpu) {
		while ((e = ring_buffer_consume(tr->array_buffer.buffer, cpu,
						NULL, NULL))) {
			ent = ring_buffer_event_data(e);
			if (ent->type != ev->call.event.type)
				continue;
			found++;
			len = ring_buffer_event_length(e);
			for (i = 0; i < nr_want; i++)
				tmk_check_field(test, ev, ent, len, &want[i]);
			tmk_check_padding(test, ev, (const u8 *)ent, len);
		}
	}
	KUNIT_EXPECT_EQ(test, found, 1);

	trace_array_put(tr);
	trace_array_destroy(tr);
}

static void tmk_hit_wide_values(void)
{
	tmk_hit_wide(-2, -3, ULONG_MAX, SIZE_MAX, -4);
}

/*
 * long, size_t and ssize_t fields have their C type's size, so a 32-bit
 * kernel's -2 reads back as -2 (it read 4294967294 when every such field
 * was 8 bytes, zero-extended).
 */
static void tm_event_long_fields_test(struct kunit *test)
{
	static const struct tmk_want want[] = {
		{ "l", sizeof(long), true, (u64)-2 },
		{ "z", sizeof(ssize_t), true, (u64)-3 },
		{ "ul", sizeof(long), false, ULONG_MAX },
		{ "sz", sizeof(size_t), false, SIZE_MAX },
		{ "i", sizeof(int), true, (u64)-4 },
	};

	tmk_record_check(test, TMK_EVENT, tmk_hit_wide_values, want,
			 ARRAY_SIZE(want));
}

/*
 * Events whose fields are all stored as 8 bytes on little-endian kernels
 * (the first two on 64-bit ones only): their probes are built for the
 * slot layout (one, two or any number of slots), mask each slot to its
 * field, and leave the padding zero.  Elsewhere the same events take the
 * general probe.
 */
static void tmk_hit_slot1(void)
{
	MARK(trace_markers_kunit_slot1, "ul=%lu", ULONG_MAX);
}

static void tmk_hit_slot2(void)
{
	MARK(trace_markers_kunit_slot2, "i=%d lx=%lx", -5, LONG_MIN);
}

static void tmk_hit_slot4(void)
{
	MARK(trace_markers_kunit_slot4, "sc=%hhd ll=%lld u=%u llx=%llx",
	     (signed char)-128, LLONG_MIN, -1, ULLONG_MAX);
}

static const struct tmk_want tmk_want_slot1[] = {
	{ "ul", sizeof(long), false, ULONG_MAX },
};

static const struct tmk_want tmk_want_slot2[] = {
	{ "i", sizeof(int), true, (u64)-5 },
	{ "lx", sizeof(long), false, (u64)(unsigned long)LONG_MIN },
};

static const struct tmk_want tmk_want_slot4[] = {
	{ "sc", 4, true, (u64)-128 },
	{ "ll", 8, true, (u64)LLONG_MIN },
	{ "u", 4, false, U32_MAX },
	{ "llx", 8, false, ULLONG_MAX },
};

struct tmk_slots_case {
	const char *event;
	void (*hit)(void);
	const struct tmk_want *want;
	unsigned int nr_want;
	enum tm_layout layout;
};

/* A 32-bit kernel stores 4-byte int and long fields side by side. */
#define TMK_SLOTS	(IS_ENABLED(CONFIG_64BIT) && TM_WIDE_STORES)

static const struct tmk_slots_case tmk_slots_cases[] = {
	{ "trace_markers_kunit_slot1", tmk_hit_slot1, tmk_want_slot1,
	  ARRAY_SIZE(tmk_want_slot1),
	  TMK_SLOTS ? TM_SLOTS1 : TM_GENERAL },
	{ "trace_markers_kunit_slot2", tmk_hit_slot2, tmk_want_slot2,
	  ARRAY_SIZE(tmk_want_slot2),
	  TMK_SLOTS ? TM_SLOTS2 : TM_GENERAL },
	{ "trace_markers_kunit_slot4", tmk_hit_slot4, tmk_want_slot4,
	  ARRAY_SIZE(tmk_want_slot4),
	  TM_WIDE_STORES ? TM_SLOTS_N : TM_GENERAL },
};

static void tmk_slots_desc(const struct tmk_slots_case *c, char *desc)
{
	strscpy(desc, c->event, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(tmk_slots, tmk_slots_cases, tmk_slots_desc);

static void tm_event_slots_test(struct kunit *test)
{
	const struct tmk_slots_case *c = test->param_value;
	struct tm_event *ev = tmk_find_event(c->event);

	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_EXPECT_EQ(test, ev->layout, c->layout);
	tmk_record_check(test, c->event, c->hit, c->want, c->nr_want);
}

/*
 * Sites call the events' probes indirectly: with IBT each must begin with
 * ENDBR64 at run time, which objtool keeps only for functions whose
 * address it sees taken (it seals the others at boot).
 */
static void tm_probe_endbr_test(struct kunit *test)
{
	static const u8 endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };
	unsigned int i;

	if (!IS_ENABLED(CONFIG_X86_KERNEL_IBT))
		kunit_skip(test, "no IBT (CONFIG_X86_KERNEL_IBT=n)");
	/* FineIBT moves the ENDBR into the __cfi_ preamble. */
	if (IS_ENABLED(CONFIG_FINEIBT))
		kunit_skip(test, "FineIBT may rewrite function entries");
	for (i = 0; i < ARRAY_SIZE(tm_ftrace_probes); i++)
		KUNIT_EXPECT_MEMEQ_MSG(test, (const void *)tm_ftrace_probes[i],
				       endbr64, sizeof(endbr64),
				       "ftrace probe %u", i);
#ifdef CONFIG_PERF_EVENTS
	for (i = 0; i < ARRAY_SIZE(tm_perf_probes); i++)
		KUNIT_EXPECT_MEMEQ_MSG(test, (const void *)tm_perf_probes[i],
				       endbr64, sizeof(endbr64),
				       "perf probe %u", i);
#endif
}

/*
 * Lifetimes of what an event's probes use.  The event core frees an
 * instance's event files, and perf its per-event data, once
 * tracepoint_synchronize_unregister() returns; a marker event's probe
 * still running must hold that wait up.  A probe registered before the
 * event's holds the read side of one hit, on one CPU, while the test
 * removes the instance or the event from another; the hold ends when the
 * removal is seen done or after TMK_HOLD_MS.  A removal done while the
 * hit is held freed what the hit's next probe, the event's, then uses.
 */
#define TMK_HOLD_INSTANCE	"markers_kunit_hold"
#define TMK_HOLD_EVENT		"trace_markers_kunit_hold"
#define TMK_HOLD_MS		4000

struct tmk_hold {
	const char *name;	/* the marker */
	void (*hit)(int v);	/* hits it */
	atomic_t entered;	/* the hit is in the holding probe */
	atomic_t removing;	/* the removal under test started */
	atomic_t removed;	/* ... and was seen done */
	bool removing_in_hit;	/* what the hold saw when it ended */
	bool removed_in_hit;
	struct completion done;	/* the hitting thread returned */
	unsigned int test_cpu;	/* where the test thread removes */
};

static void tmk_hold_probe(void *data, const struct marker *m,
			   const u64 *args)
{
	struct tmk_hold *h = data;
	unsigned long end = jiffies + msecs_to_jiffies(TMK_HOLD_MS);

	if (atomic_xchg(&h->entered, 1))
		return;
	while (!atomic_read(&h->removed) && time_before(jiffies, end))
		cpu_relax();
	h->removing_in_hit = atomic_read(&h->removing);
	h->removed_in_hit = atomic_read(&h->removed);
}

static noinline void tmk_hit_hold(int v)
{
	MARK(trace_markers_kunit_hold, "v=%d", v);
}

static int tmk_hold_thread(void *data)
{
	struct tmk_hold *h = data;

	h->hit(1);
	complete(&h->done);
	return 0;
}

static void tmk_hold_unregister(void *data)
{
	struct tmk_hold *h = data;

	marker_probe_unregister(h->name, tmk_hold_probe, h);
	marker_synchronize_unregister();
}

/*
 * A hold on marker @name, hit by @hit, with its probe registered; the
 * test's end unregisters it.  It is allocated for the test, not on the
 * test thread's stack: KUnit runs the test's end in another thread.
 */
static struct tmk_hold *tmk_hold_init(struct kunit *test, const char *name,
				      void (*hit)(int v))
{
	struct tmk_hold *h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, h);
	h->name = name;
	h->hit = hit;
	init_completion(&h->done);
	KUNIT_ASSERT_EQ(test, marker_probe_register(h->name, NULL,
						    tmk_hold_probe, h), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							tmk_hold_unregister,
							h), 0);
	return h;
}

/*
 * Hit the marker from a thread bound to one CPU and move the test thread
 * to another, where it can remove while the hit is held (on 6.12 the
 * hold spins with preemption disabled).  KUnit runs each test in a
 * thread of its own, so the move ends with the test.  Fails the test
 * unless the hit is held.
 */
static void tmk_hold_start(struct kunit *test, struct tmk_hold *h)
{
	unsigned int hold_cpu = cpumask_first(cpu_online_mask);
	struct task_struct *t;
	int i;

	h->test_cpu = cpumask_next(hold_cpu, cpu_online_mask);
	if (h->test_cpu >= nr_cpu_ids)
		kunit_skip(test, "needs a second CPU to remove on");
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current,
						   cpumask_of(h->test_cpu)), 0);

	t = kthread_create(tmk_hold_thread, h, "tmk_hold");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t);
	kthread_bind(t, hold_cpu);
	wake_up_process(t);
	for (i = 0; i < 500 && !atomic_read(&h->entered); i++)
		msleep(20);
	if (!atomic_read(&h->entered)) {
		atomic_set(&h->removed, 1);
		wait_for_completion(&h->done);
		KUNIT_FAIL_AND_ABORT(test, "the hit never reached the probe");
	}
}

/* End the hold and check that the removal neither ended during it. */
static void tmk_hold_end(struct kunit *test, struct tmk_hold *h,
			 const char *what)
{
	atomic_set(&h->removed, 1);
	wait_for_completion(&h->done);
	KUNIT_EXPECT_TRUE_MSG(test, h->removing_in_hit,
			      "%s did not start while the hit was held", what);
	KUNIT_EXPECT_FALSE_MSG(test, h->removed_in_hit,
			       "%s was done while a probe of the event ran",
			       what);
}

static void tmk_instance_destroy(void *data)
{
	trace_array_destroy(data);
}

/*
 * An instance with marker event @name enabled in it; the test's end
 * removes the instance unless the test does.
 */
static struct trace_array *tmk_instance_enable(struct kunit *test,
					       const char *name)
{
	struct trace_array *tr;

	tr = trace_array_get_by_name(TMK_HOLD_INSTANCE, TM_SYSTEM);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tr);
	trace_array_put(tr);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							tmk_instance_destroy,
							tr), 0);
	KUNIT_ASSERT_EQ(test, trace_array_set_clr_event(tr, TM_SYSTEM, name,
							true), 0);
	return tr;
}

/* rmdir of an instance while a hit of its enabled marker event runs */
static void tm_instance_remove_in_flight_test(struct kunit *test)
{
	struct tmk_hold *h = tmk_hold_init(test, TMK_HOLD_EVENT, tmk_hit_hold);
	struct trace_array *tr = tmk_instance_enable(test, TMK_HOLD_EVENT);

	tmk_hold_start(test, h);
	atomic_set(&h->removing, 1);
	kunit_remove_action(test, tmk_instance_destroy, tr);
	KUNIT_EXPECT_EQ(test, trace_array_destroy(tr), 0);
	atomic_set(&h->removed, 1);
	tmk_hold_end(test, h, "trace_array_destroy()");
}

/* A "module" whose marker event is removed when its only site goes. */
static struct marker_site tmk_gone_site = {
	.name = "trace_markers_kunit_gone", .format = "v=%d", .nr_args = 1,
	.key = STATIC_KEY_FALSE_INIT,
};

static noinline void tmk_hit_gone(int v)
{
	if (static_branch_unlikely(&tmk_gone_site.key))
		__MARK_HIT(&tmk_gone_site, v);
}

static void tmk_gone_remove(void *data)
{
	marker_sites_remove(&tmk_gone_site, &tmk_gone_site + 1);
	flush_work(&tm_sync_work);
}

/* Connect the "module" and wait for its event; the test's end removes it. */
static struct tm_event *tmk_gone_add(struct kunit *test)
{
	struct tm_event *ev;

	marker_sites_add(&tmk_gone_site, &tmk_gone_site + 1);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, tmk_gone_remove,
							NULL), 0);
	flush_work(&tm_sync_work);
	ev = tmk_find_event(tmk_gone_site.name);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	return ev;
}

struct tmk_gone {
	struct tmk_hold *h;
	struct completion done;
};

/* The removal: the "module" goes, and its event with it. */
static int tmk_gone_thread(void *data)
{
	struct tmk_gone *g = data;

	atomic_set(&g->h->removing, 1);
	tmk_gone_remove(NULL);
	complete(&g->done);
	return 0;
}

enum tmk_seen { TMK_SEEN_LISTED, TMK_SEEN_BUSY, TMK_SEEN_GONE };

/* What the event list says of event @name, or that it is being changed. */
static enum tmk_seen tmk_event_seen(const char *name)
{
	enum tmk_seen seen;

	if (!mutex_trylock(&event_mutex))
		return TMK_SEEN_BUSY;
	seen = __tmk_find_event(name) ? TMK_SEEN_LISTED : TMK_SEEN_GONE;
	mutex_unlock(&event_mutex);
	return seen;
}

/*
 * The event is disabled, which unregisters its probe without waiting,
 * and then removed as its marker loses its last site: the removal must
 * not free the event's files, or drop the event, while a hit that read
 * the probe array before the disable still runs.  Another thread on the
 * test's CPU removes; this one watches the event list, and must see the
 * removal under way (event_mutex held) or done during the hold.
 */
static void tm_event_remove_in_flight_test(struct kunit *test)
{
	struct tmk_gone g;
	struct tmk_hold *h;
	struct trace_array *tr;
	struct task_struct *t;
	bool busy = false;
	enum tmk_seen seen;
	int i;

	tmk_gone_add(test);
	h = tmk_hold_init(test, tmk_gone_site.name, tmk_hit_gone);
	tr = tmk_instance_enable(test, h->name);

	tmk_hold_start(test, h);
	KUNIT_EXPECT_EQ(test, trace_array_set_clr_event(tr, TM_SYSTEM, h->name,
							false), 0);
	kunit_remove_action(test, tmk_gone_remove, NULL);
	g.h = h;
	init_completion(&g.done);
	t = kthread_create(tmk_gone_thread, &g, "tmk_gone");
	if (IS_ERR(t)) {
		atomic_set(&h->removed, 1);
		wait_for_completion(&h->done);
		tmk_gone_remove(NULL);
		KUNIT_FAIL_AND_ABORT(test, "no removing thread");
	}
	kthread_bind(t, h->test_cpu);
	wake_up_process(t);
	for (i = 0; i < TMK_HOLD_MS / 20 && !completion_done(&h->done); i++) {
		seen = tmk_event_seen(h->name);
		busy |= seen == TMK_SEEN_BUSY;
		if (seen == TMK_SEEN_GONE) {
			atomic_set(&h->removed, 1);
			break;
		}
		msleep(20);
	}
	tmk_hold_end(test, h, "the event's removal");
	KUNIT_EXPECT_TRUE_MSG(test, busy || h->removed_in_hit,
			      "the removal did not run while the hit was held");
	wait_for_completion(&g.done);
	KUNIT_EXPECT_NULL(test, tmk_find_event(h->name));
}

/*
 * trace_get_event_file(), as eprobes and the enable_event triggers, holds
 * the event with trace_event_try_get_ref(): the event must outlive that
 * reference when its marker's module goes.  Once the reference is
 * dropped the event stays, listed but without sites, until the next
 * update of the marker events removes it.
 */
static void tm_event_ref_outlives_module_test(struct kunit *test)
{
	const char *name = tmk_gone_site.name;
	struct trace_event_file *file;
	struct tm_event *ev;

	ev = tmk_gone_add(test);
	file = trace_get_event_file(NULL, TM_SYSTEM, name);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, file);

	kunit_remove_action(test, tmk_gone_remove, NULL);
	tmk_gone_remove(NULL);
	KUNIT_EXPECT_PTR_EQ_MSG(test, tmk_find_event(name), ev,
				"event removed while referenced");
	trace_put_event_file(file);
	KUNIT_EXPECT_PTR_EQ(test, tmk_find_event(name), ev);

	tm_sync();
	KUNIT_EXPECT_NULL(test, tmk_find_event(name));
}

static struct kunit_case tm_kunit_cases[] = {
	KUNIT_CASE(tm_event_long_fields_test),
	KUNIT_CASE_PARAM(tm_event_slots_test, tmk_slots_gen_params),
	KUNIT_CASE(tm_probe_endbr_test),
	KUNIT_CASE_SLOW(tm_instance_remove_in_flight_test),
	KUNIT_CASE_SLOW(tm_event_remove_in_flight_test),
	KUNIT_CASE(tm_event_ref_outlives_module_test),
	{}
};

static struct kunit_suite tm_kunit_suite = {
	.name = "markers_trace_events",
	.test_cases = tm_kunit_cases,
};

kunit_test_suite(tm_kunit_suite);
