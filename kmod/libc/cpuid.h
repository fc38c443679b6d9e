/* SPDX-License-Identifier: MIT */
/*
 * <cpuid.h> in the kernel backend: __get_cpuid() over the kernel's
 * cpuid() (asm/processor.h), for the leaves the boot CPU has
 */
#ifndef PCB_KMOD_LIBC_CPUID_H
#define PCB_KMOD_LIBC_CPUID_H

#include "pcb/base.h"

#define bit_CMPXCHG16B	(1 << 13)

static inline int __get_cpuid(unsigned int leaf, unsigned int *eax, unsigned int *ebx,
			      unsigned int *ecx, unsigned int *edx)
{
	if (leaf > (unsigned int)boot_cpu_data.cpuid_level)
		return 0;
	cpuid(leaf, eax, ebx, ecx, edx);
	return 1;
}

#endif
