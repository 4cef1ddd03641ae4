// SPDX-License-Identifier: GPL-2.0
/*
 * Markers: the static calls of the sites.
 *
 * A site calls through the static call of its name and object
 * (DEFINE_MARKER_CALL()) with the data of the probe array it fetched,
 * f[0].data.  What the static calls target, for every site of a marker:
 *
 *	no probe	marker_probe_iterate(), or NULL if never retargeted
 *	one probe	that probe, once no site can hold an array whose
 *			first probe is another; marker_probe_iterate() until
 *	more probes	marker_probe_iterate()
 *
 * marker_probe_iterate() ignores the data and calls the probes of the
 * marker's current array, so it is right with any array.  A probe is
 * right only with an array whose first entry is that probe and its data:
 *
 *  - before an array is published whose first entry is not the probe
 *    the static calls target, they are retargeted to the iterator at
 *    once (marker_call_publish()): only while a marker batch still has
 *    to apply a change of target.  A probe joining another is called
 *    once the static calls move to the iterator, in the batch that
 *    switches the marker (at once without a marker batch);
 *  - replacing an array with probes by none or by one with another
 *    first entry starts a grace period of the sites' read side once the
 *    new array is published (@replace_cookie): sites still holding the
 *    replaced array, or an older one, end within it, and sites entering
 *    later see the new one;
 *  - an array whose first entry differs from that of the last array
 *    with probes (@first_probe, @first_data) makes the sites wait for
 *    the grace period of the last replacement (@call_cookie, taken from
 *    @replace_cookie, marker_call_published()); a probe becomes the
 *    target only once it has ended.  Re-enabling the probe a marker had
 *    last, with the same data, as a marker's trace event does, waits for
 *    nothing, nor does a new probe long after the last one left.
 *    The registry never waits for it under markers_mutex: until it ends,
 *    the sites call the iterator, and a work item waits for it with no
 *    lock held, then retargets every marker that was waiting in one
 *    static key batch (marker_call_upgrade()).
 *
 * Retargets are queued in the static key batch that switches the sites'
 * keys, so that a registration, a marker batch or a module load patches
 * its static call sites with its jump sites.  Every field used here is
 * guarded by markers_mutex.
 */

#include <linux/jump_label_batch.h>
#include <linux/marker.h>
#include <linux/mutex.h>
#include <linux/srcu.h>
#include <linux/static_call.h>
#include <linux/workqueue.h>

#include "marker_internal.h"

/* Grace periods of the sites' read side (<linux/marker.h>). */
static unsigned long marker_call_gp_start(void)
{
	return start_poll_synchronize_srcu(&tracepoint_srcu);
}

static bool marker_call_gp_done(unsigned long cookie)
{
	return poll_state_synchronize_srcu(&tracepoint_srcu, cookie);
}

/* Markers whose sites call the iterator until a grace period ends. */
static LIST_HEAD(marker_upgrades);

static void marker_call_upgrade(struct work_struct *work);
static DECLARE_WORK(marker_upgrade_work, marker_call_upgrade);

static bool marker_call_direct(const struct marker *m)
{
	return m->live_call && m->live_call != marker_probe_iterate;
}

/*
 * What the sites of @m are to call now: a probe and its data, or the
 * iterator.  A probe that has to wait for the grace period of an older
 * first probe gets @m queued for marker_call_upgrade().
 */
static marker_probe_fn marker_call_want(struct marker *m, void **data)
{
	struct marker_funcs *funcs = marker_funcs_get(m);

	*data = NULL;
	if (!funcs || funcs->nr != 1)
		return marker_probe_iterate;
	if (m->call_wait) {
		if (!marker_call_gp_done(m->call_cookie)) {
			if (list_empty(&m->upgrade)) {
				list_add_tail(&m->upgrade, &marker_upgrades);
				m->holds++;
			}
			schedule_work(&marker_upgrade_work);
			return marker_probe_iterate;
		}
		m->call_wait = false;
	}
	*data = funcs->f[0].data;
	return funcs->f[0].probe;
}

/*
 * Queue the retarget of @site's static call to @fn in @batch, or make it
 * at once (after applying the batch) if the batch cannot take it.
 */
static void marker_call_site_queue(struct static_key_batch *batch,
				   struct marker_site *site, marker_probe_fn fn)
{
	if (!site->call_key)
		return;
	if (!__static_call_batch_update(batch, site->call_key,
					site->call_tramp, fn))
		return;
	static_key_batch_apply(batch);
	__static_call_update(site->call_key, site->call_tramp, fn);
}

static void marker_call_retarget(struct static_key_batch *batch,
				 struct marker *m, marker_probe_fn fn,
				 void *data)
{
	struct marker_site *site;

	list_for_each_entry(site, &m->sites, node)
		marker_call_site_queue(batch, site, fn);
	m->live_call = fn;
	m->live_data = data;
}

