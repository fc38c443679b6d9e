/* SPDX-License-Identifier: MIT */
/*
 * The memcg hooks a page fault and an unmap call, out of line as in the
 * kernel (mm/memcontrol.c, v6.x): __mem_cgroup_charge() and
 * __mem_cgroup_uncharge(). With only the root memcg they still do the
 * root's work: the charge commit (folio->memcg_data), the statistics
 * (mem_cgroup_charge_statistics(): PGPGIN/PGPGOUT and nr_page_events, with
 * interrupts off) and the event check (memcg_check_events() against this
 * CPU's next threshold); try_charge() returns at once for the root. That
 * is seed 003's "base" kernel; its "bypassed" one jumps over the call.
 * Include after memcg_charge.h (the bare callers).
 */
#ifndef PCB_MEMCG_HOOKS_H
#define PCB_MEMCG_HOOKS_H

#include "../locks/irq.h"

/* memcg_check_events(): every MEMCG_EVENTS_TARGET page events, the thresholds */
#define MEMCG_EVENTS_TARGET 128

static inline void memcg_charge_statistics(struct pcb_cpu *this, struct mem_cgroup *memcg,
					   int nr_pages)
{
	struct memcg_cpu *mc = memcg_cpu(this);
	unsigned int id = memcg->css.id;

	mc->events[id][nr_pages > 0 ? PGPGIN : PGPGOUT]++;
	mc->events[id][NR_PAGE_EVENTS] += nr_pages > 0 ? nr_pages : -nr_pages;
}

static inline void memcg_check_events(struct pcb_cpu *this, struct mem_cgroup *memcg)
{
	struct memcg_cpu *mc = memcg_cpu(this);
	unsigned int id = memcg->css.id;

	/* mem_cgroup_event_ratelimit(): the threshold and soft limit work is not modeled */
	if (unlikely(mc->events[id][NR_PAGE_EVENTS] - mc->targets[id] >= 0))
		mc->targets[id] = mc->events[id][NR_PAGE_EVENTS] + MEMCG_EVENTS_TARGET;
}

/* __mem_cgroup_charge(): charge one page to memcg, commit it; 0 or -ENOMEM */
static __attribute__((__noinline__, unused)) int
__mem_cgroup_charge(struct pcb_cpu *this, struct mem_cgroup *memcg, struct mem_cgroup **memcg_data)
{
	unsigned long flags;
	int ret;

	/* get_mem_cgroup_from_mm(): rcu_read_lock(), css_tryget() */
	rcu_read_lock_model(this);
	css_get(this, &memcg->css);
	rcu_read_unlock_model(this);
	ret = try_charge(this, memcg, 1);
	if (ret == 0) {
		css_get(this, &memcg->css);
		/* commit_charge() */
		WRITE_ONCE(*memcg_data, memcg);
		flags = local_irq_save_model(this);
		irq_standin_disable(this);
		memcg_charge_statistics(this, memcg, 1);
		memcg_check_events(this, memcg);
		irq_standin_enable(this);
		local_irq_restore_model(this, flags);
	}
	css_put(this, &memcg->css);
	return ret;
}

/* __mem_cgroup_uncharge() of one page: uncharge_folio(), uncharge_batch() */
static __attribute__((__noinline__, unused)) void
__mem_cgroup_uncharge(struct pcb_cpu *this, struct mem_cgroup **memcg_data)
{
	struct mem_cgroup *memcg = READ_ONCE(*memcg_data);
	unsigned long flags;

	if (!memcg)
		return;
	if (!mem_cgroup_is_root(memcg))
		memcg_uncharge(this, memcg, 1);
	flags = local_irq_save_model(this);
	irq_standin_disable(this);
	memcg_charge_statistics(this, memcg, -1);
	memcg_check_events(this, memcg);
	irq_standin_enable(this);
	local_irq_restore_model(this, flags);
	css_put(this, &memcg->css);
	WRITE_ONCE(*memcg_data, NULL);
}

#endif
