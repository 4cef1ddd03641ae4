// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for markers: the format parser, the probe registry and the
 * site switching.
 *
 * The built-in markers marker_kunit_int and marker_kunit_mixed live in
 * this file.  "Module" sites are simulated by a static array of sites
 * handed to marker_sites_add() and marker_sites_remove(), the calls the
 * module notifier makes on MODULE_STATE_COMING and MODULE_STATE_GOING.
 * The tracepoint marker_kunit_tp, defined here too, is connected to by
 * name.
 */

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/jump_label_batch.h>
#include <linux/kthread.h>
#include <linux/marker.h>
#include <linux/notifier.h>
#include <linux/string.h>

#include "jump_label_batch_kunit.h"
#include "../marker_internal.h"

#if defined(CONFIG_MARKERS_TRACEPOINTS) && defined(CONFIG_MODULES)
#include <linux/completion.h>
#include <linux/marker_tp.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/srcu.h>
#include <linux/tracepoint.h>

/*
 * A tracepoint no entry of vmlinux describes (it is not defined through
 * <trace/define_trace.h>): probes for its name wait until the module
 * stand-in of marker_tracepoint_module_test() brings its entry.
 */
DECLARE_TRACE(marker_kunit_lone, TP_PROTO(int a), TP_ARGS(a));
DEFINE_TRACE(marker_kunit_lone_tp, TP_PROTO(int a), TP_ARGS(a));
#define MK_LONE			"marker_kunit_lone_tp"
#define mk_lone_enabled()	trace_marker_kunit_lone_tp_enabled()
#define mk_lone_hit(a)		trace_marker_kunit_lone_tp(a)
#define mk_lone_tp		__tracepoint_marker_kunit_lone_tp
#endif

#define CREATE_TRACE_POINTS
#include "marker_kunit_trace.h"

/* ---- parser ---- */

struct marker_parse_case {
	const char *name;
	const char *fmt;
	int ret;
	u8 types[4];
};

static const struct marker_parse_case marker_parse_cases[] = {
	{ "no arguments", MARK_NOARGS, 0 },
	{ "empty", "", 0 },
	{ "literal percent", "100%% sure", 0 },
	{ "%d", "%d", 1, { MARKER_ARG_S32 } },
	{ "%i", "%i", 1, { MARKER_ARG_S32 } },
	{ "%u", "%u", 1, { MARKER_ARG_U32 } },
	{ "%x", "%x", 1, { MARKER_ARG_U32 } },
	{ "%X", "%X", 1, { MARKER_ARG_U32 } },
	{ "%hd", "%hd", 1, { MARKER_ARG_S32 } },
	{ "%hhu", "%hhu", 1, { MARKER_ARG_U32 } },
	{ "%ld", "%ld", 1, { MARKER_ARG_LONG } },
	{ "%lu", "%lu", 1, { MARKER_ARG_ULONG } },
	{ "%lx", "%lx", 1, { MARKER_ARG_ULONG } },
	{ "%lld", "%lld", 1, { MARKER_ARG_S64 } },
	{ "%llu", "%llu", 1, { MARKER_ARG_U64 } },
	{ "%llx", "%llx", 1, { MARKER_ARG_U64 } },
	{ "%zu", "%zu", 1, { MARKER_ARG_SIZE } },
	{ "%zd", "%zd", 1, { MARKER_ARG_SSIZE } },
	{ "%p", "%p", 1, { MARKER_ARG_PTR } },
	{ "%c", "%c", 1, { MARKER_ARG_CHAR } },
	{ "%s", "%s", 1, { MARKER_ARG_STR } },
	{ "seeds' %d %p", "%d %p", 2, { MARKER_ARG_S32, MARKER_ARG_PTR } },
	{ "flags width precision", "%-08.3d %#llx", 2,
	  { MARKER_ARG_S32, MARKER_ARG_U64 } },
	{ "text around", "a=%s b=%zu c=%c", 3,
	  { MARKER_ARG_STR, MARKER_ARG_SIZE, MARKER_ARG_CHAR } },
	{ "trailing percent", "%", -EINVAL },
	{ "unknown conversion", "%q", -EINVAL },
	{ "float", "%f", -EINVAL },
	{ "%n", "%n", -EINVAL },
	{ "star width", "%*d", -EINVAL },
	{ "star precision", "%.*s", -EINVAL },
	{ "printk extension", "%pS", -EINVAL },
	{ "long string", "%ls", -EINVAL },
	{ "size pointer", "%zp", -EINVAL },
	{ "intmax", "%jd", -EINVAL },
	{ "twelve", "%d%d%d%d%d%d%d%d%d%d%d%d", 12,
	  { MARKER_ARG_S32, MARKER_ARG_S32, MARKER_ARG_S32, MARKER_ARG_S32 } },
	{ "too many", "%d%d%d%d%d%d%d%d%d%d%d%d%d", -E2BIG },
	{ "widest", "%255.255d %-255.255s", 2,
	  { MARKER_ARG_S32, MARKER_ARG_STR } },
	{ "width too large", "%256d", -EINVAL },
	{ "precision too large", "%.256s", -EINVAL },
	{ "conversion too long", "%-#0-#0-#0-#0-#0d", -EINVAL },
	{ "plus flag", "%+d", -EINVAL },
	{ "space flag", "% d", -EINVAL },
	{ "char width", "%-3c", 1, { MARKER_ARG_CHAR } },
	{ "char zero pad", "%03c", -EINVAL },
	{ "char precision", "%.1c", -EINVAL },
	{ "string plus", "%+s", -EINVAL },
	{ "pointer width", "%20p", -EINVAL },
	{ "newline and tab", "a\t%d\n", 1, { MARKER_ARG_S32 } },
	{ "control byte", "\001%d", -EINVAL },
	{ "names", "prev_pid=%d next_pid=%d", 2,
	  { MARKER_ARG_S32, MARKER_ARG_S32 } },
	{ "name twice", "pid=%d pid=%d", -EINVAL },
	{ "name of another field", "arg1=%d %d", -EINVAL },
	{ "common_ name", "common_pid=%d", -EINVAL },
	{ "hitcount name", "hitcount=%d", -EINVAL },
	{ "name of 31", "abcdefghijklmnopqrstuvwxyz01234=%d", 1,
	  { MARKER_ARG_S32 } },
	{ "name of 32", "abcdefghijklmnopqrstuvwxyz012345=%d", -EINVAL },
};

KUNIT_ARRAY_PARAM_DESC(marker_parse, marker_parse_cases, name);

static void marker_parse_test(struct kunit *test)
{
	const struct marker_parse_case *c = test->param_value;
	u8 types[MARKER_MAX_ARGS];
	int ret, i;

	ret = marker_parse_format(c->fmt, types, MARKER_MAX_ARGS);
	KUNIT_ASSERT_EQ_MSG(test, ret, c->ret, "format \"%s\"", c->fmt);
	for (i = 0; i < ret && i < ARRAY_SIZE(c->types); i++)
		KUNIT_EXPECT_EQ_MSG(test, types[i], c->types[i], "arg %d", i);
}

struct marker_name_case {
	const char *name;
	const char *fmt;
	const char *names;	/* space-separated */
};

static const struct marker_name_case marker_name_cases[] = {
	{ "none", "%d %u", "arg0 arg1" },
	{ "equals", "prev_pid=%d next_pid=%d", "prev_pid next_pid" },
	{ "2.6.24 markers: unnamed", "prev_pid %d next_pid %d", "arg0 arg1" },
	{ "colon: unnamed", "cpu: %u", "arg0" },
	{ "space after =: unnamed", "cpu= %u", "arg0" },
	{ "0x prefix", "addr=0x%lx", "addr" },
	{ "some named", "a=%d %d", "a arg1" },
	{ "value, not a name", "took 5 %d", "arg0" },
	{ "no separator", "cpu%d", "arg0" },
	{ "after %%", "100%% x=%d", "x" },
	{ "after a conversion", "%d:%d", "arg0 arg1" },
	{ "member", "prev->pid=%d", "pid" },
	/* Rewording the text around a conversion renames no field. */
	{ "reworded 1", "opened fd=%d of %s", "fd arg1" },
	{ "reworded 2", "fd=%d: file %s was opened", "fd arg1" },
	{ "reworded 3", "%s was opened as fd=%d", "arg0 fd" },
};

