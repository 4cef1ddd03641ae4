/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared between the built-in static key transaction tests and the
 * module ones: a vmlinux key with sites in vmlinux and in the module.
 */
#ifndef _KERNEL_TESTS_JUMP_LABEL_TXN_KUNIT_H
#define _KERNEL_TESTS_JUMP_LABEL_TXN_KUNIT_H

#include <linux/jump_label.h>

#define TXN_KUNIT_SHARED_SITES	4

DECLARE_STATIC_KEY_FALSE(static_key_txn_kunit_shared);
unsigned int static_key_txn_kunit_shared_run(void);

#endif /* _KERNEL_TESTS_JUMP_LABEL_TXN_KUNIT_H */