/*
 * Whether the static calls of @m are to be set: not without sites, nor
 * while they are NOPs (never set) and there is no probe.
 */
static bool marker_call_used(struct marker *m)
{
	return !list_empty(&m->sites) && (m->live_call || marker_funcs_get(m));
}

/**
 * marker_call_stale - whether the static calls of @m are to change
 * @m: the marker
 *
 * Context: markers_mutex held.
 */
bool marker_call_stale(struct marker *m)
{
	marker_probe_fn fn;
	void *data;

	if (!marker_call_used(m))
		return false;
	fn = marker_call_want(m, &data);
	return fn != m->live_call || data != m->live_data;
}

/**
 * marker_call_queue - queue the retarget of the static calls of @m
 * @batch: the static key batch that switches the sites of @m
 * @m: the marker
 *
 * Context: markers_mutex held.
 */
void marker_call_queue(struct static_key_batch *batch, struct marker *m)
{
	marker_probe_fn fn;
	void *data;

	if (!marker_call_used(m))
		return;
	fn = marker_call_want(m, &data);
	if (fn != m->live_call || data != m->live_data)
		marker_call_retarget(batch, m, fn, data);
}

/**
 * marker_call_publish - make the static calls of @m right for @new
 * @m: the marker
 * @new: the probe array about to replace marker_funcs_get(@m)
 *
 * Called before @new is published to the sites.
 *
 * Context: markers_mutex held.
 */
void marker_call_publish(struct marker *m, struct marker_funcs *new)
{
	if (marker_call_direct(m) && new &&
	    (new->f[0].probe != m->live_call ||
	     new->f[0].data != m->live_data)) {
		DEFINE_STATIC_KEY_BATCH(now);

		marker_call_retarget(&now, m, marker_probe_iterate, NULL);
		static_key_batch_apply(&now);
	}
}

/**
 * marker_call_published - note the grace period an array change needs
 * @m: the marker
 * @old: the probe array @new replaced
 * @new: the probe array just published to the marker and its sites
 *
 * A poll cookie covers the readers that began before it was taken, so it
 * is taken once no new reader can fetch @old.
 *
 * Context: markers_mutex held.
 */
void marker_call_published(struct marker *m, struct marker_funcs *old,
			   struct marker_funcs *new)
{
	if (old && (!new || new->f[0].probe != old->f[0].probe ||
		    new->f[0].data != old->f[0].data))
		m->replace_cookie = marker_call_gp_start();
	if (!new || (new->f[0].probe == m->first_probe &&
		     new->f[0].data == m->first_data))
		return;
	/*
	 * Sites may hold arrays with the earlier first entry until the
	 * grace period of the last replacement, which replaced the last of
	 * them (now, or when the marker lost its probes).
	 */
	if (m->first_probe) {
		m->call_cookie = m->replace_cookie;
		m->call_wait = true;
	}
	m->first_probe = new->f[0].probe;
	m->first_data = new->f[0].data;
}

/**
 * marker_call_site_add - set a new site's static call to its marker's target
 * @batch: the batch that switches the site on
 * @site: the site, just added to the sites of its marker
 *
 * The static call of a module's sites starts NULL; it gets what the
 * other sites of the marker call, which is right for every array the
 * sites may hold.  The first site of a marker (none is left of the
 * modules whose sites set the target before) gets what the marker's
 * probes ask now.
 *
 * Context: markers_mutex held.
 */
void marker_call_site_add(struct static_key_batch *batch,
			  struct marker_site *site)
{
	struct marker *m = site->marker;

	if (list_is_singular(&m->sites)) {
		m->live_call = NULL;
		m->live_data = NULL;
		marker_call_queue(batch, m);
	} else if (m->live_call) {
		marker_call_site_queue(batch, site, m->live_call);
	}
}

/*
 * Wait, with no lock held, for the grace periods the waiting markers
 * need, then retarget them in one static key batch.  A marker whose
 * first probe changed again meanwhile is queued again.
 */
static void marker_call_upgrade(struct work_struct *work)
{
	DEFINE_STATIC_KEY_BATCH(batch);
	struct marker *m, *tmp;
	LIST_HEAD(waiting);

	marker_synchronize_unregister();

	guard(mutex)(&markers_mutex);
	list_splice_init(&marker_upgrades, &waiting);
	list_for_each_entry_safe(m, tmp, &waiting, upgrade) {
		list_del_init(&m->upgrade);
		marker_call_queue(&batch, m);
		m->holds--;
		marker_put(m);
	}
	static_key_batch_apply(&batch);
}

/**
 * marker_call_flush - wait until no marker waits to call its probe directly
 *
 * For tests.  Once every grace period a marker waits for has ended, the
 * work item finds them all ended and does not queue itself again.
 *
 * Context: Process context, may sleep; markers_mutex not held.
 */
void marker_call_flush(void)
{
	marker_synchronize_unregister();
	flush_work(&marker_upgrade_work);
}