KUNIT_ARRAY_PARAM_DESC(marker_name, marker_name_cases, name);

static void marker_name_test(struct kunit *test)
{
	const struct marker_name_case *c = test->param_value;
	char got[MARKER_MAX_ARGS * (MARKER_NAME_MAX + 2)] = "";
	char name[MARKER_NAME_MAX + 1];
	const char *p = c->fmt;
	struct marker_conv conv;
	unsigned int nr = 0;

	KUNIT_ASSERT_GT(test, marker_parse_format(c->fmt, NULL,
						  MARKER_MAX_ARGS), 0);
	while (marker_format_next(&p, &conv) > 0) {
		marker_field_name(&conv, nr, name, sizeof(name));
		if (nr++)
			strlcat(got, " ", sizeof(got));
		strlcat(got, name, sizeof(got));
	}
	KUNIT_EXPECT_STREQ_MSG(test, got, c->names, "format \"%s\"", c->fmt);
}

/* ---- probes recording their calls ---- */

#define MK_LOG_MAX	16

struct mk_probe_data {
	int id;
	int probe;		/* mk_probe (1) or mk_probe2 (2), 0: any */
	unsigned int wrong;	/* calls of the other probe with this data */
	unsigned int hits;
	long long args[MARKER_MAX_ARGS];
	char str[16];
};

static int mk_log[MK_LOG_MAX];
static unsigned int mk_log_len;

static void mk_log_reset(void)
{
	mk_log_len = 0;
}

/* Decode the argument slots with the types the marker parsed. */
static void mk_probe_fn(void *data, const struct marker *m, const u64 *args)
{
	struct mk_probe_data *d = data;
	const char *s;
	unsigned int i;

	d->hits++;
	if (mk_log_len < MK_LOG_MAX)
		mk_log[mk_log_len++] = d->id;
	for (i = 0; i < m->nr_args; i++) {
		switch (m->types[i]) {
		case MARKER_ARG_S32:
		case MARKER_ARG_CHAR:
			d->args[i] = (int)args[i];
			break;
		case MARKER_ARG_U32:
			d->args[i] = (unsigned int)args[i];
			break;
		case MARKER_ARG_LONG:
			d->args[i] = (long)args[i];
			break;
		case MARKER_ARG_ULONG:
		case MARKER_ARG_PTR:
			d->args[i] = (unsigned long)args[i];
			break;
		case MARKER_ARG_S64:
		case MARKER_ARG_U64:
			d->args[i] = args[i];
			break;
		case MARKER_ARG_SSIZE:
			d->args[i] = (ssize_t)args[i];
			break;
		case MARKER_ARG_SIZE:
			d->args[i] = (size_t)args[i];
			break;
		case MARKER_ARG_STR:
			s = (const char *)(unsigned long)args[i];
			strscpy(d->str, s ?: "(null)", sizeof(d->str));
			break;
		}
	}
}

static void mk_probe1_fn(void *data, const struct marker *m, const u64 *args)
{
	struct mk_probe_data *d = data;

	d->wrong += d->probe == 2;
	mk_probe_fn(data, m, args);
}

DEFINE_MARKER_PROBE(mk_probe, mk_probe1_fn);

static void mk_probe2_fn(void *data, const struct marker *m, const u64 *args)
{
	struct mk_probe_data *d = data;

	d->wrong += d->probe == 1;
	mk_probe_fn(data, m, args);
}

DEFINE_MARKER_PROBE(mk_probe2, mk_probe2_fn);

/* ---- built-in markers under test ---- */

static noinline void mk_hit_int(int v)
{
	MARK(marker_kunit_int, "%d", v);
}

/* A second site of the same marker. */
static noinline void mk_hit_int_again(int v)
{
	MARK(marker_kunit_int, "%d", v);
}

static noinline void mk_hit_mixed(u64 a, const char *s, size_t z)
{
	MARK(marker_kunit_mixed, "%llu %s %zu", a, s, z);
}

/*
 * A site in code the compiler proves dead must vanish with its code (and
 * link: its descriptor must not refer to what only the dropped code
 * defines).  No Kconfig symbol of that name exists.
 */
static noinline void mk_hit_dead(int v)
{
	if (IS_ENABLED(CONFIG_MARKERS_KUNIT_NO_SUCH_OPTION))
		MARK(marker_kunit_dead, "%d", v);
}

/* One site inlined into two callers: both copies must fire. */
static __always_inline void mk_hit_inlined(int v)
{
	MARK(marker_kunit_inlined, "%d", v);
}

static noinline void mk_hit_inlined_a(int v)
{
	mk_hit_inlined(v);
}

static noinline void mk_hit_inlined_b(int v)
{
	mk_hit_inlined(v + 100);
}

static int mk_find_cb(const struct marker *m, void *priv)
{
	const struct marker **found = priv;

	if (strcmp(m->name, (*found)->name))
		return 0;
	*found = m;
	return 1;
}

/* The registry's marker called @name, NULL if unknown. */
static const struct marker *mk_find(const char *name)
{
	struct marker key = { .name = name };
	const struct marker *m = &key;

	return marker_for_each(mk_find_cb, &m) ? m : NULL;
}

static void marker_disabled_test(struct kunit *test)
{
	const struct marker *m = mk_find("marker_kunit_int");

	KUNIT_ASSERT_NOT_NULL(test, m);
	KUNIT_EXPECT_EQ(test, m->nr_sites, 2);
	KUNIT_EXPECT_NULL(test, rcu_access_pointer(m->funcs));
	mk_log_reset();
	mk_hit_int(1);
	mk_hit_int_again(2);
	KUNIT_EXPECT_EQ(test, mk_log_len, 0);
}

static void marker_args_test(struct kunit *test)
{
	struct mk_probe_data d = { .id = 1 };
	const struct marker *m;

	KUNIT_ASSERT_EQ(test, marker_probe_register("marker_kunit_mixed",
						    "%llu %s %zu",
						    mk_probe, &d), 0);
	m = mk_find("marker_kunit_mixed");
	KUNIT_ASSERT_NOT_NULL(test, m);
	KUNIT_EXPECT_EQ(test, m->nr_args, 3);
	mk_hit_mixed(0x123456789ULL, "hello", 42);
	KUNIT_EXPECT_EQ(test, d.hits, 1);
	KUNIT_EXPECT_EQ(test, d.args[0], 0x123456789LL);
	KUNIT_EXPECT_STREQ(test, d.str, "hello");
	KUNIT_EXPECT_EQ(test, d.args[2], 42);
	KUNIT_EXPECT_EQ(test, marker_probe_unregister("marker_kunit_mixed",
						      mk_probe, &d), 0);
	marker_synchronize_unregister();
	mk_hit_mixed(1, "x", 1);
	KUNIT_EXPECT_EQ(test, d.hits, 1);
}

static void marker_placement_test(struct kunit *test)
{
	struct mk_probe_data d = { .id = 1 };

	mk_hit_dead(1);
	KUNIT_EXPECT_NULL(test, mk_find("marker_kunit_dead"));
	KUNIT_ASSERT_NOT_NULL(test, mk_find("marker_kunit_inlined"));
	KUNIT_ASSERT_EQ(test, marker_probe_register("marker_kunit_inlined",
						    "%d", mk_probe, &d), 0);
	mk_hit_inlined_a(1);
	KUNIT_EXPECT_EQ(test, d.hits, 1);
	KUNIT_EXPECT_EQ(test, d.args[0], 1);
	mk_hit_inlined_b(1);
	KUNIT_EXPECT_EQ(test, d.hits, 2);
	KUNIT_EXPECT_EQ(test, d.args[0], 101);
	KUNIT_EXPECT_EQ(test, marker_probe_unregister("marker_kunit_inlined",
						      mk_probe, &d), 0);
	marker_synchronize_unregister();
}

/* ---- argument slots ---- */

struct mk_slots {
	unsigned int hits;
	unsigned int nr;
	u64 slot[MARKER_MAX_ARGS];
};

static void mk_slots_fn(void *data, const struct marker *m, const u64 *args)
{
	struct mk_slots *d = data;

	d->hits++;
	d->nr = m->nr_args;
	memcpy(d->slot, args, m->nr_args * sizeof(*args));
}

static int mk_slots_evals;

static int mk_slots_eval(void)
{
	return ++mk_slots_evals;
}

