/* SPDX-License-Identifier: MIT */
/*
 * <errno.h> in the kernel backend: the kernel's error numbers, and errno,
 * which the set-up calls of kmod/libc.c set (runs are one at a time: the
 * module's run mutex)
 */
#ifndef PCB_KMOD_LIBC_ERRNO_H
#define PCB_KMOD_LIBC_ERRNO_H

#include "pcb/base.h"

extern int pcb_libc_errno;
#define errno pcb_libc_errno

#endif
