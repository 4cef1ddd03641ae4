// SPDX-License-Identifier: GPL-2.0
/*
 * Markers: the registry connecting MARK() sites and probes by name.
 *
 * markers_mutex guards the list of markers, each marker's sites, format,
 * probe array updates and call state, and the notifier chain.  It is taken
 * by the exported registration functions, the module notifier and the
 * debugfs listing; static key and static_call updates nest inside it (they
 * take cpus_read_lock() and jump_label_mutex/static_call_mutex).
 *
 * markers_batch_mutex is taken by marker_batch_begin() and released by
 * marker_batch_commit(); it nests outside everything else (a batch owner
 * may take event_mutex and register probes between the two calls).  While
 * a task owns the batch, the markers its registrations change are queued
 * on markers_batch_list (under markers_mutex); the commit moves their
 * trampolines and keys in one static key batch.
 *
 * Readers are the marker sites and the probe iterator.  They run in a
 * marker_srcu read-side section (SRCU-fast, as tracepoints use) and rely
 * on:
 *  - site->funcs, a copy of marker->funcs, being set before the site's
 *    key is enabled;
 *  - marker->funcs and the sites' copies being published with
 *    rcu_assign_pointer() and freed only after a marker_srcu grace period
 *    (marker_free_funcs()), the marker too;
 *  - the data a site passes with a direct call matching the probe its
 *    trampoline jumps to (see marker_update()).
 */

#define pr_fmt(fmt) "markers: " fmt

#include <linux/cleanup.h>
#include <linux/debugfs.h>
#include <linux/jump_label_txn.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/srcu.h>
#include <linux/static_call.h>
#include <linux/string.h>

static DEFINE_MUTEX(markers_mutex);
static LIST_HEAD(markers_list);
static RAW_NOTIFIER_HEAD(marker_notifier);
static DEFINE_MUTEX(markers_batch_mutex);
static LIST_HEAD(markers_batch_list);
static struct task_struct *markers_batch_owner;

DEFINE_PER_CPU(unsigned int, marker_nesting);
EXPORT_PER_CPU_SYMBOL_GPL(marker_nesting);

/* Sites in modules enter it inline. */
DEFINE_SRCU_FAST(marker_srcu);
EXPORT_SYMBOL_GPL(marker_srcu);

/* Grace period state of marker_srcu, for marker_gp_wait(). */
static unsigned long marker_gp_state(void)
{
	return get_state_synchronize_srcu(&marker_srcu);
}

/* Wait until readers that started before @state are done. */
static void marker_gp_wait(unsigned long state)
{
	if (!poll_state_synchronize_srcu(&marker_srcu, state))
		synchronize_srcu(&marker_srcu);
}

static void marker_funcs_free_cb(struct rcu_head *head)
{
	kfree(container_of(head, struct marker_funcs, rcu));
}

/* Free a probe array once no site or iterator can be reading it. */
static void marker_free_funcs(struct marker_funcs *funcs)
{
	call_srcu(&marker_srcu, &funcs->rcu, marker_funcs_free_cb);
}

static void marker_free_cb(struct rcu_head *head)
{
	kfree(container_of(head, struct marker, rcu));
}

extern struct marker_site __start___markers[];
extern struct marker_site __stop___markers[];

/**
 * __marker_stub - call target of sites with no probe
 * @data: unused
 * @m: unused
 *
 * Context: Any; does nothing.
 */
void __marker_stub(void *data, const struct marker *m, ...)
{
}
EXPORT_SYMBOL_GPL(__marker_stub);

/**
 * __marker_probe_iterate - call each probe connected to a marker
 * @data: ignored; each probe gets its own data
 * @m: the marker that was hit
 *
 * The call target of sites while two or more probes are connected.
 * Each probe gets its own copy of the argument list, in registration
 * order; a hit from one of them on the same CPU and in the same context
 * is dropped (see marker_recursion_enter()).
 *
 * Context: From a marker site, in its marker_srcu read-side section; the
 * probes run with preemption disabled.
 */