static noinline void mk_hit_slots(const void *ptr)
{
	MARK(marker_kunit_slots, "%hd %hhu %c %ld %zd %zu %p %s %llx %u %d",
	     (short)-2, (unsigned char)255, 'Q', -3L, (ssize_t)-4,
	     (size_t)SIZE_MAX, ptr, "str", ~0ULL, 0xfffffffeU,
	     mk_slots_eval());
}

static noinline void mk_hit_twelve(void)
{
	MARK(marker_kunit_twelve, "%d %d %d %d %d %d %d %d %d %d %d %d",
	     1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
}

/*
 * Each slot holds its argument's value: signed types sign-extended,
 * unsigned ones zero-extended, pointers as unsigned long; a probe reads
 * it back with the C type of its conversion.  Arguments are evaluated
 * once per hit, and not at all while the marker is off.
 */
static void marker_slots_test(struct kunit *test)
{
	static const char here[] = "here";
	struct mk_slots d = {};

	mk_slots_evals = 0;
	mk_hit_slots(here);
	KUNIT_EXPECT_EQ(test, mk_slots_evals, 0);
	KUNIT_ASSERT_EQ(test, marker_probe_register("marker_kunit_slots", NULL,
						    mk_slots_fn, &d), 0);
	mk_hit_slots(here);
	KUNIT_EXPECT_EQ(test, mk_slots_evals, 1);
	KUNIT_ASSERT_EQ(test, d.hits, 1);
	KUNIT_ASSERT_EQ(test, d.nr, 11);
	KUNIT_EXPECT_EQ(test, d.slot[0], (u64)-2);
	KUNIT_EXPECT_EQ(test, d.slot[1], 255);
	KUNIT_EXPECT_EQ(test, d.slot[2], 'Q');
	KUNIT_EXPECT_EQ(test, d.slot[3], (u64)-3);
	KUNIT_EXPECT_EQ(test, (long)d.slot[3], -3L);
	KUNIT_EXPECT_EQ(test, d.slot[4], (u64)-4);
	KUNIT_EXPECT_EQ(test, d.slot[5], (u64)SIZE_MAX);
	KUNIT_EXPECT_EQ(test, d.slot[6], (u64)(unsigned long)here);
	KUNIT_EXPECT_STREQ(test, (const char *)(unsigned long)d.slot[7],
			   "str");
	KUNIT_EXPECT_EQ(test, d.slot[8], ~0ULL);
	KUNIT_EXPECT_EQ(test, d.slot[9], 0xfffffffeULL);
	KUNIT_EXPECT_EQ(test, d.slot[10], 1);
	KUNIT_EXPECT_EQ(test, marker_probe_unregister("marker_kunit_slots",
						      mk_slots_fn, &d), 0);
	marker_synchronize_unregister();

	/* MARKER_MAX_ARGS arguments. */
	memset(&d, 0, sizeof(d));
	KUNIT_ASSERT_EQ(test, marker_probe_register("marker_kunit_twelve", NULL,
						    mk_slots_fn, &d), 0);
	mk_hit_twelve();
	KUNIT_ASSERT_EQ(test, d.nr, MARKER_MAX_ARGS);
	KUNIT_EXPECT_EQ(test, d.slot[0], 1);
	KUNIT_EXPECT_EQ(test, d.slot[11], 12);
	KUNIT_EXPECT_EQ(test, marker_probe_unregister("marker_kunit_twelve",
						      mk_slots_fn, &d), 0);
	marker_synchronize_unregister();
}

/* ---- tracepoints by name ---- */

static const char mk_tp_str[] = "tp";

static noinline void mk_hit_tp(int a)
{
	trace_marker_kunit_tp(a, ULONG_MAX, mk_tp_str, S64_MIN, 200, true);
}

/* A site may not take a tracepoint's name: refused at boot. */
static noinline void mk_hit_tp_site(int a)
{
	MARK(marker_kunit_tp, "%d", a);
}

/*
 * A probe registered for a tracepoint's name gets the tracepoint's
 * arguments as slots packed as a site packs them, with the prototype as
 * the marker's format and its parameters' types.  The tracepoint is on
 * while the name has probes, whatever batch registers them.
 */
static void marker_tracepoint_test(struct kunit *test)
{
	static const char proto[] =
		"int a, unsigned long b, const char *s, s64 c, u8 d, bool e";
	const u8 types[] = {
		MARKER_ARG_S32,
		sizeof(long) > 4 ? MARKER_ARG_U64 : MARKER_ARG_U32,
		MARKER_ARG_PTR, MARKER_ARG_S64, MARKER_ARG_U32, MARKER_ARG_U32,
	};
	struct mk_slots d = {}, d2 = {};
	DEFINE_MARKER_BATCH(batch);
	const struct marker *m;
	unsigned int i;

	if (!IS_ENABLED(CONFIG_MARKERS_TRACEPOINTS))
		kunit_skip(test, "CONFIG_MARKERS_TRACEPOINTS=n");

	/* A printf format does not describe a tracepoint. */
	KUNIT_EXPECT_EQ(test, marker_probe_register("marker_kunit_tp", "%d",
						    mk_slots_fn, &d), -EILSEQ);
	KUNIT_EXPECT_FALSE(test, trace_marker_kunit_tp_enabled());

	KUNIT_ASSERT_EQ(test, marker_probe_register_batch(&batch,
							  "marker_kunit_tp",
							  NULL, mk_slots_fn,
							  &d), 0);
	/* The tracepoint switches at once, not with the batch. */
	KUNIT_EXPECT_TRUE(test, trace_marker_kunit_tp_enabled());
	marker_batch_apply(&batch);
	m = mk_find("marker_kunit_tp");
	KUNIT_ASSERT_NOT_NULL(test, m);
	KUNIT_EXPECT_STREQ(test, m->format, proto);
	KUNIT_EXPECT_EQ(test, m->nr_sites, 0);
	KUNIT_ASSERT_EQ(test, m->nr_args, ARRAY_SIZE(types));
	for (i = 0; i < ARRAY_SIZE(types); i++)
		KUNIT_EXPECT_EQ_MSG(test, m->types[i], types[i], "arg %u", i);

	mk_hit_tp(-5);
	KUNIT_ASSERT_EQ(test, d.hits, 1);
	KUNIT_ASSERT_EQ(test, d.nr, 6);
	KUNIT_EXPECT_EQ(test, d.slot[0], (u64)-5);
	KUNIT_EXPECT_EQ(test, d.slot[1], (u64)ULONG_MAX);
	KUNIT_EXPECT_EQ(test, d.slot[2], (u64)(unsigned long)mk_tp_str);
	KUNIT_EXPECT_EQ(test, d.slot[3], (u64)S64_MIN);
	KUNIT_EXPECT_EQ(test, d.slot[4], 200);
	KUNIT_EXPECT_EQ(test, d.slot[5], 1);

	/* The site of that name was refused: it calls nothing. */
	mk_hit_tp_site(7);
	KUNIT_EXPECT_EQ(test, d.hits, 1);

	/* The prototype is the format a probe may ask for. */
	KUNIT_ASSERT_EQ(test, marker_probe_register("marker_kunit_tp", proto,
						    mk_slots_fn, &d2), 0);
	mk_hit_tp(3);
	KUNIT_EXPECT_EQ(test, d.hits, 2);
	KUNIT_EXPECT_EQ(test, d2.hits, 1);
	KUNIT_EXPECT_EQ(test, d2.slot[0], 3);

	KUNIT_EXPECT_EQ(test, marker_probe_unregister("marker_kunit_tp",
						      mk_slots_fn, &d), 0);
	KUNIT_EXPECT_TRUE(test, trace_marker_kunit_tp_enabled());
	KUNIT_EXPECT_EQ(test, marker_probe_unregister("marker_kunit_tp",
						      mk_slots_fn, &d2), 0);
	KUNIT_EXPECT_FALSE(test, trace_marker_kunit_tp_enabled());
	marker_synchronize_unregister();
	mk_hit_tp(4);
	KUNIT_EXPECT_EQ(test, d.hits, 2);
	KUNIT_EXPECT_EQ(test, d2.hits, 1);
}

#if defined(CONFIG_MARKERS_TRACEPOINTS) && defined(CONFIG_MODULES)
/* What <trace/marker_tp.h> would give the lone tracepoint. */
static void mk_lone_probe(void *data, int a)
{
	marker_tp_hit1(data, (u64)(s64)a);
}

static const u8 mk_lone_types[] = { MARKER_ARG_S32 };

static const struct marker_tp mk_lone_entry = {
	.tp		= &mk_lone_tp,
	.probe		= mk_lone_probe,
	.prototype	= "int a",
	.types		= mk_lone_types,
	.nr_args	= ARRAY_SIZE(mk_lone_types),
};

/*
 * Probes waiting for a module's tracepoint: the module comes (the first
 * half of the module notifier, with a stand-in module) and goes.
 */
static void marker_tracepoint_module_test(struct kunit *test)
{
	struct mk_slots a = {}, b = {}, c = {}, p = {};
	const struct marker *m;
	struct module *mod;

	check_trace_callback_type_marker_kunit_lone_tp(mk_lone_probe);
	mod = kunit_kzalloc(test, sizeof(*mod), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mod);
	strscpy(mod->name, "marker_kunit_standin", sizeof(mod->name));
	mod->marker_tps = &mk_lone_entry;
	mod->num_marker_tps = 1;

	/*
	 * Bound while probes wait: the next probe connects the tracepoint.
	 * A waits with any format, B with a printf format the tracepoint
	 * refuses when it comes; C registers once B is gone.
	 */
	KUNIT_ASSERT_EQ(test, marker_probe_register(MK_LONE, NULL, mk_slots_fn,
						    &a), 0);
	KUNIT_ASSERT_EQ(test, marker_probe_register(MK_LONE, "%d", mk_slots_fn,
						    &b), 0);
	KUNIT_ASSERT_EQ(test, marker_tp_module_coming(mod), 0);
	KUNIT_EXPECT_FALSE(test, mk_lone_enabled());
	KUNIT_ASSERT_EQ(test, marker_probe_unregister(MK_LONE, mk_slots_fn,
						      &b), 0);
	KUNIT_ASSERT_EQ(test, marker_probe_register(MK_LONE, NULL, mk_slots_fn,
						    &c), 0);
	KUNIT_EXPECT_TRUE(test, mk_lone_enabled());
	mk_lone_hit(-7);
	KUNIT_EXPECT_EQ(test, a.hits, 1);
	KUNIT_EXPECT_EQ(test, c.hits, 1);
	KUNIT_EXPECT_EQ(test, c.nr, 1);
	KUNIT_EXPECT_EQ(test, c.slot[0], (u64)-7);
	KUNIT_EXPECT_EQ(test, b.hits, 0);
	/* The last probe disconnects what the first connected. */
	KUNIT_EXPECT_EQ(test, marker_probe_unregister(MK_LONE, mk_slots_fn,
						      &a), 0);
	KUNIT_EXPECT_EQ(test, marker_probe_unregister(MK_LONE, mk_slots_fn,
						      &c), 0);
	KUNIT_EXPECT_FALSE(test, mk_lone_enabled());
	marker_tp_module_going(mod);
	KUNIT_EXPECT_NULL(test, mk_find(MK_LONE));

	/*
	 * A probe asking for the prototype before the tracepoint comes gets
	 * the tracepoint's slots once it does, and none once it goes.
	 */
	KUNIT_ASSERT_EQ(test, marker_probe_register(MK_LONE, "int a",
						    mk_slots_fn, &p), 0);
	KUNIT_ASSERT_EQ(test, marker_tp_module_coming(mod), 0);
	KUNIT_EXPECT_TRUE(test, mk_lone_enabled());
	mk_lone_hit(5);
	KUNIT_EXPECT_EQ(test, p.hits, 1);
	KUNIT_EXPECT_EQ(test, p.nr, 1);
	KUNIT_EXPECT_EQ(test, p.slot[0], 5);
	marker_tp_module_going(mod);
	KUNIT_EXPECT_FALSE(test, mk_lone_enabled());
	m = mk_find(MK_LONE);
	KUNIT_ASSERT_NOT_NULL(test, m);
	KUNIT_EXPECT_STREQ(test, m->format, "int a");
	KUNIT_EXPECT_EQ(test, m->nr_args, 0);
	KUNIT_EXPECT_EQ(test, marker_probe_unregister(MK_LONE, mk_slots_fn,
						      &p), 0);
	KUNIT_EXPECT_NULL(test, mk_find(MK_LONE));
}

struct mk_going {
	struct module *mod;
	struct completion done;
};

/* A tracepoint reader, as a site holds: the teardown waits for it. */
struct mk_tp_reader {
	struct srcu_ctr __percpu *scp;
};

static void mk_tp_reader_lock(struct mk_tp_reader *r)
{
	r->scp = srcu_read_lock_fast(&tracepoint_srcu);
}

static void mk_tp_reader_unlock(struct mk_tp_reader *r)
{
	srcu_read_unlock_fast(&tracepoint_srcu, r->scp);
}

static int mk_going_fn(void *data)
{
	struct mk_going *g = data;

	marker_tp_module_going(g->mod);
	complete(&g->done);
	return 0;
}

/*
 * A module whose tracepoint has a marker probe goes while a tracepoint
 * reader (held here) keeps the teardown waiting: markers_mutex is free
 * during that wait, so registrations go on.  (None is made here: a
 * registration inside a tracepoint reader could wait for that reader.)
 */
static void marker_tracepoint_going_test(struct kunit *test)
{
	struct mk_slots p = {};
	struct task_struct *t;
	const struct marker *m;
	bool unlocked = false;
	unsigned long end;
	struct mk_tp_reader r;
	struct mk_going g;

	g.mod = kunit_kzalloc(test, sizeof(*g.mod), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, g.mod);
	strscpy(g.mod->name, "marker_kunit_standin", sizeof(g.mod->name));
	g.mod->marker_tps = &mk_lone_entry;
	g.mod->num_marker_tps = 1;
	init_completion(&g.done);
	KUNIT_ASSERT_EQ(test, marker_probe_register(MK_LONE, NULL, mk_slots_fn,
						    &p), 0);
	m = mk_find(MK_LONE);
	KUNIT_ASSERT_NOT_NULL(test, m);
	KUNIT_ASSERT_EQ(test, marker_tp_module_coming(g.mod), 0);

	mk_tp_reader_lock(&r);
	t = kthread_run(mk_going_fn, &g, "marker_kunit_going");
	if (IS_ERR(t)) {
		/* Undo by hand: the stand-in must not stay listed. */
		mk_tp_reader_unlock(&r);
		marker_tp_module_going(g.mod);
		marker_probe_unregister(MK_LONE, mk_slots_fn, &p);
		KUNIT_FAIL(test, "kthread_run: %pe", t);
		return;
	}
	/* Up to 10 s for the teardown to reach its wait and drop the lock. */
	end = jiffies + 10 * HZ;
	while (!unlocked && time_before(jiffies, end)) {
		if (mutex_trylock(&markers_mutex)) {
			unlocked = !m->tp;
			mutex_unlock(&markers_mutex);
		}
		if (!unlocked)
			msleep(20);
	}
	/* Still waiting for the reader, with markers_mutex free. */
	KUNIT_EXPECT_FALSE(test, completion_done(&g.done));
	mk_tp_reader_unlock(&r);
	wait_for_completion(&g.done);
	KUNIT_EXPECT_TRUE_MSG(test, unlocked,
			      "markers_mutex held across the grace period");
	KUNIT_EXPECT_FALSE(test, mk_lone_enabled());
	/* The probe waits for the name again, the marker still listed. */
	KUNIT_EXPECT_PTR_EQ(test, mk_find(MK_LONE), m);
	KUNIT_EXPECT_NULL(test, m->tp);
	KUNIT_EXPECT_EQ(test, marker_probe_unregister(MK_LONE, mk_slots_fn,
						      &p), 0);
	KUNIT_EXPECT_NULL(test, mk_find(MK_LONE));
}
#else
static void marker_tracepoint_module_test(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_MARKERS_TRACEPOINTS and CONFIG_MODULES");
}

static void marker_tracepoint_going_test(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_MARKERS_TRACEPOINTS and CONFIG_MODULES");
}
#endif

struct marker_register_case {
	const char *name;
	const char *marker;
	const char *format;
	int ret;
};

static const struct marker_register_case marker_register_cases[] = {
	{ "any format", "marker_kunit_int", NULL, 0 },
	{ "same format", "marker_kunit_int", "%d", 0 },
	{ "other format", "marker_kunit_int", "%u", -EILSEQ },
	{ "malformed format", "marker_kunit_int", "%q", -EINVAL },
	{ "no name", NULL, NULL, -EINVAL },
	{ "pending name", "marker_kunit_nowhere", "%s", 0 },
};

KUNIT_ARRAY_PARAM_DESC(marker_register, marker_register_cases, name);

static void marker_register_test(struct kunit *test)
{
	const struct marker_register_case *c = test->param_value;
	struct mk_probe_data d = { .id = 1 };
	int ret;

	ret = marker_probe_register(c->marker, c->format, mk_probe, &d);
	KUNIT_EXPECT_EQ(test, ret, c->ret);
	if (ret)
		return;
	KUNIT_EXPECT_EQ(test, marker_probe_register(c->marker, c->format,
						    mk_probe, &d), -EEXIST);
	KUNIT_EXPECT_EQ(test, marker_probe_unregister(c->marker, mk_probe,
						      &d), 0);
	KUNIT_EXPECT_EQ(test, marker_probe_unregister(c->marker, mk_probe,
						      &d), -ENOENT);
	marker_synchronize_unregister();
	KUNIT_EXPECT_NULL(test, mk_find("marker_kunit_nowhere"));
}

static void marker_unknown_unregister_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, marker_probe_unregister("marker_kunit_none",
						      mk_probe, NULL),
			-ENOENT);
}

