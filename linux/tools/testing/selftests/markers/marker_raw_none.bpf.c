// SPDX-License-Identifier: GPL-2.0
/*
 * A raw tracepoint program on a name that is neither a tracepoint's nor a
 * marker's: the attach fails with ENOENT.
 */

#include <linux/bpf.h>
#include <linux/types.h>
#include <bpf/bpf_helpers.h>

__u64 hits;

SEC("raw_tp/markers_selftest_no_such_marker")
int raw_no_such_marker(struct bpf_raw_tracepoint_args *ctx)
{
	hits++;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
