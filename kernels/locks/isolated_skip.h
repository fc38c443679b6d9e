/* SPDX-License-Identifier: MIT */
/*
 * isolated_skip: Michal Hocko's "memcg: do not drain charge pcp caches on
 * remote isolated cpus" (seed 000): local_lock as upstream, but
 * drain_all_stock() schedules no work on cpu_is_isolated() CPUs, whose
 * charges stay where they are. As in the patch, FLUSHING_CACHED_CHARGE is
 * still set on them and nothing clears it.
 */
#ifndef PCB_LOCKS_ISOLATED_SKIP_H
#define PCB_LOCKS_ISOLATED_SKIP_H

#include "local_lock.h"

#undef MEMCG_STOCK_DESIGN
#define MEMCG_STOCK_DESIGN	isolated_skip
#define MEMCG_STOCK_SKIP_ISOLATED 1

#endif