static void marker_order_test(struct kunit *test)
{
	struct mk_probe_data d[3] = { { .id = 1 }, { .id = 2 }, { .id = 3 } };
	int i;

	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_EQ(test, marker_probe_register("marker_kunit_int",
							    NULL, mk_probe,
							    &d[i]), 0);
	mk_log_reset();
	mk_hit_int(7);
	KUNIT_EXPECT_EQ(test, mk_log_len, 3);
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, mk_log[i], i + 1);
		KUNIT_EXPECT_EQ(test, d[i].hits, 1);
		KUNIT_EXPECT_EQ(test, d[i].args[0], 7);
	}
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, marker_probe_unregister("marker_kunit_int",
							      mk_probe,
							      &d[i]), 0);
	marker_synchronize_unregister();
	mk_hit_int(8);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, d[i].hits, 1);
}

/*
 * What the sites of @m call now and with which data; the test is the
 * only one changing the marker, so the array stays.
 */
static marker_probe_fn mk_call(const struct marker *m, void **data)
{
	const struct marker_funcs *funcs = rcu_access_pointer(m->funcs);

	*data = funcs ? funcs->data : NULL;
	return funcs ? funcs->call : NULL;
}

/*
 * What a site calls indirectly must begin with ENDBR64 at run time on an
 * IBT kernel: objtool keeps it only where it sees the address taken.
 * FineIBT moves it into the __cfi_ preamble.
 */
