/* SPDX-License-Identifier: MIT */
/*
 * flush_all_cpus_locked() of mm/slub.c: under flush_lock, every online CPU
 * whose sheaves hold something (has_pcs_used(); has_cpu_slab() before
 * sheaves) gets its slub_flush_work queued (queue_work_on()), isolated
 * ones too, and the caller waits in flush_work() for each, while each
 * CPU's kworker runs flush_cpu_sheaves() (flush_cpu_slab()) on its CPU:
 * idle virtual CPUs' on helper threads in parallel where the machine has
 * CPUs for them (pcb_flush_work()). The caller's own CPU's flush is its
 * own work item in the kernel; here a direct call, the same flush on the
 * same CPU. PCB_DRAIN_QPW flushes isolated CPUs from the calling CPU
 * instead, under their lock, as pw_queue_on() does (designs/qpw.h).
 * cpus_read_lock() around it is not modeled. A drain flavour.
 */
#ifndef PCB_SHEAVES_DRAIN_WORK_H
#define PCB_SHEAVES_DRAIN_WORK_H

/* flush_all_cpus_locked() flushes the work it queued */
#define PCB_DRAIN_FLUSHES 1
#include "../drain/work.h"

/* flush_cpu_sheaves() (flush_cpu_slab()): the work, on its CPU, for the cache it names */
static inline void flush_cpu_work(struct pcb_cpu *this)
{
	struct sheaves_cpu *sc = sheaves_cpu(this);
	struct kmem_cache *s = READ_ONCE(sc->flush.s);

	slub_flush_cpu(this, s ? s : sc->cache);
}

static inline void flush_all_cpus_locked(struct pcb_cpu *this, struct kmem_cache *s,
					 struct pcb_cpu *const *cpus, int nr)
{
	struct pcb_cpu **queued = s->flush_cpus;
	bool self = false;
	int n = 0;

	pcs_mutex_lock(this, &s->flush_lock);
	for (int i = 0; i < nr; i++) {
		struct pcb_cpu *cpu = cpus[i];
		struct slub_flush_work *sfw = &sheaves_cpu(cpu)->flush;

		if (!slub_cpu_used(cpu)) {
			WRITE_ONCE(sfw->skip, true);
			continue;
		}
#if PCB_DRAIN_QPW
		if (cpu->isolated && cpu != this) {
			/* pw_queue_on(): flush_cpu_sheaves() here, under the CPU's lock */
			WRITE_ONCE(sfw->skip, true);
			this->h.remote_drains++;
			pcb_drain_window_open(cpu);
			pcs_flush_all(this, s, cpu);
			pcb_drain_window_close(cpu);
			continue;
		}
#endif
		WRITE_ONCE(sfw->skip, false);
		WRITE_ONCE(sfw->s, s);
		if (cpu == this) {
			self = true;
			continue;
		}
		queued[n++] = cpu;
		pcb_schedule_work_on(cpu);
	}
	/* the caller's own work item runs on its CPU while it flushes: here, first */
	if (self)
		flush_cpu_work(this);
	/* for_each_online_cpu(cpu) if (!sfw->skip) flush_work(&sfw->work) */
	pcb_flush_work(queued, n);
	pcs_mutex_unlock(this, &s->flush_lock);
}

#endif
