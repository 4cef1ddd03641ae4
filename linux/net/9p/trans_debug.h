/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _NET_9P_TRANS_DEBUG_H
#define _NET_9P_TRANS_DEBUG_H

#include <linux/types.h>

#if defined(CONFIG_NET_9P_DEBUG) && defined(CONFIG_MARKERS)
void p9_trans_debug(bool on);
#else
static inline void p9_trans_debug(bool on)
{
}
#endif

#endif /* _NET_9P_TRANS_DEBUG_H */
