/* SPDX-License-Identifier: MIT */
/*
 * A sleeping lock taken with mutex_trylock(), as drain_all_stock() and
 * __drain_all_pages() take theirs (include/linux/mutex.h): a pthread
 * mutex in userspace, the kernel's own struct mutex in the kernel backend.
 */
#ifndef PCB_KERNELS_MUTEX_H
#define PCB_KERNELS_MUTEX_H

#ifdef __KERNEL__
#include <linux/mutex.h>
#else
#include <pthread.h>
#include <stdbool.h>

struct mutex {
	pthread_mutex_t lock;
};

#define DEFINE_MUTEX(name) struct mutex name = { PTHREAD_MUTEX_INITIALIZER }

/* 1 if taken, 0 if another holds it */
static inline int mutex_trylock(struct mutex *m)
{
	return pthread_mutex_trylock(&m->lock) == 0;
}

static inline void mutex_unlock(struct mutex *m)
{
	pthread_mutex_unlock(&m->lock);
}
#endif

#endif
