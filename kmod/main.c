// SPDX-License-Identifier: MIT
/*
 * pcpbench.ko: /dev/pcpbench takes one request, PCB_PLAN_IOC_RUN: a plan
 * (pcb/plan.h), checked, run (run.c), its figures copied back. Runs are
 * one at a time. A signal to the caller ends the run at its threads' next
 * chunk: everything is given back and the request fails with EINTR.
 * Unloading says how many allocations the runs made and whether each was
 * freed (alloc.c).
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "kmod.h"

static DEFINE_MUTEX(run_lock);

/* the plan of req, checked, into res; 0 where it runs */
static int plan_in(const struct pcb_plan_run *req, struct pcb_plan **planp,
		   struct pcb_plan_result *res)
{
	struct pcb_plan *plan = pcb_memdup_user(u64_to_user_ptr(req->plan), sizeof(*plan));

	if (IS_ERR(plan))
		return PTR_ERR(plan);
	*planp = plan;
	res->version = PCB_PLAN_VERSION;
	res->size = sizeof(*res);
	res->status = pcb_kmod_plan_check(plan, res->msg, sizeof(res->msg));
	if (!res->status && req->result_size < pcb_plan_result_size(plan->nr_workers)) {
		res->status = -ENOSPC;
		snprintf(res->msg, sizeof(res->msg), "%llu bytes for the figures of %u workers: "
			 "%llu needed", req->result_size, plan->nr_workers,
			 pcb_plan_result_size(plan->nr_workers));
	}
	return 0;
}

static long pcb_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct pcb_plan_result *res;
	struct pcb_plan *plan = NULL;
	struct pcb_plan_run req;
	size_t size = sizeof(*res);
	long rc;

	if (cmd != PCB_PLAN_IOC_RUN)
		return -ENOTTY;
	if (copy_from_user(&req, (void __user *)arg, sizeof(req)))
		return -EFAULT;
	res = pcb_kvzalloc(size, NUMA_NO_NODE);
	if (!res)
		return -ENOMEM;
	rc = plan_in(&req, &plan, res);
	if (!rc && !res->status) {
		struct pcb_plan_result *head = res;

		size = pcb_plan_result_size(plan->nr_workers);
		res = pcb_kvzalloc(size, NUMA_NO_NODE);
		if (res)
			*res = *head;
		pcb_kvfree(head);
		rc = res ? 0 : -ENOMEM;
		if (!rc && mutex_lock_interruptible(&run_lock))
			rc = -EINTR;
		if (!rc) {
			pcb_kmod_run(plan, res);
			mutex_unlock(&run_lock);
		}
	}
	if (!rc) {
		rc = res->stopped ? -EINTR : 0;
		if (copy_to_user(u64_to_user_ptr(req.result), res, size))
			rc = -EFAULT;
	}
	pcb_kvfree(res);
	pcb_kvfree(plan);
	return rc;
}

static const struct file_operations pcb_fops = {
	.owner = THIS_MODULE,
	.unlocked_ioctl = pcb_ioctl,
	.llseek = noop_llseek,
};

static struct miscdevice pcb_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "pcpbench",
	.fops = &pcb_fops,
	.mode = 0600,
};

static int __init pcb_init(void)
{
	return misc_register(&pcb_dev);
}

/* what the runs allocated, all of it given back: said at every unload */
static void __exit pcb_exit(void)
{
	long made, freed;

	misc_deregister(&pcb_dev);
	pcb_kmod_allocs(&made, &freed);
	if (made != freed)
		pr_err("pcpbench: unloaded: %ld allocations, %ld freed: %ld leaked\n", made, freed,
		       made - freed);
	else
		pr_info("pcpbench: unloaded: %ld allocations, %ld freed: none left\n", made, freed);
}

module_init(pcb_init);
module_exit(pcb_exit);

MODULE_DESCRIPTION("pcpbench: per-CPU cache lock designs run with the kernel's own primitives");
MODULE_LICENSE("Dual MIT/GPL");
/* the plans it runs: pcpbench's userspace loads no module that speaks another version */
MODULE_INFO(pcpbench_plan, __stringify(PCB_PLAN_VERSION));
