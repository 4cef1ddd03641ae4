// SPDX-License-Identifier: GPL-2.0
/*
 * A BTF-typed raw tracepoint program (tp_btf) on decode_int's name.  Its
 * attach point is the kernel's BTF type btf_trace_decode_int, which a
 * marker does not have: its arguments are u64 slots of a format only
 * known at run time.  Loading fails before the kernel sees the program.
 */

#include <linux/bpf.h>
#include <linux/types.h>
#include <bpf/bpf_helpers.h>

__u64 seen;

SEC("tp_btf/decode_int")
int btf_decode_int(void *ctx)
{
	seen++;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
