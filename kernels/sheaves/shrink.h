/* SPDX-License-Identifier: MIT */
/*
 * kmem_cache_shrink() (__kmem_cache_shrink()): flush_all(), the design's
 * flush of every CPU, then __kmem_cache_do_shrink() on every node: the
 * barn's sheaves out (barn_shrink()), empty partial slabs discarded and
 * the fullest promoted to the head of the list. The drain the coordinator
 * fires. Included after the design's drain flavour.
 */
#ifndef PCB_SHEAVES_SHRINK_H
#define PCB_SHEAVES_SHRINK_H

/* one node's partial list: empty slabs out, the rest sorted by free objects */
static inline void shrink_node(struct pcb_cpu *this, struct kmem_cache *s, int node,
			       struct kmem_cache_node *n)
{
	struct list_head discard, promote[SHRINK_PROMOTE_MAX], *lh, *next;
	unsigned long flags;

	INIT_LIST_HEAD(&discard);
	for (int i = 0; i < SHRINK_PROMOTE_MAX; i++)
		INIT_LIST_HEAD(promote + i);
	slub_barn_shrink(this, s, n);
	flags = spin_lock_irqsave(this, &n->list_lock, "__kmem_cache_do_shrink");
	for (lh = n->partial.next; lh != &n->partial; lh = next) {
		struct slab *slab = slab_of(lh);
		unsigned long counters = READ_ONCE(slab->counters);
		unsigned int free = fc_objects(counters) - fc_inuse(counters);

		next = lh->next;
		if (free == fc_objects(counters)) {
			list_move(&slab->slab_list, &discard);
			slab_clear_node_partial(slab);
			WRITE_ONCE(n->nr_partial, n->nr_partial - 1);
			dec_slabs_node(s, node, fc_objects(counters));
		} else if (free <= SHRINK_PROMOTE_MAX) {
			list_move(&slab->slab_list, promote + free - 1);
		}
	}
	/* the slabs filled up most to the head of the partial list */
	for (int i = SHRINK_PROMOTE_MAX - 1; i >= 0; i--)
		list_splice(promote + i, &n->partial);
	spin_unlock_irqrestore(this, &n->list_lock, flags);
	for (lh = discard.next; lh != &discard; lh = next) {
		next = lh->next;
		__free_slab(this, s, slab_of(lh));
	}
}

static inline void __kmem_cache_do_shrink(struct pcb_cpu *this, struct kmem_cache *s)
{
	int nr_nodes = READ_ONCE(s->nr_nodes);

	for (int node = 0; node < nr_nodes; node++)
		if (get_node(s, node))
			shrink_node(this, s, node, get_node(s, node));
}

/* __kmem_cache_shrink(): flush_all() (cpus_read_lock() not modeled), then the nodes */
static inline void __kmem_cache_shrink(struct pcb_cpu *this, struct kmem_cache *s,
				       struct pcb_cpu *const *cpus, int nr)
{
	flush_all_cpus_locked(this, s, cpus, nr);
	__kmem_cache_do_shrink(this, s);
}

#endif
