/* SPDX-License-Identifier: MIT */
/*
 * Static keys as the kernel's jump labels do them (include/linux/jump_label.h,
 * arch/x86/include/asm/jump_label.h): the branch site is a 5-byte nop, listed
 * with its target and key in a table section; enabling the key rewrites the
 * nop into a jmp to the target, disabling it writes the nop back. Here the
 * text is made writable with mprotect() for the rewrite, while no worker
 * runs. Where that is refused, pcb_static_key_patchable() says why and the
 * caller must not pretend the branch is patched. The kernel backend has
 * the kernel's own jump labels, which it patches in the module's text.
 */
#ifndef PCB_KERNELS_JUMP_LABEL_H
#define PCB_KERNELS_JUMP_LABEL_H

#include <stdbool.h>
#include <stddef.h>

#include "compiler.h"

#ifdef __KERNEL__
#include <linux/jump_label.h>

/* static_branch_unlikely(&sym), and the key's state read as a flag */
#define pcb_static_branch_unlikely(sym) static_branch_unlikely(&(sym))
#define pcb_static_key_enabled(sym) static_key_enabled(&(sym))

/* the kernel rewrites its own text: always */
static inline int pcb_static_key_patchable(char *why, size_t len)
{
	(void)why;
	(void)len;
	return 0;
}

static inline int pcb_static_key_set(struct static_key_false *key, bool enabled)
{
	if (enabled)
		static_branch_enable(key);
	else
		static_branch_disable(key);
	return 0;
}

/* with no text to rewrite, the flag alone: the kernel's key has none apart */
#define pcb_static_key_flag pcb_static_key_set
#else

struct static_key_false {
	int enabled;
};

struct pcb_jump_entry {
	unsigned long code;		/* the 5-byte site */
	unsigned long target;		/* where the enabled branch goes */
	struct static_key_false *key;
};

#define STATIC_KEY_FALSE_INIT { 0 }

/*
 * static_branch_unlikely(&sym): false, and free, until the key is enabled.
 * The key is named by its symbol (a global struct static_key_false), which
 * the table records with an absolute relocation, so the site needs no
 * operand a position-independent build could not encode.
 */
#define pcb_static_branch_unlikely(sym) ({				\
	__label__ l_yes_;	/* one per site: a function may hold several */ \
	bool taken_ = false;						\
	__asm__ goto("1:\n\t"						\
		     ".byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n\t" /* nopl 0x0(%%rax,%%rax,1) */ \
		     ".pushsection pcb_jump_table, \"aw\"\n\t"		\
		     ".balign 8\n\t"					\
		     ".quad 1b, %l[l_yes_], " #sym "\n\t"			\
		     ".popsection\n\t"					\
		     : : : : l_yes_);					\
	if (0) {							\
l_yes_:									\
		taken_ = true;						\
	}								\
	taken_; })

/* the key's state read as a flag: a test and a branch, where the text cannot be rewritten */
#define pcb_static_key_enabled(sym) READ_ONCE((sym).enabled)

/* enable or disable: rewrite every site of key; 0, or -errno */
int pcb_static_key_set(struct static_key_false *key, bool enabled);
/* 0 if the text can be rewritten here, else -errno with the reason */
int pcb_static_key_patchable(char *why, size_t len);

/* the flag alone, where the text cannot be rewritten */
static inline void pcb_static_key_flag(struct static_key_false *key, bool enabled)
{
	key->enabled = enabled;
}
#endif

/* sites of key in the table (in the kernel backend, the module's) */
int pcb_static_key_sites(const struct static_key_false *key);

#endif
