/* SPDX-License-Identifier: MIT */
/*
 * isolated_skip: Michal Hocko's "memcg: do not drain charge pcp caches on
 * remote isolated cpus" (seed 000): local_lock as upstream, but
 * drain_all_stock() schedules no work on cpu_is_isolated() CPUs, whose
 * charges stay where they are. As in the patch, FLUSHING_CACHED_CHARGE is
 * still set on them and nothing clears it.
 */
#ifndef PCB_MEMCG_DESIGN_ISOLATED_SKIP_H
#define PCB_MEMCG_DESIGN_ISOLATED_SKIP_H

#include "local_lock.h"

#undef DESIGN_SUMMARY
#undef DESIGN_FOLLOWS
#undef DESIGN_PROMISE
#define DESIGN_SUMMARY "local_lock, but no drain work on isolated CPUs: their charges stay"
#define DESIGN_FOLLOWS "seed 000: Michal Hocko, \"memcg: do not drain charge pcp caches " \
		       "on remote isolated cpus\""
#define DESIGN_PROMISE "stocks empty once the queued work ran on each CPU (not when " \
		       "drain_all_stock() returns), except isolated CPUs', which keep their charges"

#define MEMCG_STOCK_SKIP_ISOLATED 1

#endif
