/* SPDX-License-Identifier: MIT */
/*
 * <stdlib.h> in the kernel backend: the allocations the models' set-up
 * makes (a run's shared state, its memcg tree, a zone's bitmaps), over
 * the kernel's allocators, in process context (kmod/libc.c). Hot paths
 * allocate nothing.
 */
#ifndef PCB_KMOD_LIBC_STDLIB_H
#define PCB_KMOD_LIBC_STDLIB_H

#include "pcb/base.h"

/* kvzalloc(): zeroed, as calloc() hands it out */
void *calloc(size_t nmemb, size_t size);
/* a power-of-two kvmalloc() at least align: kmalloc's are naturally aligned, vmalloc's to a page */
void *aligned_alloc(size_t align, size_t size);
void free(void *p);

#endif
