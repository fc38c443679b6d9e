/* SPDX-License-Identifier: MIT */
/*
 * The sheaves model's scenario keys, and the checks across them.
 */
#include <stdio.h>

#include "../locks/irq.h"
#include "../locks/irq_key.h"
#include "sheaves_model.h"

static const char *const workloads[] = { "alloc_free", "handoff", NULL };
static const char *const yesno[] = { "no", "yes", NULL };

#define CFG struct sheaves_config

enum {
	KEY_WORKLOAD, KEY_IRQ_MODEL, KEY_HARDENED, KEY_OBJECT_SIZE, KEY_CAPACITY, KEY_POOL,
	KEY_BURST, KEY_NR,
};
_Static_assert(KEY_NR == SHEAVES_NR_KEYS, "SHEAVES_NR_KEYS counts the keys");

const struct pcb_key sheaves_keys[KEY_NR] = {
	[KEY_WORKLOAD] = PCB_KEY_CHOICE_FIELD("run", "workload", "alloc_free", workloads, CFG,
		workload, "what each worker runs (see workloads)"),
	[KEY_IRQ_MODEL] = PCB_IRQ_MODEL_KEY(CFG, "the barn's and list_lock's "
		"spin_lock_irqsave() and kmem_cache_cpu's slow path"),
	[KEY_HARDENED] = PCB_KEY_CHOICE_FIELD("slab", "freelist_hardened", "yes", yesno, CFG,
		hardened, "CONFIG_SLAB_FREELIST_HARDENED: free pointers XORed with a random and "
		"their swapped address, as the distributions' kernels build them"),
	[KEY_OBJECT_SIZE] = PCB_KEY_INT_FIELD("slab", "object_size", "64", 8, 4096, CFG,
		object_size, "the cache's object size in bytes (its slab order and sheaf "
		"capacity follow, as calculate_order() and calculate_sheaf_capacity() set them)"),
	[KEY_CAPACITY] = PCB_KEY_INT_FIELD("sheaves", "capacity", "0", 0, 1024, CFG, capacity,
		"sheaf_capacity asked for (kmem_cache_args.sheaf_capacity); 0: "
		"calculate_sheaf_capacity()'s for the object size (60 for up to 255 bytes)"),
	[KEY_POOL] = PCB_KEY_INT_FIELD("slab", "pool_mib", "64", 4, 4096, CFG, pool_mib,
		"MiB of slab-sized blocks the page allocator has for the cache"),
	[KEY_BURST] = PCB_KEY_INT_FIELD("workload", "burst", "1", 1, SHEAVES_MAX_BURST, CFG, burst,
		"objects allocated before they are freed (handoff: handed over at a time)"),
};

/*
 * The checks across keys (struct pcb_model_config's rules()): the
 * harness's, on each design a scenario runs, and the kernel backend's
 * module's, on the plan it is handed (kmod/plan.c), from this one
 * definition.
 */
int sheaves_rules(const void *config, int timing, const struct pcb_design *d,
		  struct pcb_refusal *r)
{
	const struct sheaves_config *c = config;
	unsigned int size = ((unsigned int)c->object_size + 7) & ~7u;
	unsigned long slab = PAGE_SIZE << sheaves_order_of(size, 1024);

	if (c->timing != timing)
		return pcb_refuse(r, PCB_RULE_TIMING, "%d: the settings were checked for "
				  "timing %d", timing, c->timing);
	if ((unsigned long)c->pool_mib << 20 < 64 * slab)
		return pcb_refuse(r, KEY_POOL, "%d MiB hold fewer than 64 slabs of %lu bytes",
				  c->pool_mib, slab);
	return 0;
}

/* What a configuration says of itself: the harness's, in userspace. */
#ifndef __KERNEL__
/* the harness's run.timing in the settings; the checks are sheaves_rules() */
int sheaves_finish(void *config, int timing, const struct pcb_scenario *sc, char *err,
		   size_t errlen)
{
	struct sheaves_config *c = config;

	c->timing = timing;
	return 0;
}

void sheaves_describe(const void *config, char *buf, size_t len)
{
	const struct sheaves_config *c = config;
	unsigned int size = ((unsigned int)c->object_size + 7) & ~7u;

	snprintf(buf, len, "workload %s, burst %d, %u-byte objects, sheaf_capacity %u, "
		 "freelist %shardened, %d MiB of slabs%s", workloads[c->workload], c->burst, size,
		 sheaves_capacity_of(size, (unsigned int)c->capacity), c->hardened ? "" : "not ",
		 c->pool_mib, pcb_irq_model_note(c->irq_model, c->in_kernel));
}

/* the kernel backend masks interrupts itself: irq_model kernel, its variant */
void sheaves_kernel(void *config, char *note, size_t len)
{
	struct sheaves_config *c = config;

	pcb_irq_model_in_kernel(&c->irq_model, &c->in_kernel, note, len);
}
#endif