static void mk_expect_endbr(struct kunit *test, marker_probe_fn fn)
{
	static const u8 endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };

	if (IS_ENABLED(CONFIG_X86_KERNEL_IBT) && !IS_ENABLED(CONFIG_FINEIBT))
		KUNIT_EXPECT_MEMEQ(test, (const void *)fn, endbr64,
				   sizeof(endbr64));
}

/* 0 -> 1 -> 2 -> 1 -> 0, checking the call target and who runs. */
static void marker_transition_test(struct kunit *test)
{
	struct mk_probe_data a = { .id = 1 }, b = { .id = 2 };
	const struct marker *m = mk_find("marker_kunit_int");
	marker_probe_fn call;
	void *data;

	KUNIT_ASSERT_NOT_NULL(test, m);
	KUNIT_ASSERT_EQ(test, marker_probe_register("marker_kunit_int", "%d",
						    mk_probe, &a), 0);
	KUNIT_EXPECT_NOT_NULL(test, rcu_access_pointer(m->funcs));
	/* One probe: the sites call it, with its data. */
	call = mk_call(m, &data);
	KUNIT_EXPECT_TRUE(test, call == mk_probe);
	KUNIT_EXPECT_PTR_EQ(test, data, (void *)&a);
	mk_expect_endbr(test, call);
	mk_hit_int(1);
	mk_hit_int_again(1);
	KUNIT_EXPECT_EQ(test, a.hits, 2);

	KUNIT_ASSERT_EQ(test, marker_probe_register("marker_kunit_int", "%d",
						    mk_probe2, &b), 0);
	/* Two: the iterator, which gets the array. */
	call = mk_call(m, &data);
	KUNIT_EXPECT_TRUE(test, call != mk_probe && call != mk_probe2);
	KUNIT_EXPECT_PTR_EQ(test, data, rcu_access_pointer(m->funcs));
	mk_expect_endbr(test, call);
	mk_hit_int(2);
	KUNIT_EXPECT_EQ(test, a.hits, 3);
	KUNIT_EXPECT_EQ(test, b.hits, 1);

	/* The first probe leaves: the direct call must bring b's data. */
	KUNIT_ASSERT_EQ(test, marker_probe_unregister("marker_kunit_int",
						      mk_probe, &a), 0);
	call = mk_call(m, &data);
	KUNIT_EXPECT_TRUE(test, call == mk_probe2);
	KUNIT_EXPECT_PTR_EQ(test, data, (void *)&b);
	mk_hit_int(3);
	KUNIT_EXPECT_EQ(test, a.hits, 3);
	KUNIT_EXPECT_EQ(test, b.hits, 2);
	KUNIT_EXPECT_EQ(test, b.args[0], 3);

	KUNIT_ASSERT_EQ(test, marker_probe_unregister("marker_kunit_int",
						      mk_probe2, &b), 0);
	KUNIT_EXPECT_NULL(test, rcu_access_pointer(m->funcs));
	marker_synchronize_unregister();
	mk_hit_int(4);
	KUNIT_EXPECT_EQ(test, b.hits, 2);
}

/* A probe hitting a marker on the same CPU is not re-entered. */
static void mk_recurse_fn(void *data, const struct marker *m, const u64 *args)
{
	struct mk_probe_data *d = data;

	d->hits++;
	mk_hit_int((int)args[0] + 1);
}

DEFINE_MARKER_PROBE(mk_recurse, mk_recurse_fn);

static void marker_recursion_test(struct kunit *test)
{
	struct mk_probe_data d = { .id = 1 };

	KUNIT_ASSERT_EQ(test, marker_probe_register("marker_kunit_int", NULL,
						    mk_recurse, &d), 0);
	mk_hit_int(1);
	KUNIT_EXPECT_EQ(test, d.hits, 1);
	KUNIT_EXPECT_EQ(test, marker_probe_unregister("marker_kunit_int",
						      mk_recurse, &d), 0);
	marker_synchronize_unregister();
}

/* ---- probe context ---- */

/*
 * Sites hold tracepoint_srcu, SRCU-fast, as tracepoints do on this base:
 * a site hit from preemptible code enters its probe preemptible.  A base
 * whose tracepoints run probes with preemption off does the same for
 * markers and sets this to false.
 */
#define MK_SITE_PREEMPTIBLE	true

struct mk_ctx {
	int entry;
	int body;
};

/* Entered from the site, without the entry DEFINE_MARKER_PROBE() builds. */
static void mk_ctx_raw(void *data, const struct marker *m, const u64 *args)
{
	struct mk_ctx *c = data;

	c->entry = preemptible();
}

static void mk_ctx_body(void *data, const struct marker *m, const u64 *args)
{
	struct mk_ctx *c = data;

	c->body = preemptible();
}

DEFINE_MARKER_PROBE(mk_ctx_guarded, mk_ctx_body);

/*
 * A probe's own entry runs in the site's context, called directly or by
 * the iterator; a body behind the entry DEFINE_MARKER_PROBE() builds runs
 * with preemption disabled, as the recursion guard needs.
 */
