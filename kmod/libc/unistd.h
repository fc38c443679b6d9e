/* SPDX-License-Identifier: MIT */
/*
 * <unistd.h> in the kernel backend: syscall(), which from the kernel is
 * no system call at all: it fails with ENOSYS (kmod/libc.c); sysconf() of
 * the CPUs. A model's
 * configuration that makes one (memcg's workload.between = syscall) is
 * changed by the harness for the kernel backend, with a note.
 */
#ifndef PCB_KMOD_LIBC_UNISTD_H
#define PCB_KMOD_LIBC_UNISTD_H

#include "pcb/base.h"

long pcb_libc_syscall(long number, ...);
#define syscall(...)	pcb_libc_syscall(__VA_ARGS__)

/* sysconf(_SC_NPROCESSORS_CONF): num_present_cpus(), which SLUB's calculate_order() counts */
#define _SC_NPROCESSORS_CONF	83
long pcb_libc_sysconf(int name);
#define sysconf(name)	pcb_libc_sysconf(name)

#endif