void __marker_probe_iterate(void *data, const struct marker *m, ...)
{
	struct marker_funcs *funcs;
	unsigned int i, bit;
	va_list args, copy;

	funcs = __marker_deref(m->funcs);
	if (!funcs)
		return;
	marker_probe_guard();
	bit = marker_recursion_enter();
	if (!bit)
		return;
	va_start(args, m);
	for (i = 0; i < funcs->nr; i++) {
		va_copy(copy, args);
		funcs->f[i].probe->vcall(funcs->f[i].data, m, &copy);
		va_end(copy);
	}
	va_end(args);
	marker_recursion_exit(bit);
}
EXPORT_SYMBOL_GPL(__marker_probe_iterate);

static const char *marker_site_owner(const struct marker_site *site)
{
	return site->mod ? module_name(site->mod) : "vmlinux";
}

static struct marker *marker_lookup(const char *name)
{
	struct marker *m;

	list_for_each_entry(m, &markers_list, list)
		if (!strcmp(m->name, name))
			return m;
	return NULL;
}

static struct marker *marker_alloc(const char *name)
{
	size_t len = strlen(name) + 1;
	struct marker *m;
	char *p;

	m = kzalloc(sizeof(*m) + len, GFP_KERNEL);
	if (!m)
		return NULL;
	p = (char *)(m + 1);
	memcpy(p, name, len);
	m->name = p;
	m->call = __marker_stub;
	m->live = __marker_stub;
	m->sync_cookie = get_completed_synchronize_srcu();
	INIT_LIST_HEAD(&m->sites);
	INIT_LIST_HEAD(&m->batch_node);
	list_add_tail(&m->list, &markers_list);
	return m;
}

static struct marker_funcs *marker_funcs_get(struct marker *m)
{
	return rcu_dereference_protected(m->funcs,
					 lockdep_is_held(&markers_mutex));
}

static bool marker_has_probe_format(struct marker *m)
{
	struct marker_funcs *funcs = marker_funcs_get(m);
	unsigned int i;

	for (i = 0; funcs && i < funcs->nr; i++)
		if (funcs->f[i].has_format)
			return true;
	return false;
}

