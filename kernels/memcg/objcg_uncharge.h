/* SPDX-License-Identifier: MIT */
/*
 * obj_cgroup_uncharge_pages(): the whole pages an object stock gives back
 * go to the charge stock (refill_stock()). Out of line, as built. v6.2
 * and Linux 7.3 write it alike; 7.3's account_kmem_nmi_safe() is
 * mod_memcg_state() outside an NMI, and memcg1_account_kmem() is cgroup
 * v1's. Included after refill_stock() by memcg_stock.h and stock_7_3.h.
 */
#ifndef PCB_MEMCG_OBJCG_UNCHARGE_H
#define PCB_MEMCG_OBJCG_UNCHARGE_H

static __attribute__((__noinline__, unused)) void
obj_cgroup_uncharge_pages(struct pcb_cpu *this, struct obj_cgroup *objcg, unsigned int nr_pages)
{
	struct mem_cgroup *memcg;

	memcg = get_mem_cgroup_from_objcg(this, objcg);

	memcg_account_kmem(this, memcg, -(long)nr_pages);
	refill_stock(this, memcg, nr_pages);

	css_put(this, &memcg->css);
}

#endif
