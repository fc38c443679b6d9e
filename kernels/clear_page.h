/* SPDX-License-Identifier: MIT */
/*
 * clear_page() as x86-64 builds it (arch/x86/include/asm/page_64.h,
 * arch/x86/lib/clear_page_64.S): alternative_call_2() of
 * clear_page_orig (an unrolled loop of 8-byte stores), clear_page_rep
 * (rep stosq, X86_FEATURE_REP_GOOD) and clear_page_erms (rep stosb,
 * X86_FEATURE_ERMS). The kernel patches the call once at boot; here the
 * choice is made once at start-up (clear_page.c) and the call site tests
 * it, a branch that always goes the same way. The body is inlined: the
 * kernel's call and its return (a return thunk where retbleed's
 * mitigation is on) are not modeled. The kernel backend calls the
 * kernel's own, patched at its boot, call and return included.
 */
#ifndef PCB_KERNELS_CLEAR_PAGE_H
#define PCB_KERNELS_CLEAR_PAGE_H

#include <stddef.h>

#include "compiler.h"

#ifdef __KERNEL__
#include <asm/page.h>

#define PCB_CLEAR_PAGE_SIZE PAGE_SIZE
#else

enum pcb_clear_page_alt {
	PCB_CLEAR_PAGE_ORIG,		/* neither feature */
	PCB_CLEAR_PAGE_REP,		/* X86_FEATURE_REP_GOOD */
	PCB_CLEAR_PAGE_ERMS,		/* X86_FEATURE_ERMS */
};

/* the alternative this CPU takes, and its kernel name */
extern enum pcb_clear_page_alt pcb_clear_page_alt;
const char *pcb_clear_page_name(void);

#define PCB_CLEAR_PAGE_SIZE 4096

static __always_inline void clear_page(void *page)
{
	void *di = page;

	if (likely(pcb_clear_page_alt == PCB_CLEAR_PAGE_ERMS)) {
		size_t cx = PCB_CLEAR_PAGE_SIZE;

		__asm__ volatile("rep stosb" : "+D"(di), "+c"(cx) : "a"(0) : "memory");
	} else if (pcb_clear_page_alt == PCB_CLEAR_PAGE_REP) {
		size_t cx = PCB_CLEAR_PAGE_SIZE / 8;

		__asm__ volatile("rep stosq" : "+D"(di), "+c"(cx) : "a"(0) : "memory");
	} else {
		size_t cx = PCB_CLEAR_PAGE_SIZE / 64;

		/* clear_page_orig: the count decremented first, eight movq a line, then jnz */
		__asm__ volatile("1:\n\t"
				 "decl %k1\n\t"
				 "movq %%rax, 0x00(%0)\n\tmovq %%rax, 0x08(%0)\n\t"
				 "movq %%rax, 0x10(%0)\n\tmovq %%rax, 0x18(%0)\n\t"
				 "movq %%rax, 0x20(%0)\n\tmovq %%rax, 0x28(%0)\n\t"
				 "movq %%rax, 0x30(%0)\n\tmovq %%rax, 0x38(%0)\n\t"
				 "leaq 64(%0), %0\n\t"
				 "jnz 1b"
				 : "+r"(di), "+r"(cx) : "a"(0) : "memory", "cc");
	}
}

#endif

#endif
