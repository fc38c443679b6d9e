/* SPDX-License-Identifier: MIT */
/* <sys/syscall.h> in the kernel backend: the numbers the models name (x86-64) */
#ifndef PCB_KMOD_LIBC_SYS_SYSCALL_H
#define PCB_KMOD_LIBC_SYS_SYSCALL_H

#define SYS_getppid	110

#endif
