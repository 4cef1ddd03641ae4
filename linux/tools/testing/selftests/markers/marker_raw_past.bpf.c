// SPDX-License-Identifier: GPL-2.0
/*
 * A raw tracepoint program reading a fourth argument of decode_int, a
 * marker of three: the attach is refused (EINVAL), as on a tracepoint.
 */

#include <linux/bpf.h>
#include <linux/types.h>
#include <bpf/bpf_helpers.h>

__u64 seen;

SEC("raw_tp/decode_int")
int raw_past_args(struct bpf_raw_tracepoint_args *ctx)
{
	seen = ctx->args[3];
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
