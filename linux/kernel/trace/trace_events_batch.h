/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The code patching of a multi-event enable or disable, done once.
 */
#ifndef _TRACE_EVENTS_BATCH_H
#define _TRACE_EVENTS_BATCH_H

#include <linux/tracepoint_batch.h>

/**
 * struct trace_event_batch - registrations of a multi-event switch
 * @tps: tracepoint events' probes and the cmdline and tgid recorders'
 *
 * A write that switches several events at once (events/enable, a
 * system's enable, set_event with a system or "*") owns one on its
 * stack: it hands it to each trace_event_enable_disable_batch() of the
 * switch, which passes it down to the registration of the event's probe
 * where the event's class can join a batch, and
 * trace_event_batch_finish() then patches the code of all of them in one
 * static key batch.  Nothing else is deferred: a probe added to a
 * tracepoint that has probes is called at once, and one removed is not
 * called for new hits once its registration returns.
 */
struct trace_event_batch {
	struct tracepoint_batch tps;
};

void trace_event_batch_init(struct trace_event_batch *batch);
void trace_event_batch_finish(struct trace_event_batch *batch);

#endif /* _TRACE_EVENTS_BATCH_H */
