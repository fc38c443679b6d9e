// SPDX-License-Identifier: MIT
/*
 * What kernels/locks/rseq.h needs of the system: glibc's rseq registration
 * of the calling thread and membarrier(2)'s rseq fence.
 */
#include <errno.h>
#include <linux/membarrier.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/rseq.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rseq.h"

static long membarrier(int cmd, unsigned int flags, int cpu)
{
	return syscall(__NR_membarrier, cmd, flags, cpu);
}

const char *pcb_rseq_unavailable(void)
{
	long cmds;

	if (__rseq_size < PCB_RSEQ_CS + sizeof(uint64_t))
		return "glibc registered no rseq area for its threads (glibc older than 2.35, "
		       "or GLIBC_TUNABLES=glibc.pthread.rseq=0)";
	if ((int)((struct rseq *)pcb_rseq_area())->cpu_id < 0)
		return "the kernel refused glibc's rseq registration";
	cmds = membarrier(MEMBARRIER_CMD_QUERY, 0, 0);
	if (cmds < 0 || !(cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ))
		return "membarrier(2) has no MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ (Linux 5.10 "
		       "or later)";
	return NULL;
}

int pcb_rseq_register_fence(void)
{
	if (membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_RSEQ, 0, 0) < 0)
		return -errno;
	return 0;
}

void pcb_rseq_fence_cpu(int os_cpu)
{
	long rc = membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ, MEMBARRIER_CMD_FLAG_CPU,
			     os_cpu);

	/* a drain before any worker registered the process (the tests' coordinator) */
	if (rc < 0 && errno == EPERM && pcb_rseq_register_fence() == 0)
		rc = membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ, MEMBARRIER_CMD_FLAG_CPU,
				os_cpu);
	if (rc < 0) {
		/* a cache touched without its fence would be a lost charge: stop here */
		fprintf(stderr, "pcpbench: membarrier(RSEQ, cpu %d): %s\n", os_cpu,
			strerror(errno));
		abort();
	}
}
