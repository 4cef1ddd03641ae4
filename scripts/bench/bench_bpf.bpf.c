// SPDX-License-Identifier: GPL-2.0
/*
 * The same BPF program on the marker event markers:bench_rec and on the
 * TRACE_EVENT marker_bench:marker_bench_tp, both "nr=%d ptr=%p": add nr
 * to a per-CPU sum.  Built with -DBENCH_RAW, the same raw tracepoint
 * program on the marker bench_rec, attached by its name, and on the
 * tracepoint marker_bench_tp, both (nr, ptr): no record is built for
 * either.  Loaded by the markers kselftest's marker_bpf.
 */

#include <linux/bpf.h>
#include <linux/types.h>
#include <bpf/bpf_helpers.h>

struct bench_rec {
	__u64 common;
	__s32 nr;
	__u64 ptr;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} sums SEC(".maps");

static __always_inline int add(__u32 key, __s32 nr)
{
	__u64 *sum = bpf_map_lookup_elem(&sums, &key);

	if (sum)
		*sum += nr;
	return 0;
}

#ifndef BENCH_RAW
SEC("tracepoint/markers/bench_rec")
int on_mark(struct bench_rec *ctx)
{
	return add(0, ctx->nr);
}

SEC("tracepoint/marker_bench/marker_bench_tp")
int on_tracepoint(struct bench_rec *ctx)
{
	return add(1, ctx->nr);
}
#else
SEC("raw_tp/bench_rec")
int raw_on_mark(struct bpf_raw_tracepoint_args *ctx)
{
	return add(0, ctx->args[0]);
}

SEC("raw_tp/marker_bench_tp")
int raw_on_tracepoint(struct bpf_raw_tracepoint_args *ctx)
{
	return add(1, ctx->args[0]);
}
#endif

char LICENSE[] SEC("license") = "GPL";
