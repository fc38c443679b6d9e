/* SPDX-License-Identifier: MIT */
/*
 * <stdlib.h> in the kernel backend: the allocations the models' set-up
 * makes (a run's shared state, its memcg tree, a zone's bitmaps), over
 * the kernel's allocators, in process context (kmod/libc.c). Hot paths
 * allocate nothing; labs() is the kernel's abs(), which mm/vmstat.c's
 * threshold tests call.
 */
#ifndef PCB_KMOD_LIBC_STDLIB_H
#define PCB_KMOD_LIBC_STDLIB_H

#include "pcb/base.h"

/* kvzalloc(): zeroed, as calloc() hands it out */
void *pcb_libc_calloc(size_t nmemb, size_t size);
/* a power-of-two kvmalloc() at least align: kmalloc's are naturally aligned, vmalloc's to a page */
void *pcb_libc_aligned_alloc(size_t align, size_t size);
void pcb_libc_free(void *p);

/* the C library's names, for the models' calls alone: the module defines none of them */
#define calloc(nmemb, size)		pcb_libc_calloc(nmemb, size)
#define aligned_alloc(align, size)	pcb_libc_aligned_alloc(align, size)
#define free(p)				pcb_libc_free(p)
#define labs(x)				abs(x)

#endif
