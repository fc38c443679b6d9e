// SPDX-License-Identifier: MIT
/*
 * Drain work on the kernel's workqueue (the model interface's work.h,
 * defined here for the kernel backend): schedule_work_on() queues a
 * stock's own work_struct, the one in its cache line, to its CPU's
 * per-CPU worker pool (system_wq), as drain_all_stock() and
 * drain_all_pages() do: the pool's lock, ttwu of the CPU's kworker, an
 * IPI to an idle CPU. flush_work() waits for it. The work item calls the
 * design's drain_local() on the CPU it runs on, and counts whether that
 * is the stock's own.
 */
#include <linux/smp.h>
#include <linux/workqueue.h>

#include "kmod.h"

/* the run whose stocks' work items are queued; runs are one at a time */
static struct pcb_krun *cur;

struct work_struct *pcb_kwork_of(struct pcb_krun *r, struct pcb_cpu *cpu)
{
	return container_of(r->v->work_data(cpu), struct work_struct, data);
}

/* drain_local_stock() (or drain_local_pages()) on the CPU the work runs on */
static void pcb_kwork_fn(struct work_struct *work)
{
	struct pcb_krun *r = READ_ONCE(cur);
	/* the work item is in its CPU's area (its stock, or its per-CPU struct) */
	struct pcb_cpu *cpu = (struct pcb_cpu *)((char *)&work->data - r->work_off);
	struct pcb_kwork_ran *ran = per_cpu_ptr(r->work_ran, cpu->cpu);
	unsigned int here = raw_smp_processor_id();

	if (here == cpu->cpu) {
		WRITE_ONCE(ran->here, ran->here + 1);
	} else {
		WRITE_ONCE(ran->elsewhere, ran->elsewhere + 1);
		WRITE_ONCE(ran->elsewhere_cpu, (int)here);
	}
	r->v->drain_local(cpu);
}

void pcb_kwork_begin(struct pcb_krun *r)
{
	WRITE_ONCE(cur, r);
}

void pcb_kwork_init(struct pcb_krun *r, struct pcb_cpu *cpu)
{
	if (r->work_off >= 0)
		INIT_WORK(pcb_kwork_of(r, cpu), pcb_kwork_fn);
}

void pcb_kwork_flush_all(struct pcb_krun *r)
{
	if (r->work_off < 0)
		return;
	for (int i = 0; i < r->nr_cpus; i++)
		flush_work(pcb_kwork_of(r, r->cpus[i]));
}

void pcb_kwork_end(struct pcb_krun *r)
{
	if (r->work_off >= 0)
		for (int i = 0; i < r->nr_cpus; i++)
			cancel_work_sync(pcb_kwork_of(r, r->cpus[i]));
	WRITE_ONCE(cur, NULL);
}

/*
 * schedule_work_on(): queue_work_on(cpu, system_wq, &stock->work), timed
 * in the coordinator's drains sampled for it alone (a worker's drain from
 * its charge path, memcg.max, queues untimed)
 */
bool pcb_schedule_work_on(struct pcb_cpu *cpu)
{
	struct pcb_krun *r = cur;
	bool timed = current == r->coord && READ_ONCE(r->wake_timed);
	uint64_t t0 = timed ? pcb_tsc_now() : 0;
	bool queued = schedule_work_on((int)cpu->cpu, pcb_kwork_of(r, cpu));

	if (timed)
		r->wake_ticks += pcb_tsc_now() - t0;
	return queued;
}

/* flush_work() of each: until the work queued there ran on its CPU */
void pcb_flush_work(struct pcb_cpu *const *cpus, int nr)
{
	for (int i = 0; i < nr; i++)
		flush_work(pcb_kwork_of(cur, cpus[i]));
}

/* the work queued to cpu run: by its CPU's kworker, which flush_work() waits for */
void pcb_run_work(struct pcb_cpu *cpu)
{
	flush_work(pcb_kwork_of(cur, cpu));
}

/* an IPI to a CPU of the kernel backend goes to that CPU */
int pcb_ipi_cpu(unsigned int cpu)
{
	return (int)cpu;
}
