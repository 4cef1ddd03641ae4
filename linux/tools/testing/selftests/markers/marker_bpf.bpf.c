// SPDX-License-Identifier: GPL-2.0
/*
 * Tracepoint-type BPF programs on marker events: each copies the fields
 * of its event's record, read at the offsets its format file gives, into
 * an array map that marker_bpf prints.
 */

#include <linux/bpf.h>
#include <linux/types.h>
#include <bpf/bpf_helpers.h>

/* The common fields of every trace event record. */
struct common {
	__u16 type;
	__u8 flags;
	__u8 preempt_count;
	__s32 pid;
};

/* markers:decode_int, "min=%d max=%d neg=%i" */
struct decode_int {
	struct common c;
	__s32 min;
	__s32 max;
	__s32 neg;
};

/* markers:decode_ll, "llmin=%lld ullmax=%llu llx=%llx llo=%llo" */
struct decode_ll {
	struct common c;
	__s64 llmin;
	__u64 ullmax;
	__u64 llx;
	__u64 llo;
};

/* markers:decode_char, "a=%c n=%d b=%c w=%lld z=%c" */
struct decode_char {
	struct common c;
	char a;
	__s32 n;
	char b;
	__s64 w;
	char z;
};

enum { V_HITS, V_MIN, V_MAX, V_NEG, V_LLMIN, V_ULLMAX, V_LLX, V_LLO,
	V_A, V_N, V_B, V_W, V_Z, V_NR };

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, V_NR);
	__type(key, __u32);
	__type(value, __u64);
} vals SEC(".maps");

static void put(__u32 key, __u64 val)
{
	bpf_map_update_elem(&vals, &key, &val, BPF_ANY);
}

SEC("tracepoint/markers/decode_int")
int on_decode_int(struct decode_int *ctx)
{
	__u32 key = V_HITS;
	__u64 *hits = bpf_map_lookup_elem(&vals, &key);

	if (hits)
		__sync_fetch_and_add(hits, 1);
	put(V_MIN, (__u64)(__s64)ctx->min);
	put(V_MAX, (__u64)(__s64)ctx->max);
	put(V_NEG, (__u64)(__s64)ctx->neg);
	return 0;
}

SEC("tracepoint/markers/decode_ll")
int on_decode_ll(struct decode_ll *ctx)
{
	put(V_LLMIN, ctx->llmin);
	put(V_ULLMAX, ctx->ullmax);
	put(V_LLX, ctx->llx);
	put(V_LLO, ctx->llo);
	return 0;
}

SEC("tracepoint/markers/decode_char")
int on_decode_char(struct decode_char *ctx)
{
	put(V_A, ctx->a);
	put(V_N, (__u64)(__s64)ctx->n);
	put(V_B, ctx->b);
	put(V_W, ctx->w);
	put(V_Z, ctx->z);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
