/* SPDX-License-Identifier: MIT */
/* fls_long() of include/linux/bitops.h; the kernel's own in the kernel backend */
#ifndef PCB_KERNELS_BITOPS_H
#define PCB_KERNELS_BITOPS_H

#ifdef __KERNEL__
#include <linux/bitops.h>
#else
/* the last (most significant) bit set, counted from 1; 0 for none */
static inline unsigned int fls_long(unsigned long x)
{
	return x ? 64 - (unsigned int)__builtin_clzl(x) : 0;
}
#endif

#endif