static void marker_context_test(struct kunit *test)
{
	struct mk_ctx raw = { -1, -1 }, guarded = { -1, -1 };
	const char *name = "marker_kunit_int";

	if (!IS_ENABLED(CONFIG_PREEMPT_COUNT))
		kunit_skip(test, "preemptible() needs CONFIG_PREEMPT_COUNT");
	KUNIT_ASSERT_TRUE(test, preemptible());

	KUNIT_ASSERT_EQ(test, marker_probe_register(name, NULL, mk_ctx_raw,
						    &raw), 0);
	mk_hit_int(1);
	KUNIT_EXPECT_EQ(test, raw.entry, MK_SITE_PREEMPTIBLE);

	/* Two probes: the iterator calls each entry. */
	raw.entry = -1;
	KUNIT_ASSERT_EQ(test, marker_probe_register(name, NULL,
						    mk_ctx_guarded,
						    &guarded), 0);
	mk_hit_int(2);
	KUNIT_EXPECT_EQ(test, raw.entry, MK_SITE_PREEMPTIBLE);
	KUNIT_EXPECT_EQ(test, guarded.body, 0);
	KUNIT_EXPECT_EQ(test, marker_probe_unregister(name, mk_ctx_raw, &raw),
			0);

	/* One guarded probe, called directly. */
	guarded.body = -1;
	mk_hit_int(3);
	KUNIT_EXPECT_EQ(test, guarded.body, 0);
	KUNIT_EXPECT_EQ(test, marker_probe_unregister(name, mk_ctx_guarded,
						      &guarded), 0);
	marker_synchronize_unregister();
	KUNIT_EXPECT_TRUE(test, preemptible());
}

struct mk_hold {
	atomic_t in;
	bool release;
	bool synced;
};

/* Stays in the probe until released (or 10 s passed). */
static void mk_hold(void *data, const struct marker *m, const u64 *args)
{
	struct mk_hold *h = data;
	unsigned long end = jiffies + 10 * HZ;

	atomic_inc(&h->in);
	while (!READ_ONCE(h->release) && time_before(jiffies, end))
		cpu_relax();
}

static int mk_hold_hitter(void *arg)
{
	mk_hit_int(5);
	while (!kthread_should_stop())
		usleep_range(1000, 2000);
	return 0;
}

static int mk_hold_syncer(void *arg)
{
	struct mk_hold *h = arg;

	marker_synchronize_unregister();
	WRITE_ONCE(h->synced, true);
	while (!kthread_should_stop())
		usleep_range(1000, 2000);
	return 0;
}

static bool mk_wait_for(bool (*cond)(struct mk_hold *h), struct mk_hold *h)
{
	int i;

	for (i = 0; i < 10000 && !cond(h); i++)
		usleep_range(1000, 2000);
	return cond(h);
}

static bool mk_hold_entered(struct mk_hold *h)
{
	return atomic_read(&h->in);
}

static bool mk_hold_synced(struct mk_hold *h)
{
	return READ_ONCE(h->synced);
}

/*
 * marker_synchronize_unregister() returns only once a probe call that
 * was in flight when the probe was unregistered has returned, whether
 * the probe runs preemptible or not.
 */
static void marker_sync_unregister_test(struct kunit *test)
{
	struct mk_hold h = { .in = ATOMIC_INIT(0) };
	struct task_struct *hitter, *syncer;

	/* A held probe call with preemption off keeps its CPU to itself. */
	if (!MK_SITE_PREEMPTIBLE && num_online_cpus() < 2)
		kunit_skip(test, "probes run with preemption off and one CPU is online");
	KUNIT_ASSERT_EQ(test, marker_probe_register("marker_kunit_int", NULL,
						    mk_hold, &h), 0);
	hitter = kthread_run(mk_hold_hitter, NULL, "marker_kunit_hit");
	if (IS_ERR(hitter)) {
		marker_probe_unregister("marker_kunit_int", mk_hold, &h);
		KUNIT_FAIL(test, "kthread_run: %pe", hitter);
		return;
	}
	KUNIT_EXPECT_TRUE(test, mk_wait_for(mk_hold_entered, &h));
	KUNIT_EXPECT_EQ(test, marker_probe_unregister("marker_kunit_int",
						      mk_hold, &h), 0);
	syncer = kthread_run(mk_hold_syncer, &h, "marker_kunit_sync");
	if (!IS_ERR(syncer)) {
		msleep(200);
		KUNIT_EXPECT_FALSE_MSG(test, READ_ONCE(h.synced),
				       "returned with a probe call in flight");
	} else {
		KUNIT_FAIL(test, "kthread_run: %pe", syncer);
	}
	WRITE_ONCE(h.release, true);
	if (!IS_ERR(syncer)) {
		KUNIT_EXPECT_TRUE(test, mk_wait_for(mk_hold_synced, &h));
		kthread_stop(syncer);
	}
	kthread_stop(hitter);
	KUNIT_EXPECT_EQ(test, atomic_read(&h.in), 1);
}

/* ---- simulated module sites ---- */

#define MK_SITE(n, f, nr) {					\
	.name = n, .format = f, .nr_args = nr,			\
	.key = STATIC_KEY_FALSE_INIT,				\
}

/*
 * A "module" with a good site, a conflicting one, a bad format and one
 * whose format converts more arguments than it passes.
 */
static struct marker_site mk_mod_sites[] = {
	MK_SITE("marker_kunit_mod", "%d %s", 2),
	MK_SITE("marker_kunit_mod", "%d %s", 2),
	MK_SITE("marker_kunit_mod", "%d", 1),
	MK_SITE("marker_kunit_badfmt", "%pS", 1),
	MK_SITE("marker_kunit_short", "%d %d", 1),
};

/* What MARK() expands to, for a simulated site. */
#define MK_HIT(site, args...)						\
do {									\
	if (static_branch_unlikely(&(site)->key))			\
		__MARK_HIT(site, ##args);				\
} while (0)

static unsigned int mk_events[2];

static int mk_notify(struct notifier_block *nb, unsigned long ev, void *data)
{
	const struct marker *m = data;

	if (!strcmp(m->name, "marker_kunit_mod") && ev < 2)
		mk_events[ev]++;
	return NOTIFY_OK;
}

static struct notifier_block mk_nb = { .notifier_call = mk_notify };

static void marker_module_test(struct kunit *test)
{
	struct mk_probe_data d = { .id = 1 };
	struct marker_site *s = mk_mod_sites;
	struct static_key_batch_stats st0, st1;
	const struct marker *m;

	memset(mk_events, 0, sizeof(mk_events));
	KUNIT_ASSERT_EQ(test, register_marker_notifier(&mk_nb), 0);

	/* Probe first: pending until the "module" comes. */
	KUNIT_ASSERT_EQ(test, marker_probe_register("marker_kunit_mod", NULL,
						    mk_probe, &d), 0);
	m = mk_find("marker_kunit_mod");
	KUNIT_ASSERT_NOT_NULL(test, m);
	KUNIT_EXPECT_EQ(test, m->nr_sites, 0);
	KUNIT_EXPECT_NULL(test, m->format);

	static_key_batch_get_stats(&st0);
	marker_sites_add(s, s + ARRAY_SIZE(mk_mod_sites));
	static_key_batch_get_stats(&st1);
	/* A "module load" switches all its enabled sites in one batch. */
	KUNIT_EXPECT_EQ(test, st1.applied - st0.applied, 1);
	/* Each MK_HIT() below is a site: s[0] has three, s[1] one. */
	KUNIT_EXPECT_EQ(test, st1.sites - st0.sites, 4);
	KUNIT_EXPECT_EQ(test, st1.calls - st0.calls, 0);
	BATCH_EXPECT_COUNT(test, st1.own_ipi_rounds - st0.own_ipi_rounds, 3);
	KUNIT_EXPECT_EQ(test, mk_events[MARKER_ADD], 1);
	KUNIT_EXPECT_EQ(test, m->nr_sites, 2);
	KUNIT_EXPECT_STREQ(test, m->format, "%d %s");
	KUNIT_EXPECT_PTR_EQ(test, s[0].marker, m);
	KUNIT_EXPECT_PTR_EQ(test, s[1].marker, m);
	KUNIT_EXPECT_NULL(test, s[2].marker);	/* other format */
	KUNIT_EXPECT_NULL(test, s[3].marker);	/* unsupported */
	KUNIT_EXPECT_NULL(test, mk_find("marker_kunit_badfmt"));
	KUNIT_EXPECT_NULL(test, s[4].marker);	/* passes too few */
	KUNIT_EXPECT_NULL(test, mk_find("marker_kunit_short"));
	KUNIT_EXPECT_TRUE(test, static_key_enabled(&s[0].key));
	KUNIT_EXPECT_TRUE(test, static_key_enabled(&s[1].key));
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&s[2].key));

	MK_HIT(&s[0], 5, "five");
	MK_HIT(&s[1], 6, "six");
	MK_HIT(&s[2], 7);
	KUNIT_EXPECT_EQ(test, d.hits, 2);
	KUNIT_EXPECT_EQ(test, d.args[0], 6);
	KUNIT_EXPECT_STREQ(test, d.str, "six");

	/* The "module" goes while the probe is connected. */
	marker_sites_remove(s, s + ARRAY_SIZE(mk_mod_sites));
	KUNIT_EXPECT_EQ(test, mk_events[MARKER_REMOVE], 1);
	m = mk_find("marker_kunit_mod");
	KUNIT_ASSERT_NOT_NULL(test, m);
	KUNIT_EXPECT_EQ(test, m->nr_sites, 0);
	KUNIT_EXPECT_NULL(test, s[0].marker);

	/* And comes back: the probe reconnects. */
	marker_sites_add(s, s + ARRAY_SIZE(mk_mod_sites));
	MK_HIT(&s[0], 8, "eight");
	KUNIT_EXPECT_EQ(test, d.hits, 3);
	KUNIT_EXPECT_EQ(test, marker_probe_unregister("marker_kunit_mod",
						      mk_probe, &d), 0);
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&s[0].key));
	marker_synchronize_unregister();
	MK_HIT(&s[0], 9, "nine");
	KUNIT_EXPECT_EQ(test, d.hits, 3);
	marker_sites_remove(s, s + ARRAY_SIZE(mk_mod_sites));
	KUNIT_EXPECT_NULL(test, mk_find("marker_kunit_mod"));
	KUNIT_EXPECT_EQ(test, unregister_marker_notifier(&mk_nb), 0);
}

