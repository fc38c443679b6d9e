/* SPDX-License-Identifier: MIT */
/*
 * struct work_struct, include/linux/workqueue.h (32 bytes on 64-bit): the
 * kernel's own in the kernel backend, where queue_work_on() sets PENDING
 * in the same word of the same line
 */
#ifndef PCB_KERNELS_WORKQUEUE_H
#define PCB_KERNELS_WORKQUEUE_H

#ifdef __KERNEL__
#include <linux/workqueue.h>
#else
#include <stdatomic.h>

#include "list.h"

struct work_struct {
	atomic_long data;		/* bit 0: WORK_STRUCT_PENDING */
	struct list_head entry;
	void (*func)(struct work_struct *work);
};
#endif

_Static_assert(sizeof(struct work_struct) == 32, "struct work_struct: 32 bytes (no lockdep)");

#endif
