/* SPDX-License-Identifier: MIT */
/* <stdio.h> in the kernel backend: snprintf() is the kernel's (linux/kernel.h) */
#include "pcb/base.h"
