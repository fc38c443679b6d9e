/* SPDX-License-Identifier: MIT */
/*
 * spinlock_p5: seed 000's series with patch 5, "Remove flags from
 * memcg_stock_pcp": the drain no longer claims a stock with
 * test_and_set_bit() nor releases it with clear_bit(), and the stock is
 * 48 bytes. The seed's figures are of patches 1-4 (spinlock.h); this is
 * what patch 5 would have changed.
 */
#ifndef PCB_MEMCG_DESIGN_SPINLOCK_P5_H
#define PCB_MEMCG_DESIGN_SPINLOCK_P5_H

#include "spinlock.h"

#undef DESIGN_SUMMARY
#undef DESIGN_FOLLOWS
#undef MEMCG_STOCK_LAYOUT
#define DESIGN_SUMMARY "spinlock with the series' patch 5: no FLUSHING_CACHED_CHARGE flags"
#define DESIGN_FOLLOWS "seed 000: \"Introduce memcg_stock_pcp remote draining\" v2, patches 1-5"
#define MEMCG_STOCK_LAYOUT		MEMCG_STOCK_REMOTE

#endif
