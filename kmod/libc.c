// SPDX-License-Identifier: MIT
/*
 * The C library calls the models' set-up makes (kmod/libc/), over the
 * kernel's allocators (counted, alloc.c), in the ioctl's process context. Runs are one at a
 * time (main.c's mutex), so errno is one variable, and so is the table of
 * over-aligned allocations.
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

void *pcb_libc_calloc(size_t nmemb, size_t size)
{
	return pcb_kvcalloc(nmemb, size);
}

/*
 * Past a page (the sheaves model's slabs of order > 0, which the page
 * allocator hands out naturally aligned): a kvmalloc() larger by the
 * alignment less a page, page-aligned as any kvmalloc() of more than a
 * page is (the page allocator's, or vmalloc's), the aligned address in it
 * handed out and remembered for pcb_libc_free(). A run's set-up makes a few.
 */
#define PCB_LIBC_OVERALIGNED 8

static struct {
	void *p, *area;
} overaligned[PCB_LIBC_OVERALIGNED];

static void *aligned_area(size_t align, size_t size)
{
	for (int i = 0; i < PCB_LIBC_OVERALIGNED; i++) {
		void *area;

		if (overaligned[i].p)
			continue;
		area = pcb_kvmalloc(size + align - PAGE_SIZE);
		if (!area)
			break;
		overaligned[i].area = area;
		overaligned[i].p = PTR_ALIGN(area, align);
		return overaligned[i].p;
	}
	pcb_libc_errno = ENOMEM;
	return NULL;
}

void *pcb_libc_aligned_alloc(size_t align, size_t size)
{
	size_t n = size > align ? size : align;

	if (!align || (align & (align - 1)) || n > (1UL << 30)) {
		pcb_libc_errno = EINVAL;
		return NULL;
	}
	if (align > PAGE_SIZE)
		return aligned_area(align, n);
	return pcb_kvmalloc(roundup_pow_of_two(n));
}

void pcb_libc_free(void *p)
{
	for (int i = 0; p && i < PCB_LIBC_OVERALIGNED; i++)
		if (overaligned[i].p == p) {
			p = overaligned[i].area;
			overaligned[i].p = overaligned[i].area = NULL;
			break;
		}
	pcb_kvfree(p);
}

void *pcb_libc_mmap(void *addr, size_t len, int prot, int flags, int fd, long off)
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

int pcb_libc_munmap(void *addr, size_t len)
{
	(void)len;
	pcb_kvfree(addr);
	return 0;
}

const char *pcb_libc_strerror(int err)
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

long pcb_libc_sysconf(int name)
{
	if (name != _SC_NPROCESSORS_CONF) {
		pcb_libc_errno = EINVAL;
		return -1;
	}
	return num_present_cpus();
}

long pcb_libc_syscall(long number, ...)
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
