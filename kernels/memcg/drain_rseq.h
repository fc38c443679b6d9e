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

#include "../drain/rseq.h"

/* drain_all_stock() of seed 000's patch 4; memcg_stock_lock() stops and fences */
#include "drain_remote.h"

#endif
