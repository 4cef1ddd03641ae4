// SPDX-License-Identifier: GPL-2.0-only
/*
 * The P9_DEBUG_TRANS messages of the transports, from their markers.
 *
 * The virtio transport marks its requests, kicks and completions with
 * MARK() (trans_virtio.c): a NOP while nothing listens, trace events
 * (events/markers/p9_virtio_*) in every kernel with markers.  With
 * CONFIG_NET_9P_DEBUG, the P9_DEBUG_TRANS bit of the debug level
 * connects a probe to them that logs each hit as the other 9P debug
 * messages are logged.
 */

#define pr_fmt(fmt) "9pnet: " fmt

#include <linux/kernel.h>
#include <linux/marker.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <net/9p/9p.h>

#include "trans_debug.h"

static const struct {
	const char *name;
	const char *format;
} p9_trans_markers[] = {
	{ "p9_virtio_request",		P9_VIRTIO_REQUEST_FMT },
	{ "p9_virtio_retry",		P9_VIRTIO_RETRY_FMT },
	{ "p9_virtio_add_failed",	P9_VIRTIO_ADD_FAILED_FMT },
	{ "p9_virtio_kicked",		P9_VIRTIO_KICKED_FMT },
	{ "p9_virtio_done",		P9_VIRTIO_DONE_FMT },
};

static DEFINE_MUTEX(p9_trans_debug_mutex);
static bool p9_trans_debug_on;

/*
 * Log a hit with the marker's own text.  The probe is registered with
 * the formats above, which convert 32-bit integers only (%u, %d), so a
 * marker of the same name with another format does not connect.
 */
static void p9_trans_log_fn(void *data, const struct marker *m,
			    const u64 *args)
{
	const char *p = m->format;
	unsigned int i = 0;
	char buf[96];
	int len = 0;

	while (*p && len < sizeof(buf) - 1) {
		if (*p != '%' || i >= m->nr_args) {
			buf[len++] = *p++;
			continue;
		}
		p += strcspn(p, "diu");
		if (!*p)
			break;
		if (m->types[i] == MARKER_ARG_S32)
			len += scnprintf(buf + len, sizeof(buf) - len, "%d",
					 (int)args[i]);
		else
			len += scnprintf(buf + len, sizeof(buf) - len, "%u",
					 (unsigned int)args[i]);
		p++;
		i++;
	}
	buf[len] = '\0';
	pr_notice("-- %s (%d): %s\n", m->name, task_pid_nr(current), buf);
}

DEFINE_MARKER_PROBE(p9_trans_log, p9_trans_log_fn);

/**
 * p9_trans_debug - log the transports' markers, or stop
 * @on: log them
 *
 * Context: Process context, may sleep.
 */
void p9_trans_debug(bool on)
{
	unsigned int i;
	int ret;

	guard(mutex)(&p9_trans_debug_mutex);
	if (on == p9_trans_debug_on)
		return;
	for (i = 0; i < ARRAY_SIZE(p9_trans_markers); i++) {
		if (on) {
			ret = marker_probe_register(p9_trans_markers[i].name,
						    p9_trans_markers[i].format,
						    p9_trans_log, NULL);
			if (ret)
				pr_warn("cannot log %s: %d\n",
					p9_trans_markers[i].name, ret);
		} else {
			marker_probe_unregister(p9_trans_markers[i].name,
						p9_trans_log, NULL);
		}
	}
	if (!on)
		marker_synchronize_unregister();
	p9_trans_debug_on = on;
}
