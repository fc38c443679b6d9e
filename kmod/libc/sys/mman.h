/* SPDX-License-Identifier: MIT */
/*
 * <sys/mman.h> in the kernel backend: the anonymous private mappings the
 * models' set-up makes (a zone's page frames and memmap, the pages
 * workload.clear_pages zeroes) are vmalloc()ed, zeroed as a new mapping
 * reads (kmod/libc.c). Anything else fails.
 */
#ifndef PCB_KMOD_LIBC_SYS_MMAN_H
#define PCB_KMOD_LIBC_SYS_MMAN_H

#include "pcb/base.h"

#define PROT_READ	0x1
#define PROT_WRITE	0x2
#define MAP_PRIVATE	0x02
#define MAP_ANONYMOUS	0x20
#define MAP_NORESERVE	0x4000
#define MAP_FAILED	((void *)-1)
#define MADV_NOHUGEPAGE	15

void *pcb_libc_mmap(void *addr, size_t len, int prot, int flags, int fd, long off);
int pcb_libc_munmap(void *addr, size_t len);
#define mmap(addr, len, prot, flags, fd, off)	pcb_libc_mmap(addr, len, prot, flags, fd, off)
#define munmap(addr, len)			pcb_libc_munmap(addr, len)
/* vmalloc()'s pages are never huge: nothing to advise */
static inline int madvise(void *addr, size_t len, int advice)
{
	(void)addr;
	(void)len;
	(void)advice;
	return 0;
}

#endif
