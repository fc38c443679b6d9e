/* SPDX-License-Identifier: MIT */
/*
 * Userspace stand-ins for the kernel's compiler and cache attributes
 * (include/linux/compiler.h, include/linux/cache.h); the kernel's own in
 * the kernel backend.
 */
#ifndef PCB_KERNELS_COMPILER_H
#define PCB_KERNELS_COMPILER_H

#ifdef __KERNEL__
/* the kernel backend: the kernel's own (kmod/seam/pcb/base.h includes them) */
#include <linux/cache.h>
#include <linux/compiler.h>
#else
#include <stddef.h>

#define SMP_CACHE_BYTES 64
#define ____cacheline_aligned __attribute__((aligned(SMP_CACHE_BYTES)))

/*
 * The hot path is inlined into its caller by rule, not by the compiler's
 * budget: the same for every design and build variant, so no design's
 * figure moves with an inlining decision.
 */
#include <sys/cdefs.h>	/* glibc spells it as the kernel does */
#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif

#define barrier() __asm__ __volatile__("" ::: "memory")
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
/*
 * READ_ONCE()/WRITE_ONCE(): a single untorn access the compiler may not
 * merge or elide. A relaxed atomic access is the same plain mov on x86, and
 * tells ThreadSanitizer the race is intended, as KCSAN reads the kernel's.
 */
#define READ_ONCE(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)

/* a case that goes on into the next (include/linux/compiler_attributes.h) */
#define fallthrough __attribute__((__fallthrough__))

/* CACHELINE_PADDING() of include/linux/cache.h */
#define CACHELINE_PADDING(name) \
	struct { } name ____cacheline_aligned
#endif

#define pcb_min(a, b) ((a) < (b) ? (a) : (b))
#define pcb_max(a, b) ((a) > (b) ? (a) : (b))

#endif
