/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KERNEL_MARKER_INTERNAL_H
#define _KERNEL_MARKER_INTERNAL_H

/* Between the marker registry (marker.c) and its tracepoint part. */

#include <linux/marker.h>
#include <linux/mutex.h>

struct marker_tp;
struct module;

extern struct mutex markers_mutex;

struct marker *marker_lookup(const char *name);
struct marker_funcs *marker_funcs_get(struct marker *m);
void marker_drop_format(struct marker *m);
void marker_put(struct marker *m);

#ifdef CONFIG_MARKERS_TRACEPOINTS
const struct marker_tp *marker_tp_find(const char *name);
int marker_tp_bind(struct marker *m);
int marker_tp_connect(struct marker *m);
void marker_tp_disconnect(struct marker *m);
#if IS_ENABLED(CONFIG_KUNIT) && defined(CONFIG_MODULES)
/* The module notifier's halves, for the KUnit test's module stand-in. */
int marker_tp_module_coming(struct module *mod);
void marker_tp_module_going(struct module *mod);
#endif
#else
static inline const struct marker_tp *marker_tp_find(const char *name)
{
	return NULL;
}

static inline int marker_tp_bind(struct marker *m)
{
	return 0;
}

static inline int marker_tp_connect(struct marker *m)
{
	return 0;
}

static inline void marker_tp_disconnect(struct marker *m)
{
}
#endif

#endif /* _KERNEL_MARKER_INTERNAL_H */
