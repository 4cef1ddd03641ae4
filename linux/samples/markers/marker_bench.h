/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracepoint marker-bench compares markers with: the same two fields
 * as the original markers benchmarks' "%d %p" site.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM marker_bench

#if !defined(_MARKER_BENCH_H) || defined(TRACE_HEADER_MULTI_READ)
#define _MARKER_BENCH_H

#include <linux/tracepoint.h>

TRACE_EVENT(marker_bench_tp,
	    TP_PROTO(int nr, const void *ptr),
	    TP_ARGS(nr, ptr),
	    TP_STRUCT__entry(__field(int, nr)
			     __field(const void *, ptr)),
	    TP_fast_assign(__entry->nr = nr;
			   __entry->ptr = ptr;),
	    TP_printk("%d %p", __entry->nr, __entry->ptr)
);

#endif /* _MARKER_BENCH_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#include <trace/define_trace.h>
