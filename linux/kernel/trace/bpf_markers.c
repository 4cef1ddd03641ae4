// SPDX-License-Identifier: GPL-2.0
/*
 * Raw tracepoint BPF programs on markers.
 *
 * A marker hit passes its arguments as an array of u64 slots, which is
 * what a raw tracepoint program reads as its context: the program gets
 * the site's arguments, no record is built.  BPF_RAW_TRACEPOINT_OPEN (and
 * BPF_LINK_CREATE) with a name that no tracepoint has looks the name up
 * among the markers: a marker with sites gets a descriptor of its own for
 * the link, sized by its format, and the link connects a probe to the
 * marker by name, as marker_probe_register() does for any probe.  So the
 * link follows the marker's sites in modules loaded and unloaded after
 * it was made, and a program reading past the marker's arguments is
 * refused at attach, as on a tracepoint.
 *
 * Only untyped raw tracepoint programs: a marker has no BTF prototype,
 * so bpf_get_raw_tracepoint(), which the verifier and BTF-typed (tp_btf)
 * programs use, never returns one of these descriptors.
 */

#include <linux/bpf.h>
#include <linux/err.h>
#include <linux/log2.h>
#include <linux/marker.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/trace_events.h>
#include <linux/tracepoint.h>

#include "bpf_markers.h"

/**
 * struct bpf_marker_tp - what a raw tracepoint link on a marker holds
 * @btp: the descriptor the BPF core reads: @tp for the name, the number
 *	of arguments; its bpf_func tells it from a tracepoint's
 * @tp: a tracepoint that only carries the marker's name, never registered
 * @format: the marker's format at lookup, which the probe is connected with
 */
struct bpf_marker_tp {
	struct bpf_raw_event_map btp;
	struct tracepoint tp;
	char *format;
};

static void bpf_marker_raw_probe(void *data, const struct marker *m,
				 const u64 *args)
{
	bpf_trace_run_slots(data, args);
}

struct bpf_marker_lookup {
	const char *name;
	char *format;
	unsigned int nr_args;
};

static int bpf_marker_find(const struct marker *m, void *priv)
{
	struct bpf_marker_lookup *l = priv;

	if (!m->nr_sites || !m->format || strcmp(m->name, l->name))
		return 0;
	l->format = kstrdup(m->format, GFP_KERNEL);
	l->nr_args = m->nr_args;
	return l->format ? 1 : -ENOMEM;
}

/*
 * A descriptor for a raw tracepoint link on the marker named @name: NULL
 * if no marker of that name has sites, an ERR_PTR() if memory is short.
 */
struct bpf_raw_event_map *bpf_get_raw_marker(const char *name)
{
	struct bpf_marker_lookup l = { .name = name };
	struct bpf_marker_tp *mtp;
	int ret;

	ret = marker_for_each(bpf_marker_find, &l);
	if (ret <= 0)
		return ret ? ERR_PTR(ret) : NULL;
	/*
	 * kmalloc() aligns a power-of-two size to itself, which keeps the
	 * __aligned(32) of struct bpf_raw_event_map on every architecture.
	 */
	mtp = kzalloc(roundup_pow_of_two(sizeof(*mtp)), GFP_KERNEL);
	if (!mtp)
		goto fail;
	mtp->tp.name = kstrdup(name, GFP_KERNEL);
	if (!mtp->tp.name)
		goto fail;
	mtp->format = l.format;
	mtp->btp.tp = &mtp->tp;
	mtp->btp.bpf_func = (void *)bpf_marker_raw_probe;
	mtp->btp.num_args = l.nr_args;
	return &mtp->btp;
fail:
	kfree(mtp);
	kfree(l.format);
	return ERR_PTR(-ENOMEM);
}

bool bpf_is_raw_marker(const struct bpf_raw_event_map *btp)
{
	return btp->bpf_func == (void *)bpf_marker_raw_probe;
}

static struct bpf_marker_tp *bpf_marker_tp(struct bpf_raw_event_map *btp)
{
	return container_of(btp, struct bpf_marker_tp, btp);
}

void bpf_put_raw_marker(struct bpf_raw_event_map *btp)
{
	struct bpf_marker_tp *mtp = bpf_marker_tp(btp);

	kfree(mtp->tp.name);
	kfree(mtp->format);
	kfree(mtp);
}

int bpf_marker_probe_register(struct bpf_raw_event_map *btp,
			      struct bpf_raw_tp_link *link)
{
	struct bpf_marker_tp *mtp = bpf_marker_tp(btp);

	if (link->link.prog->type != BPF_PROG_TYPE_RAW_TRACEPOINT)
		return -EINVAL;
	return marker_probe_register(mtp->tp.name, mtp->format,
				     bpf_marker_raw_probe, link);
}

/*
 * The BPF core frees the link after a grace period of the tracepoints'
 * read side, which need not cover the markers' one the sites call probes
 * in: wait for the calls in flight here.
 */
int bpf_marker_probe_unregister(struct bpf_raw_event_map *btp,
				struct bpf_raw_tp_link *link)
{
	int ret;

	ret = marker_probe_unregister(btp->tp->name, bpf_marker_raw_probe,
				      link);
	marker_synchronize_unregister();
	return ret;
}

#ifdef CONFIG_MARKERS_KUNIT_TEST
#include "bpf_markers_kunit.c"
#endif
