/* SPDX-License-Identifier: MIT */
/*
 * The model interface, harness/seam/pcb/: what a model's code may use of
 * the harness, and nothing else. kernels/ is compiled with harness/seam as
 * the only folder of the harness on its include path, so a model that
 * includes anything else of the harness does not build.
 *
 * Each header is one concern. A primitive a hot path uses is a macro or
 * an inline function whose userspace definition is in its one header
 * (the clock in clock.h, the preempt count in preempt.h, ...); setup that
 * needs the C library (allocation, files, parsing) is declared in the
 * registration headers (model.h, keys.h, model_output.h), never in a hot
 * path's. The headers include one another by this folder's name,
 * "pcb/<header>.h", as a model does, so that a build which puts a folder
 * of its own pcb/ headers ahead of harness/seam on the include path (as
 * the kernel puts an architecture's asm/ ahead of asm-generic/) has its
 * definition of a concern taken everywhere, the others' left as they are.
 *
 * This one: the types and atomics the others are written in (the C
 * library's fixed-width types and C11 atomics), the cache line, and the
 * orderings ThreadSanitizer is told of.
 */
#ifndef PCB_SEAM_BASE_H
#define PCB_SEAM_BASE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* per-CPU data starts on a cache line of its own (SMP_CACHE_BYTES) */
#define PCB_CACHE_LINE		64

/*
 * A drain's list of the nr CPUs it walks (cpus_with_pcps and the like),
 * taken under the drain's mutex: on the thread's stack here; a static
 * array in the kernel backend, whose stacks hold no variable-length array
 */
#define PCB_WALK_ARRAY(type, name, nr) type name[(nr) > 0 ? (nr) : 1]

/* the word of a drain's work item where queue_work_on() sets PENDING (work->data) */
typedef atomic_long pcb_work_data_t;

/*
 * Orderings ThreadSanitizer cannot see (inline asm, a context switch on one
 * CPU), stated for its builds; nothing otherwise.
 */
#if defined(__SANITIZE_THREAD__)
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
#define pcb_tsan_acquire(addr) __tsan_acquire((void *)(addr))
#define pcb_tsan_release(addr) __tsan_release((void *)(addr))
#else
#define pcb_tsan_acquire(addr) do { (void)(addr); } while (0)
#define pcb_tsan_release(addr) do { (void)(addr); } while (0)
#endif

#endif
