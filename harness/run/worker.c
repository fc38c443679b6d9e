/* SPDX-License-Identifier: MIT */
/*
 * A worker thread: pinned to its CPU, it allocates and first touches its
 * CPU's area and its worker on the CPU's node, then runs the design's loop
 * once per run between the runner's barriers: the sequence the kernel
 * backend's workers run too (pcb/sequence.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cpu_area.h"
#include "pcb/sequence.h"
#include "threads.h"

/* pinning, allocation and set up; 0 or -1 with t->error */
static int worker_start(struct thread_ctx *t, struct pcb_cpu **cpup)
{
	struct run_shared *s = t->shared;
	const struct pcb_variant *v = s->v;
	struct pcb_cpu *cpu;
	int rc = pcb_topo_pin(s->topo, t->cpu);

	if (rc < 0)
		t->error = rc;
	/* allocated after pinning and touched first here: node-local pages */
	t->area_size = pcb_cpu_area_size(s->d, v, s->place);
	t->area = pcb_alloc_on_node(t->area_size, t->node);
	t->w_size = s->ops.worker_size;
	t->w = pcb_alloc_on_node(t->w_size, t->node);
	pcb_counters_open(&t->pmc, &s->sc->counters);
	if (!t->area || !t->w) {
		t->error = -ENOMEM;
		return -1;
	}
	memset(t->w, 0, t->w_size);
	cpu = pcb_cpu_area_init(t->area, s->d, v, s->place, t->cpu, t->node,
				hwloc_bitmap_isset(s->sc->isolated, t->cpu));
	s->ops.cpu_setup(s->model_shared, s->d, cpu);
	if (s->sc->counters.per_call) {
		t->w->dbg.pmc = &t->pmc;
		t->w->dbg.pmc_n = t->pmc.n;
	}
	if (s->delivery >= 0) {
		struct pcb_work work = pcb_drain_work(v, cpu);

		t->wq = pcb_alloc_on_node(sizeof(*t->wq), t->node);
		if (!t->wq) {
			t->error = -ENOMEM;
			return -1;
		}
		if (pcb_workq_start(t->wq, &work, (enum pcb_delivery)s->delivery, (int)t->cpu,
				    t->errmsg, sizeof(t->errmsg)) < 0) {
			pcb_free_on_node(t->wq, sizeof(*t->wq));
			t->wq = NULL;
			t->error = -EINVAL;
		}
	}
	if (v->thread_start)
		v->thread_start();
	pcb_seq_worker_setup(&s->seq, &s->ops, s->model_shared, t->w, cpu, t->cpu);
	*cpup = cpu;
	return 0;
}

void *pcb_worker_main(void *arg)
{
	struct thread_ctx *t = arg;
	struct run_shared *s = t->shared;
	const struct pcb_variant *v = s->v;
	struct pcb_cpu *cpu = NULL;
	struct pcb_worker *w;

	if (worker_start(t, &cpu) < 0) {
		pthread_barrier_wait(&s->bar);	/* set up */
		pthread_barrier_wait(&s->bar);	/* the main thread stops */
		pcb_counters_close(&t->pmc);
		return NULL;
	}
	w = t->w;
	pthread_barrier_wait(&s->bar);		/* set up */

	for (;;) {
		pthread_barrier_wait(&s->bar);	/* the main thread released a run, or stop */
		if (s->stop)
			break;
		/* warm-up: also measures an operation's span for the gap threshold */
		pcb_seq_warm(&s->seq, v, w);
		pcb_seq_reset(&s->seq, w, cpu);

		/* the empty region, warm, just before the timed part */
		pcb_overhead_measure(&t->ovh_start, PCB_OVERHEAD_SAMPLES);
		t->overhead = t->ovh_start.trimmed;
		w->dbg.overhead = (uint64_t)(t->overhead + 0.5);

		pthread_barrier_wait(&s->bar);	/* every worker starts together */
		pcb_counters_start(&t->pmc);
		pcb_seq_timed(&s->seq, v, w);
		pcb_counters_stop(&t->pmc, t->ctr);
		/* and again after it: a move says the machine changed under the run */
		pcb_overhead_measure(&t->ovh_end, PCB_OVERHEAD_SAMPLES);
		pthread_barrier_wait(&s->bar);	/* run over: the main thread reads */
	}
	/* give back what it holds, and empty its cache as its own drain would */
	if (t->wq)
		pcb_workq_stop(t->wq);
	v->release(w);
	v->drain_dead(cpu);
	if (v->thread_stop)
		v->thread_stop();
	pcb_counters_close(&t->pmc);
	return NULL;
}