static int marker_set_format(struct marker *m, const char *format)
{
	u8 types[MARKER_MAX_ARGS];
	const char *copy;
	int nr;

	nr = marker_parse_format(format, types, MARKER_MAX_ARGS);
	if (nr < 0)
		return nr;
	copy = kstrdup(format, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	memcpy(m->types, types, nr);
	m->nr_args = nr;
	m->format = copy;
	return 0;
}

/* Forget a format no site and no probe asks for any more. */
static void marker_drop_format(struct marker *m)
{
	if (m->nr_sites || !m->format || marker_has_probe_format(m))
		return;
	kfree(m->format);
	m->format = NULL;
	m->nr_args = 0;
}

static void marker_put(struct marker *m)
{
	if (m->nr_sites || marker_funcs_get(m))
		return;
	list_del(&m->list);
	list_del(&m->batch_node);
	kfree(m->format);
	/* Sites and probes are gone; wait for a probe still reading it. */
	call_srcu(&marker_srcu, &m->rcu, marker_free_cb);
}

static void marker_site_set_call(struct marker_site *site, void *call)
{
#ifdef CONFIG_MARKERS_DIRECT_CALL
	__static_call_update(&site->call, (void *)(site->tramp - 1), call);
#else
	WRITE_ONCE(site->func, call);
#endif
}

static bool marker_call_is_probe(void *call)
{
	return call != __marker_stub && call != __marker_probe_iterate;
}

/*
 * Queue in @batch the retarget of @site's trampoline to @call and the
 * switch of its key to @enable.  If they cannot be queued, apply what the
 * batch holds and make them at once: no change is lost.
 */
static void marker_site_queue(struct static_key_batch *batch,
			      struct marker_site *site, void *call,
			      bool enable)
{
	int ret = 0;

#ifdef CONFIG_MARKERS_DIRECT_CALL
	ret = __static_call_batch_update(batch, &site->call,
					 (void *)(site->tramp - 1), call);
#else
	marker_site_set_call(site, call);
#endif
	if (!ret)
		ret = enable ? static_branch_batch_enable(batch, &site->key) :
			       static_branch_batch_disable(batch, &site->key);
	if (!ret)
		return;
	static_key_batch_apply(batch);
	marker_site_set_call(site, call);
	if (enable)
		static_branch_enable(&site->key);
	else
		static_branch_disable(&site->key);
}

/*
 * Queue in @batch the changes that point every site of @m at @call and
 * turn its key to @enable: when the batch is applied, the trampoline
 * pokes and the jump sites share its text_poke batches.  The sites' text
 * then holds m->live and m->live_enabled.
 *
 * Within one text_poke batch some sites may run the new code while
 * others (or the trampoline) still run the old.  That is safe because
 * each step keeps the invariant of marker_update(): a trampoline that
 * jumps to a single probe only ever sees that probe's data, and the stub
 * and the iterator ignore the data they get.  The caller waits for
 * m->sync_cookie before queueing a move to a new single probe.
 */
static void marker_queue(struct static_key_batch *batch, struct marker *m,
			 void *call, bool enable)
{
	struct marker_site *site;

	list_for_each_entry(site, &m->sites, node)
		marker_site_queue(batch, site, call, enable);
	m->live = call;
	/* A single probe's data is the first of the array published. */
	m->live_data = marker_call_is_probe(call) ?
		       marker_funcs_get(m)->f[0].data : NULL;
	m->live_enabled = enable;
}

/* Move the sites of @m to @call and @enable now, in one static key batch. */
static void marker_apply(struct marker *m, void *call, bool enable)
{
	DEFINE_STATIC_KEY_BATCH(batch);

	/* Readers of an older array must not reach a new single probe. */
	if (call != m->live && marker_call_is_probe(call))
		marker_gp_wait(m->sync_cookie);
	marker_queue(&batch, m, call, enable);
	static_key_batch_apply(&batch);
}

/*
 * Make @call and @enable the state of the sites of @m, at once or, in a
 * batch (see marker_batch_begin()), at marker_batch_commit().
 */
static void marker_switch(struct marker *m, void *call, bool enable)
{
	m->call = call;
	m->enabled = enable;
	if (markers_batch_owner != current)
		marker_apply(m, call, enable);
	else if (list_empty(&m->batch_node))
		list_add_tail(&m->batch_node, &markers_batch_list);
}

/* Publish @new as the probes of @m, to the registry and to each site. */
static void marker_publish(struct marker *m, struct marker_funcs *new)
{
	struct marker_site *site;

	rcu_assign_pointer(m->funcs, new);
	list_for_each_entry(site, &m->sites, node)
		rcu_assign_pointer(site->funcs, new);
}

/*
 * Publish @new as the probes of @m and move the sites to the matching
 * state: 0 (off), 1 (trampoline jumps to the probe) or N (trampoline
 * jumps to the iterator).
 *
 * A site reads the data of the first probe of the array it sees and
 * passes it to its trampoline, so a trampoline that jumps to a single
 * probe must never be reached with another probe's data:
 *  - before publishing an array whose first probe is not the one the
 *    trampolines jump to now, they are moved to the iterator (at once,
 *    even in a batch; only a batch that replaces a probe needs it);
 *  - publishing an array with another first probe takes a marker_srcu
 *    cookie, and no trampoline moves to a single probe before it
 *    completed, so readers that fetched data from an older array are
 *    gone.
 */
static void marker_update(struct marker *m, struct marker_funcs *new)
{
	struct marker_funcs *old = marker_funcs_get(m);
	unsigned int nr = new ? new->nr : 0;

	if (new && marker_call_is_probe(m->live) &&
	    (new->f[0].probe->call != m->live ||
	     new->f[0].data != m->live_data))
		marker_apply(m, __marker_probe_iterate, m->live_enabled);

	marker_publish(m, new);
	if (old && (!new || old->f[0].probe != new->f[0].probe ||
		    old->f[0].data != new->f[0].data))
		m->sync_cookie = marker_gp_state();

	switch (nr) {
	case 0:
		marker_switch(m, __marker_stub, false);
		break;
	case 1:
		marker_switch(m, new->f[0].probe->call, true);
		break;
	default:
		marker_switch(m, __marker_probe_iterate, true);
		break;
	}
}

static struct marker_funcs *marker_funcs_alloc(struct marker *m,
					       unsigned int nr, gfp_t gfp)
{
	struct marker_funcs *funcs;

	funcs = kzalloc(struct_size(funcs, f, nr), gfp);
	if (funcs) {
		funcs->marker = m;
		funcs->nr = nr;
	}
	return funcs;
}

static int marker_probe_add(const char *name, const char *format,
			    const struct marker_probe *probe, void *data)
{
	struct marker_funcs *old, *new;
	struct marker *m;
	unsigned int i, nr;
	int ret;

	m = marker_lookup(name);
	if (!m) {
		m = marker_alloc(name);
		if (!m)
			return -ENOMEM;
	}
	if (format && m->format && strcmp(format, m->format)) {
		pr_err("probe for %s expects format \"%s\", marker has \"%s\"\n",
		       name, format, m->format);
		ret = -EILSEQ;
		goto out_put;
	}
	old = marker_funcs_get(m);
	nr = old ? old->nr : 0;
	for (i = 0; i < nr; i++) {
		if (old->f[i].probe == probe && old->f[i].data == data) {
			ret = -EEXIST;
			goto out_put;
		}
	}
	new = marker_funcs_alloc(m, nr + 1, GFP_KERNEL);
	if (!new) {
		ret = -ENOMEM;
		goto out_put;
	}
	if (format && !m->format) {
		ret = marker_set_format(m, format);
		if (ret)
			goto out_free;
	}
	if (nr)
		memcpy(new->f, old->f, nr * sizeof(*new->f));
	new->f[nr].probe = probe;
	new->f[nr].data = data;
	new->f[nr].has_format = format;
	marker_update(m, new);
	if (old)
		marker_free_funcs(old);
	return 0;

out_free:
	kfree(new);
out_put:
	marker_put(m);
	return ret;
}

static int marker_probe_remove(const char *name,
			       const struct marker_probe *probe, void *data)
{
	struct marker_funcs *old, *new = NULL;
	unsigned int i, j;
	struct marker *m;

	m = marker_lookup(name);
	if (!m)
		return -ENOENT;
	old = marker_funcs_get(m);
	for (i = 0; old && i < old->nr; i++)
		if (old->f[i].probe == probe && old->f[i].data == data)
			break;
	if (!old || i == old->nr)
		return -ENOENT;
	if (old->nr > 1) {
		/* Small; failing here would leave a probe nobody owns. */
		new = marker_funcs_alloc(m, old->nr - 1,
					 GFP_KERNEL | __GFP_NOFAIL);
		for (i = 0, j = 0; i < old->nr; i++)
			if (old->f[i].probe != probe || old->f[i].data != data)
				new->f[j++] = old->f[i];
	}
	marker_update(m, new);
	marker_free_funcs(old);
	marker_drop_format(m);
	marker_put(m);
	return 0;
}

/**
 * marker_batch_begin - start queueing the site changes of this task
 *
 * Until marker_batch_commit(), probe registrations and unregistrations
 * by the calling task change probe arrays at once but queue the
 * trampoline and static key changes they cause; the commit makes all of
 * them in one static key batch (one text_poke batch sequence while the
 * trampolines and sites fit one vector).  Probes connected in the
 * batch may be called only from the commit on; removed ones stop at once,
 * as without a batch.  Other tasks register as usual meanwhile.
 *
 * Context: Process context, no marker or static key locks held; takes
 * markers_batch_mutex, which marker_batch_commit() releases.
 */
void marker_batch_begin(void)
{
	mutex_lock(&markers_batch_mutex);
	guard(mutex)(&markers_mutex);
	markers_batch_owner = current;
}
EXPORT_SYMBOL_GPL(marker_batch_begin);

/**
 * marker_batch_commit - move the sites queued since marker_batch_begin()
 *
 * Context: Process context, after marker_batch_begin() by the same task.
 * Return: 0, or -EINVAL (and a warning) without a batch of this task.
 */
int marker_batch_commit(void)
{
	DEFINE_STATIC_KEY_BATCH(batch);
	struct marker *m, *tmp;

	if (WARN_ON_ONCE(markers_batch_owner != current))
		return -EINVAL;
	scoped_guard(mutex, &markers_mutex) {
		markers_batch_owner = NULL;
		/* Wait for old readers before the batch is applied. */
		list_for_each_entry(m, &markers_batch_list, batch_node) {
			if (m->call != m->live && marker_call_is_probe(m->call))
				marker_gp_wait(m->sync_cookie);
		}
		list_for_each_entry_safe(m, tmp, &markers_batch_list, batch_node) {
			list_del_init(&m->batch_node);
			marker_queue(&batch, m, m->call, m->enabled);
		}
		/* Nothing queued, nothing to patch: an empty apply is free. */
		static_key_batch_apply(&batch);
	}
	mutex_unlock(&markers_batch_mutex);
	return 0;
}
EXPORT_SYMBOL_GPL(marker_batch_commit);

/**
 * marker_probe_register - connect a probe to the marker named @name
 * @name: marker name
 * @format: format the probe expects, or NULL for any
 * @probe: the probe, see DEFINE_MARKER_PROBE()
 * @data: passed to each call of the probe
 *
 * The probe is called on each hit of every site named @name, now and in
 * modules loaded later: a name no loaded code defines yet is kept pending.
 * A pair (@probe, @data) connects at most once per name.
 *
 * Context: Process context; takes markers_mutex, may sleep.
 * Return: 0 on success; -EINVAL if @name or @probe is missing or @format is
 * malformed; -EILSEQ if @format differs from the marker's format (both are
 * logged); -EEXIST if (@probe, @data) is already connected to @name;
 * -ENOMEM on allocation failure.
 */
int marker_probe_register(const char *name, const char *format,
			  const struct marker_probe *probe, void *data)
{
	if (!name || !probe || !probe->call || !probe->vcall)
		return -EINVAL;
	if (format && marker_parse_format(format, NULL, MARKER_MAX_ARGS) < 0)
		return -EINVAL;
	guard(mutex)(&markers_mutex);
	return marker_probe_add(name, format, probe, data);
}
EXPORT_SYMBOL_GPL(marker_probe_register);

/**
 * marker_probe_unregister - disconnect a probe from the marker @name
 * @name: marker name
 * @probe: the probe given to marker_probe_register()
 * @data: the data given to marker_probe_register()
 *
 * On return, the sites no longer call the probe for new hits; calls in
 * flight may still run until marker_synchronize_unregister() returns.
 *
 * Context: Process context; takes markers_mutex, may sleep.
 * Return: 0 on success, -ENOENT if (@probe, @data) is not connected to
 * @name.
 */
int marker_probe_unregister(const char *name,
			    const struct marker_probe *probe, void *data)
{
	if (!name || !probe)
		return -ENOENT;

	guard(mutex)(&markers_mutex);
	return marker_probe_remove(name, probe, data);
}
EXPORT_SYMBOL_GPL(marker_probe_unregister);

/**
 * marker_synchronize_unregister - wait for probe calls in flight
 *
 * Call after marker_probe_unregister() and before freeing the probe's data
 * or unloading the module that holds the probe.
 *
 * Context: Process context, may sleep.
 */
void marker_synchronize_unregister(void)
{
	synchronize_srcu(&marker_srcu);
}
EXPORT_SYMBOL_GPL(marker_synchronize_unregister);

/**
 * marker_for_each - call @cb for each marker known to the registry
 * @cb: callback; a non-zero return stops the walk
 * @priv: passed to @cb
 *
 * Markers with only pending probes have nr_sites == 0.  @cb runs under
 * markers_mutex and must not call the registration functions.
 *
 * Context: Process context; takes markers_mutex, may sleep.
 * Return: the first non-zero value returned by @cb, else 0.
 */
int marker_for_each(int (*cb)(const struct marker *m, void *priv),
		    void *priv)
{
	struct marker *m;
	int ret;

	guard(mutex)(&markers_mutex);
	list_for_each_entry(m, &markers_list, list) {
		ret = cb(m, priv);
		if (ret)
			return ret;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(marker_for_each);

/**
 * register_marker_notifier - learn about markers appearing and going
 * @nb: called with MARKER_ADD when a marker gets its first site and
 *	MARKER_REMOVE when it loses its last one, the struct marker as data
 *
 * @nb is first called with MARKER_ADD for each marker that has sites.
 * Callbacks run under markers_mutex and must not call the registration
 * functions.
 *
 * Context: Process context; takes markers_mutex, may sleep.
 * Return: 0 on success, or the error of the chain registration.
 */
int register_marker_notifier(struct notifier_block *nb)
{
	struct marker *m;
	int ret;

	guard(mutex)(&markers_mutex);
	ret = raw_notifier_chain_register(&marker_notifier, nb);
	if (ret)
		return ret;
	list_for_each_entry(m, &markers_list, list)
		if (m->nr_sites)
			nb->notifier_call(nb, MARKER_ADD, m);
	return 0;
}
EXPORT_SYMBOL_GPL(register_marker_notifier);

/**
 * unregister_marker_notifier - stop notifications to @nb
 * @nb: a notifier given to register_marker_notifier()
 *
 * Context: Process context; takes markers_mutex, may sleep.
 * Return: 0 on success, -ENOENT if @nb was not registered.
 */
int unregister_marker_notifier(struct notifier_block *nb)
{
	guard(mutex)(&markers_mutex);
	return raw_notifier_chain_unregister(&marker_notifier, nb);
}
EXPORT_SYMBOL_GPL(unregister_marker_notifier);

static void marker_site_add(struct static_key_batch *batch,
			    struct marker_site *site)
{
	u8 types[MARKER_MAX_ARGS];
	struct marker *m;

	if (marker_parse_format(site->format, types, MARKER_MAX_ARGS) < 0) {
		pr_err("%s: unsupported format \"%s\" in %s, site not connected\n",
		       site->name, site->format, marker_site_owner(site));
		return;
	}
	m = marker_lookup(site->name);
	if (!m) {
		m = marker_alloc(site->name);
		if (!m)
			goto nomem;
	}
	if (m->format && strcmp(m->format, site->format)) {
		pr_err("%s: format \"%s\" in %s differs from \"%s\", site not connected\n",
		       site->name, site->format, marker_site_owner(site),
		       m->format);
		return;
	}
	if (!m->format && marker_set_format(m, site->format)) {
		marker_put(m);
		goto nomem;
	}
	list_add_tail(&site->node, &m->sites);
	WRITE_ONCE(site->marker, m);
	/* Read by the site once its key is enabled below. */
	rcu_assign_pointer(site->funcs, marker_funcs_get(m));
	if (!m->nr_sites++)
		raw_notifier_call_chain(&marker_notifier, MARKER_ADD, m);
	/* Join the other sites, in the batch of the whole section. */
	if (m->live_enabled)
		marker_site_queue(batch, site, m->live, true);
	return;

nomem:
	pr_err("%s: out of memory, site in %s not connected\n",
	       site->name, marker_site_owner(site));
}

static void marker_site_remove(struct marker_site *site)
{
	struct marker *m = site->marker;

	if (!m)
		return;
	list_del(&site->node);
	RCU_INIT_POINTER(site->funcs, NULL);
	WRITE_ONCE(site->marker, NULL);
	if (!--m->nr_sites)
		raw_notifier_call_chain(&marker_notifier, MARKER_REMOVE, m);
	marker_drop_format(m);
	marker_put(m);
}

/**
 * marker_sites_add - connect the sites of a section to the registry
 * @start: first site
 * @stop: end of the sites
 *
 * The sites of enabled markers are switched on in one static key batch,
 * however many there are (a module load costs one batch).
 *
 * Context: Process context; takes markers_mutex.
 */
void marker_sites_add(struct marker_site *start, struct marker_site *stop)
{
	DEFINE_STATIC_KEY_BATCH(batch);
	struct marker_site *site;

	guard(mutex)(&markers_mutex);
	for (site = start; site < stop; site++)
		marker_site_add(&batch, site);
	static_key_batch_apply(&batch);
}

/**
 * marker_sites_remove - disconnect the sites of a section
 * @start: first site
 * @stop: end of the sites
 *
 * The code of the sites must no longer run (module going away).
 *
 * Context: Process context; takes markers_mutex.
 */
void marker_sites_remove(struct marker_site *start, struct marker_site *stop)
{
	struct marker_site *site;

	guard(mutex)(&markers_mutex);
	for (site = start; site < stop; site++)
		marker_site_remove(site);
}

#ifdef CONFIG_MODULES
static int marker_module_notify(struct notifier_block *nb,
				unsigned long action, void *data)
{
	struct module *mod = data;

	if (!mod->num_markers)
		return NOTIFY_DONE;
	switch (action) {
	case MODULE_STATE_COMING:
		marker_sites_add(mod->markers, mod->markers + mod->num_markers);
		break;
	case MODULE_STATE_GOING:
		marker_sites_remove(mod->markers,
				    mod->markers + mod->num_markers);
		break;
	}
	return NOTIFY_OK;
}

static struct notifier_block marker_module_nb = {
	.notifier_call = marker_module_notify,
	.priority = 0,
};
#endif

#ifdef CONFIG_DEBUG_FS
static void *markers_seq_start(struct seq_file *s, loff_t *pos)
{
	mutex_lock(&markers_mutex);
	return seq_list_start(&markers_list, *pos);
}

static void *markers_seq_next(struct seq_file *s, void *v, loff_t *pos)
{
	return seq_list_next(v, &markers_list, pos);
}

static void markers_seq_stop(struct seq_file *s, void *v)
{
	mutex_unlock(&markers_mutex);
}

static int markers_seq_show(struct seq_file *s, void *v)
{
	struct marker *m = list_entry(v, struct marker, list);
	struct marker_funcs *funcs = marker_funcs_get(m);
	struct marker_site *site;
	const char *sep = "";

	seq_printf(s, "%s format=\"%s\" sites=%u enabled=%d probes=%u owners=",
		   m->name, m->format ?: "", m->nr_sites, m->enabled,
		   funcs ? funcs->nr : 0);
	list_for_each_entry(site, &m->sites, node) {
		seq_printf(s, "%s%s", sep, marker_site_owner(site));
		sep = ",";
	}
	seq_puts(s, *sep ? "\n" : "-\n");
	return 0;
}

static const struct seq_operations markers_sops = {
	.start	= markers_seq_start,
	.next	= markers_seq_next,
	.stop	= markers_seq_stop,
	.show	= markers_seq_show,
};
DEFINE_SEQ_ATTRIBUTE(markers);

/* debugfs is set up at core_initcall too, in a later object. */
static int __init markers_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir("markers", NULL);

	debugfs_create_file("list", 0400, dir, NULL, &markers_fops);
	return 0;
}
fs_initcall(markers_debugfs_init);
#endif

static int __init markers_init(void)
{
	marker_sites_add(__start___markers, __stop___markers);
#ifdef CONFIG_MODULES
	register_module_notifier(&marker_module_nb);
#endif
	return 0;
}
core_initcall(markers_init);
