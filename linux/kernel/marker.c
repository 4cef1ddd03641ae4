// SPDX-License-Identifier: GPL-2.0
/*
 * Markers: the registry connecting MARK() sites and probes by name.
 *
 * markers_mutex guards the list of markers, each marker's sites, format,
 * probe array updates and key state, and the notifier chain.  It is taken
 * by the exported registration functions; static key updates nest
 * inside it (they take cpus_read_lock() and jump_label_mutex).
 *
 * Readers are the marker sites and the probe iterator.  They run in the
 * read side of __marker_read_guard() (<linux/marker.h>), which follows
 * the base's tracepoints, and rely on:
 *  - site->funcs, a copy of marker->funcs, being set before the site's
 *    key is enabled;
 *  - marker->funcs and the sites' copies being published with
 *    rcu_assign_pointer() and freed only after a read-side grace period
 *    (marker_free_funcs()), the marker too;
 *  - a site reading the function it calls and that function's data from
 *    the one array it fetched (struct marker_funcs).
 */

#define pr_fmt(fmt) "markers: " fmt

#include <linux/cleanup.h>
#include <linux/jump_label_batch.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/srcu.h>
#include <linux/string.h>

static DEFINE_MUTEX(markers_mutex);
static LIST_HEAD(markers_list);
static RAW_NOTIFIER_HEAD(marker_notifier);

DEFINE_PER_CPU(unsigned int, marker_nesting);
EXPORT_PER_CPU_SYMBOL_GPL(marker_nesting);

static void marker_funcs_free_cb(struct rcu_head *head)
{
	kfree(container_of(head, struct marker_funcs, rcu));
}

/* Free a probe array once no site or iterator can be reading it. */
static void marker_free_funcs(struct marker_funcs *funcs)
{
	call_srcu(&tracepoint_srcu, &funcs->rcu, marker_funcs_free_cb);
}

static void marker_free_cb(struct rcu_head *head)
{
	kfree(container_of(head, struct marker, rcu));
}

/*
 * What sites call while two or more probes are connected: each probe,
 * with its own data and the same arguments, in registration order.
 */
static void marker_probe_iterate(void *data, const struct marker *m,
				 const u64 *args)
{
	const struct marker_funcs *funcs = data;
	unsigned int i;

	for (i = 0; i < funcs->nr; i++)
		funcs->f[i].probe(funcs->f[i].data, m, args);
}

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
	INIT_LIST_HEAD(&m->sites);
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
	kfree(m->format);
	/* Sites and probes are gone; wait for a probe still reading it. */
	call_srcu(&tracepoint_srcu, &m->rcu, marker_free_cb);
}

/*
 * Queue in @batch the switch of @site's key to @enable.  If it cannot be
 * queued, apply what the batch holds and switch the key at once: no
 * change is lost.
 */
static void marker_site_queue(struct static_key_batch *batch,
			      struct marker_site *site, bool enable)
{
	int ret;

	ret = enable ? static_branch_batch_enable(batch, &site->key) :
		       static_branch_batch_disable(batch, &site->key);
	if (!ret)
		return;
	static_key_batch_apply(batch);
	if (enable)
		static_branch_enable(&site->key);
	else
		static_branch_disable(&site->key);
}

/* Queue in @batch the switch of every site of @m to @enable. */
static void marker_queue(struct static_key_batch *batch, struct marker *m,
			 bool enable)
{
	struct marker_site *site;

	if (m->live_enabled == enable)
		return;
	list_for_each_entry(site, &m->sites, node)
		marker_site_queue(batch, site, enable);
	m->live_enabled = enable;
}

/* Make @enable the state of the sites of @m, in one static key batch. */
static void marker_switch(struct marker *m, bool enable)
{
	DEFINE_STATIC_KEY_BATCH(keys);

	marker_queue(&keys, m, enable);
	static_key_batch_apply(&keys);
}

/*
 * Publish @new as the probes of @m, to the registry and to each site, and
 * switch the sites on while it has probes.  A site reads the function it
 * calls and its data from the array it fetched, so a site still running
 * with an older array calls what that array says: the key switch needs
 * no ordering against the publication, and a removed probe's last calls
 * end before its array is freed (marker_free_funcs()).
 */
static void marker_update(struct marker *m, struct marker_funcs *new)
{
	struct marker_site *site;

	rcu_assign_pointer(m->funcs, new);
	list_for_each_entry(site, &m->sites, node)
		rcu_assign_pointer(site->funcs, new);
	marker_switch(m, new);
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

/* Set what the sites call, once the probes of @funcs are filled in. */
static void marker_funcs_set_call(struct marker_funcs *funcs)
{
	if (funcs->nr == 1) {
		funcs->call = funcs->f[0].probe;
		funcs->data = funcs->f[0].data;
	} else {
		funcs->call = marker_probe_iterate;
		funcs->data = funcs;
	}
}

static int marker_probe_add(const char *name, const char *format,
			    marker_probe_fn probe, void *data)
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
	marker_funcs_set_call(new);
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

static int marker_probe_remove(const char *name, marker_probe_fn probe,
			       void *data)
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
		marker_funcs_set_call(new);
	}
	marker_update(m, new);
	marker_free_funcs(old);
	marker_drop_format(m);
	marker_put(m);
	return 0;
}

/**
 * marker_probe_register - connect a probe to the marker named @name
 * @name: marker name
 * @format: format the probe expects, or NULL for any
 * @probe: the probe, see marker_probe_fn and DEFINE_MARKER_PROBE()
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
			  marker_probe_fn probe, void *data)
{
	if (!name || !probe)
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
int marker_probe_unregister(const char *name, marker_probe_fn probe,
			    void *data)
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
 * or unloading the module that holds the probe.  Sites read their probe
 * arrays under tracepoint_srcu, so tracepoint_synchronize_unregister()
 * waits for marker probes as well.
 *
 * Context: Process context, may sleep.
 */
void marker_synchronize_unregister(void)
{
	synchronize_srcu(&tracepoint_srcu);
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

static void marker_site_add(struct static_key_batch *batch,
			    struct marker_site *site)
{
	u8 types[MARKER_MAX_ARGS];
	struct marker *m;
	int nr;

	nr = marker_parse_format(site->format, types, MARKER_MAX_ARGS);
	if (nr < 0) {
		pr_err("%s: unsupported format \"%s\" in %s, site not connected\n",
		       site->name, site->format, marker_site_owner(site));
		return;
	}
	/* Probes read m->nr_args slots: never more than the site passes. */
	if (nr != site->nr_args) {
		pr_err("%s: format \"%s\" in %s converts %d arguments, site passes %u, site not connected\n",
		       site->name, site->format, marker_site_owner(site), nr,
		       site->nr_args);
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
		marker_site_queue(batch, site, true);
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

static int __init markers_init(void)
{
	marker_sites_add(__start___markers, __stop___markers);
	return 0;
}
core_initcall(markers_init);
