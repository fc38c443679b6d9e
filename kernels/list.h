/* SPDX-License-Identifier: MIT */
/*
 * Doubly linked lists as include/linux/list.h has them: the same stores in
 * the same order, WRITE_ONCE() where the kernel's lockless readers need it.
 * The kernel backend has the kernel's own.
 */
#ifndef PCB_KERNELS_LIST_H
#define PCB_KERNELS_LIST_H

#include "compiler.h"

#ifdef __KERNEL__
#include <linux/list.h>
#else

struct list_head {
	struct list_head *next, *prev;
};

static inline void INIT_LIST_HEAD(struct list_head *list)
{
	WRITE_ONCE(list->next, list);
	list->prev = list;
}

static inline int list_empty(const struct list_head *head)
{
	return READ_ONCE(head->next) == head;
}

static inline void __list_add(struct list_head *new, struct list_head *prev,
			      struct list_head *next)
{
	next->prev = new;
	new->next = next;
	new->prev = prev;
	WRITE_ONCE(prev->next, new);
}

static inline void list_add(struct list_head *new, struct list_head *head)
{
	__list_add(new, head, head->next);
}

static inline void list_add_tail(struct list_head *new, struct list_head *head)
{
	__list_add(new, head->prev, head);
}

static inline void list_del(struct list_head *entry)
{
	entry->next->prev = entry->prev;
	WRITE_ONCE(entry->prev->next, entry->next);
	entry->next = entry->prev = NULL;
}

static inline void list_del_init(struct list_head *entry)
{
	entry->next->prev = entry->prev;
	WRITE_ONCE(entry->prev->next, entry->next);
	INIT_LIST_HEAD(entry);
}

static inline void list_move(struct list_head *list, struct list_head *head)
{
	list->next->prev = list->prev;
	WRITE_ONCE(list->prev->next, list->next);
	list_add(list, head);
}

static inline void list_splice(const struct list_head *list, struct list_head *head)
{
	struct list_head *first = list->next, *last = list->prev, *at = head->next;

	if (list_empty(list))
		return;
	first->prev = head;
	WRITE_ONCE(head->next, first);
	last->next = at;
	at->prev = last;
}

static inline void list_splice_init(struct list_head *list, struct list_head *head)
{
	list_splice(list, head);
	INIT_LIST_HEAD(list);
}

#endif

#endif
