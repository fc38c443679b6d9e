/* SPDX-License-Identifier: MIT */
#include "../../kernels/locks/spinlock.h"
#include "../loop.h"

PCB_DEFINE_DESIGN("per-CPU spin_lock_irqsave(); any CPU drains any stock directly",
		  "seed 000: \"Introduce memcg_stock_pcp remote draining\" v2, patches 1-5");