/* ---- probes coming and going while another CPU hits the marker ---- */

#define MK_MAGIC	0x6d61726bU

struct mk_stress {
	unsigned int magic;
	unsigned int hits;
	bool bad;
};

static void mk_stress_fn(void *data, const struct marker *m, const u64 *args)
{
	struct mk_stress *s = data;

	/* Data must belong to this probe, whatever the transition. */
	if (READ_ONCE(s->magic) != MK_MAGIC || (int)args[0] != 42)
		WRITE_ONCE(s->bad, true);
	WRITE_ONCE(s->hits, s->hits + 1);
}

DEFINE_MARKER_PROBE(mk_stress_a, mk_stress_fn);
DEFINE_MARKER_PROBE(mk_stress_b, mk_stress_fn);

static int mk_stress_thread(void *arg)
{
	while (!kthread_should_stop()) {
		mk_hit_int(42);
		cond_resched();
	}
	return 0;
}

static void marker_stress_test(struct kunit *test)
{
	struct mk_stress a = { .magic = MK_MAGIC }, b = { .magic = MK_MAGIC };
	const char *name = "marker_kunit_int";
	struct task_struct *t;
	int i;

	t = kthread_run(mk_stress_thread, NULL, "marker_kunit");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	for (i = 0; i < 10; i++) {
		KUNIT_EXPECT_EQ(test, marker_probe_register(name, NULL,
							    mk_stress_a, &a), 0);
		KUNIT_EXPECT_EQ(test, marker_probe_register(name, NULL,
							    mk_stress_b, &b), 0);
		KUNIT_EXPECT_EQ(test, marker_probe_unregister(name,
							      mk_stress_a,
							      &a), 0);
		usleep_range(100, 200);
		KUNIT_EXPECT_EQ(test, marker_probe_register(name, NULL,
							    mk_stress_a, &a), 0);
		KUNIT_EXPECT_EQ(test, marker_probe_unregister(name,
							      mk_stress_b,
							      &b), 0);
		KUNIT_EXPECT_EQ(test, marker_probe_unregister(name,
							      mk_stress_a,
							      &a), 0);
	}
	kthread_stop(t);
	marker_synchronize_unregister();
	KUNIT_EXPECT_FALSE(test, a.bad);
	KUNIT_EXPECT_FALSE(test, b.bad);
	kunit_info(test, "hits a=%u b=%u\n", a.hits, b.hits);
}

/*
 * A batch connects two markers (three sites): their keys change only when
 * it is applied, all in one static key batch, one text_poke batch.
 */
static void marker_batch_test(struct kunit *test)
{
	struct mk_probe_data a = { .id = 1 }, b = { .id = 2 };
	struct static_key_batch_stats before, after;
	DEFINE_MARKER_BATCH(batch);

	static_key_batch_get_stats(&before);
	KUNIT_EXPECT_EQ(test, marker_probe_register_batch(&batch,
							  "marker_kunit_int",
							  NULL, mk_probe, &a),
			0);
	KUNIT_EXPECT_EQ(test, marker_probe_register_batch(&batch,
							  "marker_kunit_mixed",
							  NULL, mk_probe, &b),
			0);
	/* Not yet switched: the sites still cost a NOP and call nothing. */
	mk_hit_int(1);
	mk_hit_mixed(1, "x", 1);
	KUNIT_EXPECT_EQ(test, a.hits + b.hits, 0);
	marker_batch_apply(&batch);
	static_key_batch_get_stats(&after);
	KUNIT_EXPECT_EQ(test, after.applied - before.applied, 1);
	KUNIT_EXPECT_EQ(test, after.sites - before.sites, 3);
	KUNIT_EXPECT_EQ(test, after.calls - before.calls, 0);
	BATCH_EXPECT_COUNT(test, after.own_batches - before.own_batches, 1);
	BATCH_EXPECT_COUNT(test, after.own_ipi_rounds - before.own_ipi_rounds, 3);
	KUNIT_EXPECT_EQ(test, batch.nr, 0);
	mk_hit_int(1);
	mk_hit_int_again(2);
	mk_hit_mixed(1, "x", 1);
	KUNIT_EXPECT_EQ(test, a.hits, 2);
	KUNIT_EXPECT_EQ(test, b.hits, 1);

	/* And back off in one static key batch, reusing the batch. */
	KUNIT_EXPECT_EQ(test, marker_probe_unregister_batch(&batch,
							    "marker_kunit_int",
							    mk_probe, &a), 0);
	KUNIT_EXPECT_EQ(test,
			marker_probe_unregister_batch(&batch,
						      "marker_kunit_mixed",
						      mk_probe, &b), 0);
	/* Removed probes stop at once. */
	mk_hit_int(1);
	KUNIT_EXPECT_EQ(test, a.hits, 2);
	marker_batch_apply(&batch);
	static_key_batch_get_stats(&before);
	KUNIT_EXPECT_EQ(test, before.applied - after.applied, 1);
	KUNIT_EXPECT_EQ(test, before.sites - after.sites, 3);
	BATCH_EXPECT_COUNT(test, before.own_ipi_rounds - after.own_ipi_rounds, 3);
	marker_synchronize_unregister();
	mk_hit_int(1);
	mk_hit_mixed(1, "x", 1);
	KUNIT_EXPECT_EQ(test, a.hits + b.hits, 3);

	/* An empty batch patches nothing. */
	marker_batch_apply(&batch);
	static_key_batch_get_stats(&after);
	KUNIT_EXPECT_EQ(test, after.sites - before.sites, 0);
	batch_kunit_counts_done(test);
}

/*
 * Replace (mk_probe, @a) by (mk_probe2, @b) on marker_kunit_int, both
 * with @batch.  Return: the first error, else 0.
 */
static int mk_batch_swap(struct marker_batch *batch, struct mk_probe_data *a,
			 struct mk_probe_data *b)
{
	int ret;

	ret = marker_probe_unregister_batch(batch, "marker_kunit_int",
					    mk_probe, a);
	return ret ?: marker_probe_register_batch(batch, "marker_kunit_int",
						  NULL, mk_probe2, b);
}

/*
 * A batch that replaces the only probe of an enabled marker: the sites
 * must never hand the new probe's data to the old probe (mk_probe checks
 * that the data it gets is its own), and each probe counts its own hits.
 */
