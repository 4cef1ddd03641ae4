/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _NET_9P_TRANS_DEBUG_H
#define _NET_9P_TRANS_DEBUG_H

#include <linux/types.h>

/*
 * The virtio transport's markers (trans_virtio.c): their formats, which
 * the debug probe is registered with.
 */
#define P9_VIRTIO_REQUEST_FMT		"tag=%u type=%u size=%u zc=%d"
#define P9_VIRTIO_RETRY_FMT		"tag=%u"
#define P9_VIRTIO_ADD_FAILED_FMT	"tag=%u err=%d"
#define P9_VIRTIO_KICKED_FMT		"tag=%u"
#define P9_VIRTIO_DONE_FMT		"tag=%u len=%u"

#ifdef CONFIG_NET_9P_DEBUG
void p9_trans_debug(bool on);
#else
static inline void p9_trans_debug(bool on)
{
}
#endif

#endif /* _NET_9P_TRANS_DEBUG_H */
