/* SPDX-License-Identifier: MIT */
/*
 * Rewriting code (the model interface, base.h): what kernels/jump_label.c
 * patches a static key's sites with, as the kernel's text_poke_bp() does.
 * The harness defines it once (measure/tsc.c), for its timer sites too; a
 * kernel build has the kernel's own static keys and no need of it.
 */
#ifndef PCB_SEAM_TEXT_H
#define PCB_SEAM_TEXT_H

#include "pcb/base.h"

/* len bytes at addr rewritten, the text made writable around it; 0, or -errno */
int pcb_text_poke(void *addr, const void *bytes, size_t len);

#endif
