// SPDX-License-Identifier: GPL-2.0
/*
 * A tracepoint program on markers:subsys_mark4, a marker without
 * arguments, whose record is its common fields alone: the program
 * counts its hits and reads nothing of the record, so perf attaches it.
 * Built with -DMARKER_PAST it reads 8 bytes after the common fields,
 * past the record, and perf refuses the attach (EACCES), as for any
 * tracepoint program reading past its event's last field.
 */

#include <linux/bpf.h>
#include <linux/types.h>
#include <bpf/bpf_helpers.h>

/* The size of marker_bpf's map: it prints every entry, hits first. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 13);
	__type(key, __u32);
	__type(value, __u64);
} vals SEC(".maps");

SEC("tracepoint/markers/subsys_mark4")
int on_subsys_mark4(void *ctx)
{
	__u32 key = 0;
	__u64 *hits = bpf_map_lookup_elem(&vals, &key);

	if (hits)
		__sync_fetch_and_add(hits, 1);
#ifdef MARKER_PAST
	{
		__u64 past = *(__u64 *)(ctx + 8);

		key = 1;
		bpf_map_update_elem(&vals, &key, &past, BPF_ANY);
	}
#endif
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
