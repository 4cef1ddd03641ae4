// SPDX-License-Identifier: GPL-2.0
/*
 * Markers: tracepoints connected by name.
 *
 * <trace/marker_tp.h> gives every tracepoint that CREATE_TRACE_POINTS
 * defines a struct marker_tp: the tracepoint, a tracepoint probe of its
 * prototype that packs its arguments into u64 slots, the prototype as
 * text and the slot types.  A marker name that is a tracepoint's is bound
 * to that entry (marker->tp) when a probe registers for it, or when the
 * module defining the tracepoint comes while probes wait for the name.
 * The marker's format is then the prototype.  While the marker has
 * probes, the entry's probe is registered with the tracepoint, with the
 * marker as its data, and calls what the marker's probe array names, as
 * a MARK() site would.  A MARK() site never takes a tracepoint's name.
 *
 * Everything but the hit runs under markers_mutex.  A marker stays bound,
 * and allocated, as long as its tracepoint exists, so a tracepoint probe
 * still running with the marker as data after its unregistration never
 * reads freed memory.  The markers of a module's tracepoints are unbound
 * when it goes, and released after tracepoint_synchronize_unregister(),
 * which runs without markers_mutex.
 */

#define pr_fmt(fmt) "markers: " fmt

#include <kunit/visibility.h>
#include <linux/cleanup.h>
#include <linux/debugfs.h>
#include <linux/marker.h>
#include <linux/marker_tp.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "marker_internal.h"

/**
 * struct marker_tp_mod - a loaded module that defines tracepoints
 * @list: link in marker_tp_mods, under markers_mutex
 * @mod: the module
 * @going: its markers, held across the wait when it goes
 */
struct marker_tp_mod {
	struct list_head list;
	struct module *mod;
	struct marker **going;
};

static LIST_HEAD(marker_tp_mods);

/* A tracepoint hit: call what the marker's probe array names, as a site. */
static __always_inline void marker_tp_hit(void *data, const u64 *args)
{
	const struct marker *m = data;
	const struct marker_funcs *f;

	__marker_read_guard();
	f = __marker_deref(m->funcs);
	if (likely(f))
		f->call(f->data, f->marker, args);
}

/*
 * marker_tp_hit<N>() - pass a tracepoint hit to the probes of its marker:
 * @data is the struct marker the tracepoint probe was registered with,
 * the rest the tracepoint's N arguments as u64 slots.  Called by the
 * tracepoint probes <trace/marker_tp.h> defines, in the tracepoint's
 * context; one function per argument count, so that those probes pass
 * their slots in registers, as bpf_trace_run<N>() does for BPF.
 */
#define MARKER_TP_HIT(n, params, ...)					\
notrace void marker_tp_hit##n(void *data, params)			\
{									\
	const u64 args[] = { __VA_ARGS__ };				\
									\
	marker_tp_hit(data, args);					\
}									\
EXPORT_SYMBOL_GPL(marker_tp_hit##n)

MARKER_TP_HIT(1, PARAMS(u64 a0), a0);
MARKER_TP_HIT(2, PARAMS(u64 a0, u64 a1), a0, a1);
MARKER_TP_HIT(3, PARAMS(u64 a0, u64 a1, u64 a2), a0, a1, a2);
MARKER_TP_HIT(4, PARAMS(u64 a0, u64 a1, u64 a2, u64 a3), a0, a1, a2, a3);
MARKER_TP_HIT(5, PARAMS(u64 a0, u64 a1, u64 a2, u64 a3, u64 a4),
	      a0, a1, a2, a3, a4);
MARKER_TP_HIT(6, PARAMS(u64 a0, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5),
	      a0, a1, a2, a3, a4, a5);
MARKER_TP_HIT(7, PARAMS(u64 a0, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5,
			u64 a6),
	      a0, a1, a2, a3, a4, a5, a6);
MARKER_TP_HIT(8, PARAMS(u64 a0, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5,
			u64 a6, u64 a7),
	      a0, a1, a2, a3, a4, a5, a6, a7);
MARKER_TP_HIT(9, PARAMS(u64 a0, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5,
			u64 a6, u64 a7, u64 a8),
	      a0, a1, a2, a3, a4, a5, a6, a7, a8);
MARKER_TP_HIT(10, PARAMS(u64 a0, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5,
			 u64 a6, u64 a7, u64 a8, u64 a9),
	      a0, a1, a2, a3, a4, a5, a6, a7, a8, a9);
MARKER_TP_HIT(11, PARAMS(u64 a0, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5,
			 u64 a6, u64 a7, u64 a8, u64 a9, u64 a10),
	      a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10);
MARKER_TP_HIT(12, PARAMS(u64 a0, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5,
			 u64 a6, u64 a7, u64 a8, u64 a9, u64 a10, u64 a11),
	      a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11);

static const struct marker_tp *marker_tp_search(const struct marker_tp *e,
						unsigned int nr,
						const char *name)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		if (!strcmp(e[i].tp->name, name))
			return &e[i];
	return NULL;
}

