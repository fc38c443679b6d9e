// SPDX-License-Identifier: MIT
/*
 * Every allocation the module makes (kmod.h): the runner's, the request's,
 * the models' set-up (libc.c) and its threads' perf events go through
 * these, which count what is handed out and what comes back, so that
 * module_exit() (main.c) can say that nothing is left: the kernels the
 * module runs on need not have kmemleak (Debian's cloud kernel has none).
 *
 * The tests' faults, one run's: root writes a step's name to
 * /sys/module/pcpbench/parameters/fail, and the next run to start fails
 * there as if the kernel had refused it (areas: the CPUs' areas not
 * allocated; threads: the last worker's kthread not created) or has its
 * invariant reported broken (check). No plan reaches it.
 */
#include <linux/err.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "kmod.h"

static atomic_long_t allocs = ATOMIC_LONG_INIT(0), frees = ATOMIC_LONG_INIT(0);

static char fail_step[16];
module_param_string(fail, fail_step, sizeof(fail_step), 0600);
MODULE_PARM_DESC(fail, "tests: the next run fails at this step (areas, threads or check)");

static void *counted(void *p)
{
	if (p)
		atomic_long_inc(&allocs);
	return p;
}

void *pcb_kvzalloc(size_t size, int node)
{
	return counted(kvzalloc_node(size, GFP_KERNEL, node));
}

void *pcb_kvcalloc(size_t n, size_t size)
{
	return counted(kvcalloc(n, size, GFP_KERNEL));
}

void *pcb_kvmalloc(size_t size)
{
	return counted(kvmalloc(size, GFP_KERNEL));
}

void *pcb_vzalloc(size_t size)
{
	return counted(vzalloc(size));
}

void *pcb_memdup_user(const void __user *src, size_t len)
{
	void *p = memdup_user(src, len);

	if (!IS_ERR(p))
		atomic_long_inc(&allocs);
	return p;
}

void __percpu *pcb_alloc_percpu(size_t size, size_t align)
{
	void __percpu *p = __alloc_percpu(size, align);

	if (p)
		atomic_long_inc(&allocs);
	return p;
}

/* any of the above but a CPU area (kvfree() takes kmalloc()'s and vmalloc()'s alike) */
void pcb_kvfree(const void *p)
{
	if (p)
		atomic_long_inc(&frees);
	kvfree(p);
}

void pcb_free_percpu(void __percpu *p)
{
	if (p)
		atomic_long_inc(&frees);
	free_percpu(p);
}

/* bound to task on whatever CPU it runs (cpu -1), counting: no overflow handler */
struct perf_event *pcb_perf_counter(struct perf_event_attr *attr, struct task_struct *task)
{
	struct perf_event *ev = perf_event_create_kernel_counter(attr, -1, task, NULL, NULL);

	if (!IS_ERR(ev))
		atomic_long_inc(&allocs);
	return ev;
}

void pcb_perf_release(struct perf_event *ev)
{
	if (!ev)
		return;
	atomic_long_inc(&frees);
	perf_event_release_kernel(ev);
}

void pcb_kmod_allocs(long *made, long *freed)
{
	*made = atomic_long_read(&allocs);
	*freed = atomic_long_read(&frees);
}

enum pcb_kfault pcb_kfault_take(void)
{
	static const char *const steps[] = { "", "areas", "threads", "check" };
	enum pcb_kfault f = PCB_KFAULT_NONE;

	kernel_param_lock(THIS_MODULE);
	for (int i = 1; i < (int)ARRAY_SIZE(steps); i++)
		if (sysfs_streq(fail_step, steps[i]))
			f = (enum pcb_kfault)i;
	fail_step[0] = 0;
	kernel_param_unlock(THIS_MODULE);
	if (f)
		pr_info("pcpbench: this run fails at its step %s (parameter fail)\n", steps[f]);
	return f;
}
