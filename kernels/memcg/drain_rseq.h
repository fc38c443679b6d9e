/* SPDX-License-Identifier: MIT */
/*
 * The drain of the rseq design (designs/rseq.h): drain_all_stock() drains
 * every stock that needs it from the calling CPU, as the remote drain of
 * seed 000's series does, but taking a stock means stopping it and fencing
 * its CPU (kernels/locks/rseq.h): one membarrier IPI per stock drained, no
 * work item. A drain flavour: included at the end of memcg_stock.h.
 */
#ifndef PCB_MEMCG_DRAIN_RSEQ_H
#define PCB_MEMCG_DRAIN_RSEQ_H

#define MEMCG_DRAIN_FLAVOUR { .name = "rseq_fence" }

static inline void memcg_drain_between_ops(struct pcb_cpu *this)
{
	(void)this;
}

static inline void memcg_drain_online(void) { }
static inline void memcg_drain_offline(void) { }

/* each worker: its rseq area is glibc's; the process registers for the fence */
static void memcg_rseq_thread_start(void)
{
	const char *why = pcb_rseq_unavailable();
	int rc;

	if (why) {
		fprintf(stderr, "pcpbench: rseq: %s\n", why);
		abort();
	}
	rc = pcb_rseq_register_fence();
	if (rc) {
		fprintf(stderr, "pcpbench: membarrier(REGISTER_PRIVATE_EXPEDITED_RSEQ): %s\n",
			strerror(-rc));
		abort();
	}
}
#define MEMCG_DRAIN_THREAD_START memcg_rseq_thread_start
#define MEMCG_DRAIN_THREAD_STOP NULL

/* drain_all_stock() of seed 000's patch 4, each stock stopped and fenced */
static inline void drain_all_stock(struct pcb_cpu *this, struct mem_cgroup *root_memcg,
				   struct pcb_cpu *const *cpus, int nr)
{
	if (pthread_mutex_trylock(&percpu_charge_mutex))
		return;

	for (int i = 0; i < nr; i++) {
		struct pcb_cpu *cpu = cpus[i];
		struct memcg_stock_pcp *stock = this_cpu_stock(cpu);

		if (is_drain_needed(this, stock, root_memcg)) {
			this->h.remote_drains++;
			drain_stock_from(this, stock, this_cpu_stock(this));
		}
	}
	pthread_mutex_unlock(&percpu_charge_mutex);
}

#endif