/**
 * marker_tp_find - the tracepoint named @name
 * @name: a marker name
 *
 * Context: markers_mutex held.
 * Return: the tracepoint's entry, or NULL if no loaded code defines one.
 */
const struct marker_tp *marker_tp_find(const char *name)
{
	const struct marker_tp *e;
	struct marker_tp_mod *tm;

	lockdep_assert_held(&markers_mutex);
	e = marker_tp_search(__start___marker_tp,
			     __stop___marker_tp - __start___marker_tp, name);
	if (e)
		return e;
	list_for_each_entry(tm, &marker_tp_mods, list) {
		e = marker_tp_search(tm->mod->marker_tps,
				     tm->mod->num_marker_tps, name);
		if (e)
			return e;
	}
	return NULL;
}

static int marker_tp_attach(struct marker *m, const struct marker_tp *e)
{
	char *proto;

	if (m->format && strcmp(m->format, e->prototype)) {
		pr_err("probes for %s expect format \"%s\", the tracepoint has \"%s\"\n",
		       m->name, m->format, e->prototype);
		return -EILSEQ;
	}
	if (!m->format) {
		proto = kstrdup(e->prototype, GFP_KERNEL);
		if (!proto)
			return -ENOMEM;
		m->format = proto;
	}
	/*
	 * Also when a probe asked for the prototype as its format before the
	 * tracepoint came: parsed as a format, it converts nothing.
	 */
	memcpy(m->types, e->types, e->nr_args);
	m->nr_args = e->nr_args;
	m->tp = e;
	return 0;
}

/*
 * Undo marker_tp_attach() for a marker no longer connected: its probes
 * wait for the name again, with the format they asked for, if any.
 */
static void marker_tp_unbind(struct marker *m)
{
	int nr;

	m->tp = NULL;
	marker_drop_format(m);
	if (m->format) {
		nr = marker_parse_format(m->format, m->types, MARKER_MAX_ARGS);
		m->nr_args = max(nr, 0);
	}
}

/**
 * marker_tp_bind - bind a marker to the tracepoint of its name, if any
 * @m: a marker a probe registers for
 *
 * A marker with sites is no tracepoint's.  A bound marker's format is
 * the tracepoint's prototype.
 *
 * Context: markers_mutex held.
 * Return: 0 if @m is bound or no tracepoint has its name; -EILSEQ if its
 * probes expect another format; -ENOMEM.
 */
int marker_tp_bind(struct marker *m)
{
	const struct marker_tp *e = m->tp;

	if (m->nr_sites)
		return 0;
	if (!e)
		e = marker_tp_find(m->name);
	return e ? marker_tp_attach(m, e) : 0;
}

/**
 * marker_tp_connect - register a bound marker's probe with its tracepoint
 * @m: a marker that gets a probe
 *
 * Does nothing if @m is bound to no tracepoint or is connected already:
 * a marker bound while probes waited for its name connects with the next
 * probe, as a marker getting its first one does.
 *
 * Context: markers_mutex held.
 * Return: 0, or the error of tracepoint_probe_register().
 */
int marker_tp_connect(struct marker *m)
{
	int ret;

	if (!m->tp || m->tp_connected)
		return 0;
	ret = tracepoint_probe_register(m->tp->tp, m->tp->probe, m);
	if (ret) {
		pr_err("cannot connect to tracepoint %s: %d\n", m->name, ret);
		return ret;
	}
	m->tp_connected = true;
	return 0;
}

/**
 * marker_tp_disconnect - unregister a connected marker's probe
 * @m: a marker that lost its last probe, or whose tracepoint goes
 *
 * Context: markers_mutex held.
 */
void marker_tp_disconnect(struct marker *m)
{
	int ret;

	if (!m->tp_connected)
		return;
	ret = tracepoint_probe_unregister(m->tp->tp, m->tp->probe, m);
	if (ret)
		pr_err("cannot disconnect from tracepoint %s: %d\n", m->name,
		       ret);
	m->tp_connected = false;
}

#ifdef CONFIG_MODULES
static struct marker_tp_mod *marker_tp_mod_find(struct module *mod)
{
	struct marker_tp_mod *tm;

	list_for_each_entry(tm, &marker_tp_mods, list)
		if (tm->mod == mod)
			return tm;
	return NULL;
}

/* Connect the probes waiting for the names of @mod's tracepoints. */
VISIBLE_IF_KUNIT int marker_tp_module_coming(struct module *mod)
{
	struct marker_tp_mod *tm;
	unsigned int i;

	/* As tracepoint_module_coming(): such tracepoints are never used. */
	if (trace_module_has_bad_taint(mod))
		return 0;
	tm = kzalloc_obj(*tm);
	if (!tm)
		return -ENOMEM;
	tm->going = kcalloc(mod->num_marker_tps, sizeof(*tm->going),
			    GFP_KERNEL);
	if (!tm->going) {
		kfree(tm);
		return -ENOMEM;
	}
	tm->mod = mod;

	guard(mutex)(&markers_mutex);
	list_add_tail(&tm->list, &marker_tp_mods);
	for (i = 0; i < mod->num_marker_tps; i++) {
		const struct marker_tp *e = &mod->marker_tps[i];
		struct marker *m = marker_lookup(e->tp->name);

		if (!m || m->tp)
			continue;
		if (m->nr_sites) {
			pr_err("tracepoint %s of %s has the name of a marker, not connectable by name\n",
			       e->tp->name, module_name(mod));
			continue;
		}
		if (marker_tp_attach(m, e))
			continue;
		if (marker_funcs_get(m) && marker_tp_connect(m))
			marker_tp_unbind(m);
	}
	return 0;
}