static void marker_batch_replace_test(struct kunit *test)
{
	struct mk_probe_data a = { .id = 1, .probe = 1 };
	struct mk_probe_data b = { .id = 2, .probe = 2 };
	DEFINE_MARKER_BATCH(batch);

	KUNIT_ASSERT_EQ(test, marker_probe_register("marker_kunit_int", NULL,
						    mk_probe, &a), 0);
	mk_hit_int(1);
	KUNIT_EXPECT_EQ(test, a.hits, 1);

	KUNIT_EXPECT_EQ(test, mk_batch_swap(&batch, &a, &b), 0);
	/* The old probe is gone at once; the sites stayed on for the new. */
	mk_hit_int(2);
	KUNIT_EXPECT_EQ(test, a.hits, 1);
	KUNIT_EXPECT_EQ(test, b.hits, 1);
	marker_batch_apply(&batch);
	mk_hit_int(3);
	mk_hit_int_again(4);
	KUNIT_EXPECT_EQ(test, a.hits, 1);
	KUNIT_EXPECT_EQ(test, b.hits, 3);
	KUNIT_EXPECT_EQ(test, b.args[0], 4);
	KUNIT_EXPECT_EQ(test, a.wrong + b.wrong, 0);

	KUNIT_EXPECT_EQ(test, marker_probe_unregister("marker_kunit_int",
						      mk_probe2, &b), 0);
	marker_synchronize_unregister();
}

/*
 * Batches hold no lock: one task may keep two open, register without a
 * batch and walk the registry in between.  A marker two batches hold is
 * switched by the first applied, and the other finds nothing to do; a
 * marker left without sites or probes is kept until its batch is
 * applied.
 */
static void marker_batch_two_test(struct kunit *test)
{
	struct mk_probe_data a = { .id = 1 }, b = { .id = 2 };
	DEFINE_MARKER_BATCH(first);
	DEFINE_MARKER_BATCH(second);

	KUNIT_ASSERT_EQ(test, marker_probe_register_batch(&first,
							  "marker_kunit_int",
							  NULL, mk_probe, &a),
			0);
	KUNIT_ASSERT_NOT_NULL(test, mk_find("marker_kunit_int"));
	/* In both batches: the sites stay off until one is applied. */
	KUNIT_ASSERT_EQ(test, mk_batch_swap(&second, &a, &b), 0);
	mk_hit_int(1);
	KUNIT_EXPECT_EQ(test, b.hits, 0);
	/* The unregistration left nothing to switch: one entry. */
	KUNIT_EXPECT_EQ(test, second.nr, 1);
	marker_batch_apply(&second);
	mk_hit_int(1);
	KUNIT_EXPECT_EQ(test, b.hits, 1);

	/* A pending marker, emptied, lives until its batch is applied. */
	KUNIT_ASSERT_EQ(test, marker_probe_register_batch(&second,
							  "marker_kunit_later",
							  NULL, mk_probe, &a),
			0);
	KUNIT_ASSERT_EQ(test, marker_probe_unregister("marker_kunit_later",
						      mk_probe, &a), 0);
	KUNIT_EXPECT_NOT_NULL(test, mk_find("marker_kunit_later"));
	marker_batch_apply(&second);
	KUNIT_EXPECT_NULL(test, mk_find("marker_kunit_later"));

	marker_batch_apply(&first);
	KUNIT_EXPECT_EQ(test, marker_probe_unregister("marker_kunit_int",
						      mk_probe2, &b), 0);
	marker_synchronize_unregister();
	mk_hit_int(2);
	KUNIT_EXPECT_EQ(test, a.hits, 0);
	KUNIT_EXPECT_EQ(test, b.hits, 1);
}

/*
 * A discarded batch switches each of its markers at once: the
 * registrations made with it stand.
 */
static void marker_batch_discard_test(struct kunit *test)
{
	struct mk_probe_data a = { .id = 1 };
	DEFINE_MARKER_BATCH(batch);

	KUNIT_ASSERT_EQ(test, marker_probe_register_batch(&batch,
							  "marker_kunit_int",
							  NULL, mk_probe, &a),
			0);
	mk_hit_int(1);
	KUNIT_EXPECT_EQ(test, a.hits, 0);
	marker_batch_discard(&batch);
	KUNIT_EXPECT_EQ(test, batch.nr, 0);
	KUNIT_EXPECT_NULL(test, batch.markers);
	mk_hit_int(1);
	KUNIT_EXPECT_EQ(test, a.hits, 1);

	KUNIT_ASSERT_EQ(test, marker_probe_unregister_batch(&batch,
							    "marker_kunit_int",
							    mk_probe, &a), 0);
	marker_batch_discard(&batch);
	marker_synchronize_unregister();
	mk_hit_int(1);
	KUNIT_EXPECT_EQ(test, a.hits, 1);

	/* A marker without sites is freed with the batch's last entry. */
	KUNIT_ASSERT_EQ(test, marker_probe_register_batch(&batch,
							  "marker_kunit_later",
							  NULL, mk_probe, &a),
			0);
	KUNIT_ASSERT_EQ(test, marker_probe_unregister("marker_kunit_later",
						      mk_probe, &a), 0);
	KUNIT_EXPECT_NOT_NULL(test, mk_find("marker_kunit_later"));
	marker_batch_discard(&batch);
	KUNIT_EXPECT_NULL(test, mk_find("marker_kunit_later"));
}

/*
 * Register a probe on marker_kunit_int with a batch on this frame, and
 * return without ending it: the caller gets a copy, to end later.
 */
static noinline struct marker_batch mk_batch_leave(struct mk_probe_data *d,
						   int *ret)
{
	DEFINE_MARKER_BATCH(batch);

	*ret = marker_probe_register_batch(&batch, "marker_kunit_int", NULL,
					   mk_probe, d);
	return batch;
}

/*
 * A batch left without an apply leaves no pointer to itself behind: a
 * later batch at the same address (the same frame) still switches the
 * marker when applied.
 */
static void marker_batch_left_test(struct kunit *test)
{
	struct mk_probe_data a = { .id = 1 }, b = { .id = 2 };
	struct marker_batch left, later;
	int ret;

	left = mk_batch_leave(&a, &ret);
	KUNIT_ASSERT_EQ(test, ret, 0);
	later = mk_batch_leave(&b, &ret);
	KUNIT_ASSERT_EQ(test, ret, 0);
	mk_hit_int(1);
	KUNIT_EXPECT_EQ(test, a.hits + b.hits, 0);
	marker_batch_apply(&later);
	mk_hit_int(1);
	KUNIT_EXPECT_EQ(test, a.hits, 1);
	KUNIT_EXPECT_EQ(test, b.hits, 1);
	marker_batch_discard(&left);

	KUNIT_EXPECT_EQ(test, marker_probe_unregister("marker_kunit_int",
						      mk_probe, &a), 0);
	KUNIT_EXPECT_EQ(test, marker_probe_unregister("marker_kunit_int",
						      mk_probe, &b), 0);
	marker_synchronize_unregister();
	mk_hit_int(1);
	KUNIT_EXPECT_EQ(test, a.hits + b.hits, 2);
}

static struct kunit_case marker_test_cases[] = {
	KUNIT_CASE_PARAM(marker_parse_test, marker_parse_gen_params),
	KUNIT_CASE_PARAM(marker_name_test, marker_name_gen_params),
	KUNIT_CASE(marker_disabled_test),
	KUNIT_CASE(marker_args_test),
	KUNIT_CASE(marker_placement_test),
	KUNIT_CASE(marker_slots_test),
	KUNIT_CASE(marker_tracepoint_test),
	KUNIT_CASE(marker_tracepoint_module_test),
	KUNIT_CASE(marker_tracepoint_going_test),
	KUNIT_CASE_PARAM(marker_register_test, marker_register_gen_params),
	KUNIT_CASE(marker_unknown_unregister_test),
	KUNIT_CASE(marker_order_test),
	KUNIT_CASE(marker_transition_test),
	KUNIT_CASE(marker_recursion_test),
	KUNIT_CASE(marker_context_test),
	KUNIT_CASE(marker_sync_unregister_test),
	KUNIT_CASE(marker_module_test),
	KUNIT_CASE(marker_batch_test),
	KUNIT_CASE(marker_batch_replace_test),
	KUNIT_CASE(marker_batch_two_test),
	KUNIT_CASE(marker_batch_discard_test),
	KUNIT_CASE(marker_batch_left_test),
	KUNIT_CASE_SLOW(marker_stress_test),
	{}
};

static struct kunit_suite marker_test_suite = {
	.name = "markers",
	.test_cases = marker_test_cases,
};

kunit_test_suite(marker_test_suite);

MODULE_DESCRIPTION("KUnit tests for markers");
MODULE_LICENSE("GPL");
