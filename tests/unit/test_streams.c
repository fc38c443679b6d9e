/* SPDX-License-Identifier: MIT */
/*
 * The netperf workload's charge stream has the locality it declares: a CPU
 * charges its task's memcg and, in softirq, the memcgs of the flows its
 * receive queue takes, and nothing else; the working set grows with the
 * clients as clients / queues + 1, and the softirq share is what was asked.
 */
#include <math.h>
#include <string.h>

#include "testing.h"
#include "../../kernels/memcg/designs/local_lock.h"
#include "../../kernels/memcg/loop.h"

static void stream(int clients, int queues, unsigned int cpu)
{
	struct memcg_config cfg = { .workload = MEMCG_WL_NETPERF, .depth = 2, .memcgs = clients,
				    .slots = 1, .nr_pages = 1, .hold = 64, .queues = queues,
				    .softirq_share = 50 };
	/* a worker's CPU: the model's per-CPU struct, as the harness's area holds it */
	struct memcg_cpu fake = { .cpu = { .cpu = cpu } };
	static struct memcg_worker w;
	struct memcg_shared *s;
	char note[128], err[128];
	int seen[MEMCG_WORKER_MEMCGS] = { 0 }, distinct = 0, task = 0, outside = 0, n = 20000;
	int want = (clients - (int)(cpu % (unsigned int)queues) + queues - 1) / queues;

	s = memcg_model.ops.setup(&(struct pcb_model_setup){ .config = &cfg,
							 .d = memcg_model.designs[0], .nr_cpus = 1,
							 .note = note, .notelen = sizeof(note) },
			      err, sizeof(err));
	CHECK(s != NULL, "setup: %s", err);
	if (!s)
		return;
	memset(&w, 0, sizeof(w));
	w.w.cpu = &fake.cpu;
	w.w.rng = 12345;
	memcg_model.ops.worker_setup(s, &w.w);
	CHECK(w.nr_flows == (want > 0 ? want : 0), "%d clients, %d queues, CPU %u: %d flows, "
	      "expected %d", clients, queues, cpu, w.nr_flows, want);
	for (int i = 0; i < n; i++) {
		struct mem_cgroup *m = pcb_netperf_memcg(&w, pcb_rng_next(&w.w.rng));
		int ok = m == w.task;

		for (int f = 0; f < w.nr_flows; f++)
			ok |= m == w.memcg[f];
		outside += !ok;
		task += m == w.task;
		if (!seen[m->css.id]++)
			distinct++;
	}
	CHECK(outside == 0, "%d charges for a memcg outside the CPU's task and flows", outside);
	/* the task's client is one of the flows when its queue takes it */
	CHECK(distinct == w.nr_flows + (w.nr_flows && w.memcg[0] == w.task ? 0 : 1),
	      "%d memcgs charged, %d flows", distinct, w.nr_flows);
	if (w.nr_flows && w.memcg[0] != w.task)
		CHECK(fabs((double)task / n - 0.5) < 0.02, "softirq share %.3f", 1 - (double)task / n);
	memcg_model.ops.teardown(s);
}

int main(void)
{
	/* seed 002's client counts over 8 receive queues, from two queues' CPUs */
	for (int clients = 6; clients <= 36; clients += 6) {
		stream(clients, 8, 1);
		stream(clients, 8, 7);
	}
	stream(36, 1, 0);
	return check_summary();
}
