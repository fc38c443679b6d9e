/* SPDX-License-Identifier: MIT */
/*
 * <string.h> in the kernel backend: the kernel's string functions
 * (linux/string.h, through pcb/base.h), and strerror() of the errors the
 * models' set-up reports.
 */
#ifndef PCB_KMOD_LIBC_STRING_H
#define PCB_KMOD_LIBC_STRING_H

#include "pcb/base.h"

const char *pcb_libc_strerror(int err);
#define strerror(err)	pcb_libc_strerror(err)

#endif
