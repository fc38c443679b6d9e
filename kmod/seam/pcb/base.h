/* SPDX-License-Identifier: MIT */
/*
 * The model interface's kernel side (harness/seam/pcb/base.h is the
 * userspace one): the types and atomics the interface is written in,
 * over the kernel's own.
 *
 * kmod/seam is ahead of harness/seam on the kernel build's include path,
 * so that each header of the interface that has a kernel definition
 * (this one, clock.h, preempt.h, pmc.h) is taken from here, the others
 * (cpu.h, stat.h, timed.h, gaps.h, worker.h, work.h) as they are.
 *
 * Every kernel header a kernel-side definition uses is included here,
 * first, before anything of the models: the C11 atomics below are macros
 * under the names of C11's generic functions, some of which (atomic_fetch_add()
 * and its kin) the kernel also has, with other arguments; a kernel header
 * parsed after them would not compile. The C library's headers the models
 * include are kmod/libc's, which include this one first.
 */
#ifndef PCB_SEAM_BASE_H
#define PCB_SEAM_BASE_H

#include <linux/version.h>
#include <linux/types.h>
#include <linux/stddef.h>
#include <linux/limits.h>
#include <linux/compiler.h>
#include <linux/cache.h>
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/irqflags.h>
#include <linux/preempt.h>
#include <linux/spinlock.h>
#include <linux/local_lock.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/jump_label.h>
#include <linux/workqueue.h>
#include <asm/msr.h>
#include <asm/processor.h>
#include <asm/page.h>
/* the oldest release the module is written for: harness/machine/kmod.h's bound */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 1, 0)
#error "pcpbench.ko is written for Linux 6.1 and later (harness/machine/kmod.h)"
#endif
/* rdtsc_ordered(): asm/msr.h's until 6.16, asm/tsc.h's since (which 6.1 has too) */
#include <asm/tsc.h>
/* cpuid(): asm/processor.h's until 6.16, asm/cpuid/api.h's since */
#if __has_include(<asm/cpuid/api.h>)
#include <asm/cpuid/api.h>
#endif

#if defined(CONFIG_PREEMPT_RT) || defined(CONFIG_DEBUG_LOCK_ALLOC)
/*
 * local_lock_irqsave() is local_irq_save() alone on !PREEMPT_RT without
 * lockdep (include/linux/local_lock_internal.h), which is what the
 * models' explicit CPU stands in for; elsewhere it takes this_cpu_ptr()
 * of a per-CPU lock the models do not have
 */
#error "the kernel backend is built for !PREEMPT_RT kernels without lockdep"
#endif

/* per-CPU data starts on a cache line of its own */
#define PCB_CACHE_LINE		SMP_CACHE_BYTES

/*
 * A drain's list of the CPUs it walks, under the drain's mutex (the kernel's
 * own cpus_with_pcps is static too): no variable-length array on a kernel
 * stack (the kernel builds with -Wvla-larger-than=1 since 6.x), sized for
 * the most a plan walks, its workers, the drainer and its idle CPUs
 * (kmod/plan.c checks PCB_PLAN_MAX_WORKERS + 1 + PCB_PLAN_MAX_CPUS against it)
 */
#define PCB_KMOD_MAX_WALK	(128 + 1 + 256)
#define PCB_WALK_ARRAY(type, name, nr) static type name[PCB_KMOD_MAX_WALK]

/* the orderings ThreadSanitizer is told of in userspace: nothing in the kernel */
#define pcb_tsan_acquire(addr) do { (void)(addr); } while (0)
#define pcb_tsan_release(addr) do { (void)(addr); } while (0)

/* the fixed-width limits <stdint.h> has and the kernel spells otherwise */
#define UINT64_MAX		U64_MAX
#define INT64_MAX		S64_MAX
#define UINT32_MAX		U32_MAX
#define INT32_MAX		S32_MAX
#define UINT8_MAX		U8_MAX
#define SIZE_MAX		(~(size_t)0)

/*
 * C11 atomics (<stdatomic.h>) as GCC builds them: the same _Atomic types
 * and the same __atomic builtins, so that a model's atomics compile to
 * the same instructions in both builds. Only what kernels/ uses.
 */
typedef enum {
	memory_order_relaxed = __ATOMIC_RELAXED,
	memory_order_consume = __ATOMIC_CONSUME,
	memory_order_acquire = __ATOMIC_ACQUIRE,
	memory_order_release = __ATOMIC_RELEASE,
	memory_order_acq_rel = __ATOMIC_ACQ_REL,
	memory_order_seq_cst = __ATOMIC_SEQ_CST,
} memory_order;

typedef _Atomic int atomic_int;
typedef _Atomic unsigned int atomic_uint;
typedef _Atomic long atomic_long;
typedef _Atomic unsigned long atomic_ulong;
typedef _Atomic _Bool atomic_bool;

#define atomic_init(p, v)			__atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define atomic_load_explicit(p, o)		__atomic_load_n((p), (o))
#define atomic_load(p)				atomic_load_explicit((p), memory_order_seq_cst)
#define atomic_store_explicit(p, v, o)		__atomic_store_n((p), (v), (o))
#define atomic_store(p, v)			atomic_store_explicit((p), (v), memory_order_seq_cst)
#define atomic_exchange_explicit(p, v, o)	__atomic_exchange_n((p), (v), (o))
#define atomic_exchange(p, v)			atomic_exchange_explicit((p), (v), memory_order_seq_cst)
#define atomic_fetch_add_explicit(p, v, o)	__atomic_fetch_add((p), (v), (o))
#define atomic_fetch_sub_explicit(p, v, o)	__atomic_fetch_sub((p), (v), (o))
#define atomic_fetch_or_explicit(p, v, o)	__atomic_fetch_or((p), (v), (o))
#define atomic_fetch_and_explicit(p, v, o)	__atomic_fetch_and((p), (v), (o))
/* the kernel's atomic_fetch_add(i, v) and its kin are not used past this point */
#undef atomic_fetch_add
#undef atomic_fetch_sub
#undef atomic_fetch_or
#undef atomic_fetch_and
#define atomic_fetch_add(p, v)			atomic_fetch_add_explicit((p), (v), memory_order_seq_cst)
#define atomic_fetch_sub(p, v)			atomic_fetch_sub_explicit((p), (v), memory_order_seq_cst)
#define atomic_fetch_or(p, v)			atomic_fetch_or_explicit((p), (v), memory_order_seq_cst)
#define atomic_fetch_and(p, v)			atomic_fetch_and_explicit((p), (v), memory_order_seq_cst)
#define atomic_compare_exchange_weak_explicit(p, e, d, s, f) \
	__atomic_compare_exchange_n((p), (e), (d), true, (s), (f))
#define atomic_compare_exchange_weak(p, e, d) \
	atomic_compare_exchange_weak_explicit((p), (e), (d), memory_order_seq_cst, \
					      memory_order_seq_cst)
#define atomic_compare_exchange_strong_explicit(p, e, d, s, f) \
	__atomic_compare_exchange_n((p), (e), (d), false, (s), (f))
#define atomic_compare_exchange_strong(p, e, d) \
	atomic_compare_exchange_strong_explicit((p), (e), (d), memory_order_seq_cst, \
						memory_order_seq_cst)

/* the drain work's work->data: the kernel's struct work_struct has an atomic_long_t */
typedef atomic_long_t pcb_work_data_t;

#endif
