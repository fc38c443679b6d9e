/* SPDX-License-Identifier: MIT */
/*
 * The charge invariant, checked at quiescent points: for every memcg m,
 *   page_counter usage(m) = sum of pages held by workers charging inside m
 *                         + sum of pages stocked for memcgs inside m
 * (so usage = charged - uncharged + stocked), and the css references of each
 * memcg equal the references held by charges plus one per stock caching it.
 */
#ifndef PCB_CHECK_H
#define PCB_CHECK_H

#include <stddef.h>

#include "design.h"
#include "worker.h"

struct memcg_tree;

/* 0 if it holds; -1 with the first discrepancy in msg */
int pcb_check_charges(const struct pcb_design *d, const struct memcg_tree *tree,
		      struct pcb_worker *const *w, int nr, char *msg, size_t len);

#endif
