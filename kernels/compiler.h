/* SPDX-License-Identifier: MIT */
/*
 * Userspace stand-ins for the kernel's compiler and cache attributes
 * (include/linux/compiler.h, include/linux/cache.h).
 */
#ifndef PCB_KERNELS_COMPILER_H
#define PCB_KERNELS_COMPILER_H

#include <stddef.h>

#define SMP_CACHE_BYTES 64
#define ____cacheline_aligned __attribute__((aligned(SMP_CACHE_BYTES)))

#define barrier() __asm__ __volatile__("" ::: "memory")
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))

/* CACHELINE_PADDING() of include/linux/cache.h */
#define CACHELINE_PADDING(name) \
	struct { } name ____cacheline_aligned

#define pcb_min(a, b) ((a) < (b) ? (a) : (b))
#define pcb_max(a, b) ((a) > (b) ? (a) : (b))

#endif
