// SPDX-License-Identifier: MIT
/*
 * The C library calls the models' set-up makes (kmod/libc/), over the
 * kernel's allocators (counted, alloc.c), in the ioctl's process context. Runs are one at a
 * time (main.c's mutex), so errno is one variable.
 */
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "kmod.h"
#include "jump_label.h"
#include "stdlib.h"
#include "string.h"
#include "sys/mman.h"
#include "unistd.h"

int pcb_libc_errno;

void *calloc(size_t nmemb, size_t size)
{
	return pcb_kvcalloc(nmemb, size);
}

void *aligned_alloc(size_t align, size_t size)
{
	size_t n = size > align ? size : align;

	if (!align || (align & (align - 1)) || align > PAGE_SIZE || n > (1UL << 30)) {
		pcb_libc_errno = EINVAL;
		return NULL;
	}
	return pcb_kvmalloc(roundup_pow_of_two(n));
}

void free(void *p)
{
	pcb_kvfree(p);
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, long off)
{
	void *p;

	if (addr || fd != -1 || off || !len || (prot & ~(PROT_READ | PROT_WRITE)) ||
	    (flags & ~MAP_NORESERVE) != (MAP_PRIVATE | MAP_ANONYMOUS)) {
		pcb_libc_errno = EINVAL;
		return MAP_FAILED;
	}
	p = pcb_vzalloc(len);
	if (!p) {
		pcb_libc_errno = ENOMEM;
		return MAP_FAILED;
	}
	return p;
}

int munmap(void *addr, size_t len)
{
	(void)len;
	pcb_kvfree(addr);
	return 0;
}

const char *strerror(int err)
{
	switch (err) {
	case ENOMEM:
		return "out of memory";
	case EINVAL:
		return "invalid argument";
	case ENOSYS:
		return "no such system call";
	default:
		return "error";
	}
}

long syscall(long number, ...)
{
	(void)number;
	pcb_libc_errno = ENOSYS;
	return -1;
}

/* a static key's sites among the module's jump entries */
int pcb_static_key_sites(const struct static_key_false *key)
{
	struct jump_entry *e = THIS_MODULE->jump_entries;
	int n = 0;

	for (unsigned int i = 0; i < THIS_MODULE->num_jump_entries; i++)
		n += jump_entry_key(&e[i]) == &key->key;
	return n;
}
