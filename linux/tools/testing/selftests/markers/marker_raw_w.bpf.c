// SPDX-License-Identifier: GPL-2.0
/*
 * A writable raw tracepoint program on decode_int's name: a marker has no
 * buffer to write, so for such a program the name is not found (ENOENT),
 * even though this one writes nothing.
 */

#include <linux/bpf.h>
#include <linux/types.h>
#include <bpf/bpf_helpers.h>

__u64 seen;

SEC("raw_tp.w/decode_int")
int raw_w_decode_int(struct bpf_raw_tracepoint_args *ctx)
{
	seen++;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
