/* SPDX-License-Identifier: MIT */
/* struct work_struct, include/linux/workqueue.h (32 bytes on 64-bit) */
#ifndef PCB_KERNELS_WORKQUEUE_H
#define PCB_KERNELS_WORKQUEUE_H

#include <stdatomic.h>

#include "list.h"

struct work_struct {
	atomic_long data;		/* bit 0: WORK_STRUCT_PENDING */
	struct list_head entry;
	void (*func)(struct work_struct *work);
};

#endif
