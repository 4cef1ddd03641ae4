/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tracepoint for the markers KUnit tests: probes connect to it by name
 * through the marker registry.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM marker_kunit

#if !defined(_MARKER_KUNIT_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _MARKER_KUNIT_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(marker_kunit_tp,
	    TP_PROTO(int a, unsigned long b, const char *s, s64 c, u8 d,
		     bool e),
	    TP_ARGS(a, b, s, c, d, e),
	    TP_STRUCT__entry(__field(int, a)
			     __field(s64, c)),
	    TP_fast_assign(__entry->a = a;
			   __entry->c = c;),
	    TP_printk("a=%d c=%lld", __entry->a, __entry->c)
);

#endif /* _MARKER_KUNIT_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE marker_kunit_trace
#include <trace/define_trace.h>
