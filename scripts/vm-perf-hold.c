// SPDX-License-Identifier: MIT
/*
 * The guest's holder of perf's static keys (scripts/vm.sh runs it from
 * vm-init.sh before the command): one software event of each kind opened
 * for a process that stays, so that the kernel's static keys behind them
 * (perf_swevent_enabled[], perf_sched_events) are enabled once, at boot,
 * and not flipped again while the command runs. Each flip rewrites
 * kernel code with text_poke_bp(); under QEMU's TCG with a host thread
 * per CPU that left CPUs taking the int3 it plants, interrupts off, and
 * the guest hung (docs/machines.md). The parent opens them and forks a
 * child that sleeps holding them, then says what is held and returns.
 */
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	char held[128] = "";
	int n = 0;

	/* every software event id a kernel may know; one it does not know is refused */
	for (unsigned int id = 0; id < 16; id++) {
		struct perf_event_attr attr;
		char one[8];

		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		attr.type = PERF_TYPE_SOFTWARE;
		attr.config = id;
		attr.disabled = 1;
		/* this task's, as pcpbench opens them: that also enables perf_sched_events */
		if (syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0) < 0)
			continue;
		snprintf(one, sizeof(one), " %u", id);
		strncat(held, one, sizeof(held) - strlen(held) - 1);
		n++;
	}
	switch (fork()) {
	case -1:
		perror("perf-hold: fork");
		return 1;
	case 0:
		/* not the caller's output: its reader would wait for this process */
		close(STDIN_FILENO);
		close(STDOUT_FILENO);
		close(STDERR_FILENO);
		for (;;)
			pause();
	}
	printf("perf-hold: %d software events held (ids%s)\n", n, held);
	return 0;
}
