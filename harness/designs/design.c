/* SPDX-License-Identifier: MIT */
/*
 * One build variant of one design: meson compiles this file once per design
 * (PCB_DESIGN_HEADER) and variant (MEMCG_STOCK_SLOTS, PCB_IRQ_MODEL).
 */
#include PCB_DESIGN_HEADER
#include "../loop.h"

PCB_DEFINE_VARIANT();
