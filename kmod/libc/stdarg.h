/* SPDX-License-Identifier: MIT */
/* <stdarg.h> in the kernel backend: the kernel's va_list (linux/stdarg.h) */
#include "pcb/base.h"
#include <linux/stdarg.h>
