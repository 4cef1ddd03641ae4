/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What test_static_key_batch_owner hands to test_static_key_batch_hold:
 * a static key and a tracepoint of its own, and a function that hits
 * the tracepoint.
 */
#ifndef _LIB_TEST_STATIC_KEY_BATCH_H
#define _LIB_TEST_STATIC_KEY_BATCH_H

#include <linux/tracepoint.h>

/* The owner's tracepoint, test_static_key_batch_owner_tp. */
DECLARE_TRACE(test_static_key_batch_owner, TP_PROTO(int n), TP_ARGS(n));

struct static_key;

struct test_static_key_batch_owner {
	struct static_key *key;
	struct tracepoint *tp;
	void (*fire)(int n);
};

void test_static_key_batch_offer(struct test_static_key_batch_owner *owner);
void test_static_key_batch_withdraw(struct test_static_key_batch_owner *owner);

#endif /* _LIB_TEST_STATIC_KEY_BATCH_H */
