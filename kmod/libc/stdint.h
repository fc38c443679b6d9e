/* SPDX-License-Identifier: MIT */
/* <stdint.h> in the kernel backend: the kernel's, with the C11 spellings (pcb/base.h) */
#include "pcb/base.h"
