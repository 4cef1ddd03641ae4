/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KERNEL_TRACE_BPF_MARKERS_H
#define _KERNEL_TRACE_BPF_MARKERS_H

#include <linux/errno.h>
#include <linux/types.h>

struct bpf_raw_event_map;
struct bpf_raw_tp_link;

/*
 * Raw tracepoint BPF programs on markers, by marker name: the hooks
 * bpf_trace.c calls for the descriptors bpf_get_raw_marker() makes.
 */
#ifdef CONFIG_MARKERS_BPF
bool bpf_is_raw_marker(const struct bpf_raw_event_map *btp);
void bpf_put_raw_marker(struct bpf_raw_event_map *btp);
int bpf_marker_probe_register(struct bpf_raw_event_map *btp,
			      struct bpf_raw_tp_link *link);
int bpf_marker_probe_unregister(struct bpf_raw_event_map *btp,
				struct bpf_raw_tp_link *link);
void bpf_trace_run_slots(struct bpf_raw_tp_link *link, const u64 *args);
#else
static inline bool bpf_is_raw_marker(const struct bpf_raw_event_map *btp)
{
	return false;
}

static inline void bpf_put_raw_marker(struct bpf_raw_event_map *btp)
{
}

static inline int bpf_marker_probe_register(struct bpf_raw_event_map *btp,
					    struct bpf_raw_tp_link *link)
{
	return -ENOENT;
}

static inline int bpf_marker_probe_unregister(struct bpf_raw_event_map *btp,
					      struct bpf_raw_tp_link *link)
{
	return -ENOENT;
}
#endif

#endif /* _KERNEL_TRACE_BPF_MARKERS_H */