/*
 * Disconnect the markers bound to @mod's tracepoints; their probes wait
 * for the name again.  @mod leaves marker_tp_mods and its markers are
 * unbound at once, under markers_mutex, so that no probe binds to its
 * tracepoints any more; each stays held (holds) until no tracepoint
 * probe can still be running with it as data.  That wait runs without
 * markers_mutex, so registrations of other markers go on meanwhile; it
 * is only waited for when one of them was connected.
 */
VISIBLE_IF_KUNIT void marker_tp_module_going(struct module *mod)
{
	struct marker_tp_mod *tm;
	bool connected = false;
	struct marker *m;
	unsigned int i;

	scoped_guard(mutex, &markers_mutex) {
		tm = marker_tp_mod_find(mod);
		if (!tm)
			return;
		list_del(&tm->list);
		for (i = 0; i < mod->num_marker_tps; i++) {
			m = marker_lookup(mod->marker_tps[i].tp->name);
			if (!m || m->tp != &mod->marker_tps[i])
				continue;
			connected |= m->tp_connected;
			marker_tp_disconnect(m);
			marker_tp_unbind(m);
			m->holds++;
			tm->going[i] = m;
		}
	}
	if (connected)
		tracepoint_synchronize_unregister();
	scoped_guard(mutex, &markers_mutex) {
		for (i = 0; i < mod->num_marker_tps; i++) {
			m = tm->going[i];
			if (!m)
				continue;
			m->holds--;
			marker_put(m);
		}
	}
	kfree(tm->going);
	kfree(tm);
}

static int marker_tp_module_notify(struct notifier_block *nb,
				   unsigned long action, void *data)
{
	struct module *mod = data;

	if (!mod->num_marker_tps)
		return NOTIFY_DONE;
	switch (action) {
	case MODULE_STATE_COMING:
		return notifier_from_errno(marker_tp_module_coming(mod));
	case MODULE_STATE_GOING:
		marker_tp_module_going(mod);
		break;
	}
	return NOTIFY_OK;
}

/*
 * Before the markers' own notifier (priority 0), so that a module's
 * sites find its tracepoints' names taken; after jump_label's (1, but
 * registered earlier), which the tracepoints' static keys need.  Also
 * before static_call's (0): a tracepoint's static_call retargeted here
 * has its call sites patched from the key's target when static_call
 * initializes the module's sites.
 */
static struct notifier_block marker_tp_module_nb = {
	.notifier_call = marker_tp_module_notify,
	.priority = 1,
};

static int __init marker_tp_module_init(void)
{
	return register_module_notifier(&marker_tp_module_nb);
}
core_initcall(marker_tp_module_init);
#endif /* CONFIG_MODULES */

#ifdef CONFIG_DEBUG_FS
static void marker_tp_show_entries(struct seq_file *s,
				   const struct marker_tp *e,
				   unsigned int nr, const char *owner)
{
	struct marker_funcs *funcs;
	struct marker *m;
	unsigned int i;

	for (i = 0; i < nr; i++) {
		m = marker_lookup(e[i].tp->name);
		funcs = m && m->tp == &e[i] ? marker_funcs_get(m) : NULL;
		seq_printf(s, "%s owner=%s probes=%u proto=\"%s\"\n",
			   e[i].tp->name, owner, funcs ? funcs->nr : 0,
			   e[i].prototype);
	}
}

/* One line per tracepoint probes can connect to by name. */
static int marker_tracepoints_show(struct seq_file *s, void *v)
{
	struct marker_tp_mod *tm;

	guard(mutex)(&markers_mutex);
	marker_tp_show_entries(s, __start___marker_tp,
			       __stop___marker_tp - __start___marker_tp,
			       "vmlinux");
	list_for_each_entry(tm, &marker_tp_mods, list)
		marker_tp_show_entries(s, tm->mod->marker_tps,
				       tm->mod->num_marker_tps,
				       module_name(tm->mod));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(marker_tracepoints);

/* After markers_debugfs_init(), an fs_initcall of an earlier object. */
static int __init marker_tp_debugfs_init(void)
{
	struct dentry *dir = debugfs_lookup("markers", NULL);

	if (IS_ERR_OR_NULL(dir))
		return 0;
	debugfs_create_file("tracepoints", 0400, dir, NULL,
			    &marker_tracepoints_fops);
	dput(dir);
	return 0;
}
fs_initcall(marker_tp_debugfs_init);
#endif /* CONFIG_DEBUG_FS */
