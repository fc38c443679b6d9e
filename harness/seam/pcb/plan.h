/* SPDX-License-Identifier: MIT */
/*
 * A run handed to the kernel backend, and the figures it hands back (the
 * model interface, base.h, cpu.h, stat.h, gaps.h, timed.h): what the
 * harness writes to the module's device (kmod/) for one run of one design,
 * as its own runner runs one (run/runner.c), and the raw per-worker and
 * coordinator figures its own threads would have left, which the harness
 * then collects with the same code (run/kernel.c).
 *
 * Fixed-size structs of fixed-width fields, versioned: the module refuses
 * a plan of another version or size, and checks every field before it
 * runs anything (kmod/plan.c). Registration, never on a hot path.
 */
#ifndef PCB_SEAM_PLAN_H
#define PCB_SEAM_PLAN_H

#include "pcb/base.h"
#include "pcb/cpu.h"
#include "pcb/gaps.h"
#include "pcb/stat.h"
#include "pcb/timed.h"

#define PCB_PLAN_VERSION	6

/* the bounds of a plan: CPUs named, workers, a name, a model's settings */
#define PCB_PLAN_MAX_CPUS	256
#define PCB_PLAN_MAX_WORKERS	128
#define PCB_PLAN_NAME		32
#define PCB_PLAN_CONFIG_MAX	512
/* a run's length, warm-up included, at most */
#define PCB_PLAN_MAX_NS		(600ULL * 1000000000ULL)
/* drains a run, at most: drain.count's bound (scenario/keys.c) */
#define PCB_PLAN_MAX_DRAINS	100000000ULL
/* empty regions timed before and after a run, their lengths counted exactly below */
#define PCB_PLAN_OVH_TICKS	4096
#define PCB_PLAN_OVH_MAX_SAMPLES 1000000
/* perf events a thread counts over the run */
#define PCB_PLAN_MAX_EVENTS	PCB_MAX_EVENTS

/* the perf_event_attr bits a plan's event carries beside its type and configs */
#define PCB_PLAN_EV_EXCLUDE_USER	(1u << 0)
#define PCB_PLAN_EV_EXCLUDE_KERNEL	(1u << 1)
#define PCB_PLAN_EV_EXCLUDE_HV		(1u << 2)
#define PCB_PLAN_EV_EXCLUDE_HOST	(1u << 3)
#define PCB_PLAN_EV_EXCLUDE_GUEST	(1u << 4)
#define PCB_PLAN_EV_PINNED		(1u << 5)
#define PCB_PLAN_EV_EXCLUSIVE		(1u << 6)
#define PCB_PLAN_EV_FLAGS		0x7fu
#define PCB_PLAN_EV_MAX_PRECISE		3

/*
 * A perf event as libpfm4 resolved it in userspace (measure/counters.c),
 * counted by the module with perf_event_create_kernel_counter(): only
 * these fields of its perf_event_attr; never a sampling one
 */
struct pcb_plan_event {
	uint32_t type;			/* perf_event_attr.type */
	uint32_t flags;			/* PCB_PLAN_EV_* */
	uint64_t config, config1, config2;
	uint32_t precise_ip;		/* 0 to PCB_PLAN_EV_MAX_PRECISE */
	uint32_t pad;
};

/* an event's count over a thread's timed part, as a read() of it gives (measure/counters.h) */
struct pcb_plan_counter {
	int32_t status;			/* 0 counted, else -errno of creating it */
	uint32_t pad;
	uint64_t value, enabled_ns, running_ns;
};

struct pcb_plan {
	uint32_t version;		/* PCB_PLAN_VERSION */
	uint32_t size;			/* sizeof(struct pcb_plan) */
	char model[PCB_PLAN_NAME];	/* memcg */
	char design[PCB_PLAN_NAME];	/* local_lock */
	char variant[PCB_PLAN_NAME];	/* s1_i2: the build the harness chose */
	uint32_t variant_index;		/* its index in the design's variant[] */
	uint32_t config_size;		/* the model's settings struct */
	uint8_t config[PCB_PLAN_CONFIG_MAX];

	uint32_t timing;		/* enum pcb_timing */
	uint32_t run;			/* the run's number: its workers' sequences */
	uint64_t seed;			/* scenario.seed */
	uint64_t ops;			/* operations a worker, 0: by duration */
	uint64_t duration_ns, warmup_ns;
	/* an interruption: past gap_threshold_ns, or past gap_periods spans, at least gap_floor_ns */
	uint64_t gap_threshold_ns;
	uint64_t gap_floor_ns;
	uint32_t gap_periods;
	uint32_t overhead_samples;	/* empty regions timed before and after the run */

	uint32_t nr_workers;
	uint32_t worker_cpu[PCB_PLAN_MAX_WORKERS];
	/* cpu_is_isolated() of this configuration, by CPU number */
	uint8_t isolated[PCB_PLAN_MAX_CPUS];

	/* drains: none where coord_cpu is -1 */
	int32_t coord_cpu;
	/*
	 * idle CPUs walked after the workers' and the coordinator's
	 * (for_each_online_cpu(), pcb_drain_walk()), the first nr_charged
	 * refilled, and the coordinator's own where coord_charged
	 */
	uint32_t nr_idle, nr_charged, coord_charged;
	uint32_t idle_cpu[PCB_PLAN_MAX_CPUS];
	uint64_t drain_period_ns;	/* between two arrivals, or 0 with drain_count */
	uint64_t drain_count;		/* > 0: exactly this many a run, evenly spread */
	uint32_t drain_burst;		/* drains an arrival */
	uint32_t drain_poisson;		/* 1: arrivals a Poisson process of mean drain_period_ns */

	/* perf events each worker and the coordinator count over the timed part */
	uint32_t nr_events;
	struct pcb_plan_event event[PCB_PLAN_MAX_EVENTS];
};

/* a contention row: the kernel function that took the lock, by name */
struct pcb_plan_cc {
	char fn[48];
	struct pcb_tally wait;
	struct pcb_tally held;
};

/* one worker's figures of the run: its struct pcb_worker's and its CPU's */
struct pcb_plan_worker {
	uint32_t cpu;
	int32_t node;			/* the node its CPU area is on */
	uint64_t ops, failed, misses, tsc_start, tsc_end;
	uint64_t ev[PCB_MAX_EV];
	uint64_t remote_drains;
	struct pcb_plan_cc cc[PCB_MAX_CONTENDED_FNS];
	/* its stock's drain work: queued, and where it ran */
	uint64_t work_queued, work_ran_here, work_ran_elsewhere;
	int32_t work_elsewhere_cpu;	/* a CPU it ran on that was not its own, or -1 */
	uint32_t pad;
	/* the empty region before and after the run: lengths counted, and past the range */
	uint32_t ovh_start[PCB_PLAN_OVH_TICKS], ovh_end[PCB_PLAN_OVH_TICKS];
	uint64_t ovh_samples, ovh_start_over, ovh_end_over;
	struct pcb_gaps gaps;
	struct pcb_dbg dbg;		/* its pmc pointer NULL */
	struct pcb_plan_counter ctr[PCB_PLAN_MAX_EVENTS];	/* the plan's events */
};

/* the coordinator's figures of the run */
struct pcb_plan_coord {
	int32_t cpu;
	uint32_t nr_cpus;		/* caches a drain walks, the coordinator's included */
	uint64_t fired;			/* drains */
	uint64_t overhead;		/* its empty region, ticks */
	struct pcb_stat drain;		/* ticks inside the model's drain */
	uint64_t walk_sum;		/* ticks walking the idle CPUs' empty caches */
	uint64_t wake_sum;		/* ticks inside queue_work_on(), the sampled drains' */
	uint64_t wake_n;		/* drains sampled (pcb_wake_sampled()) */
	struct pcb_hist completion;	/* queued work: ticks until it all ran */
	uint64_t completed, incomplete;
	uint64_t waited_preempted;
	uint64_t stranded_sum, stranded_max, stranded_n;
	uint64_t remote_drains;
	struct pcb_plan_cc cc[PCB_MAX_CONTENDED_FNS];
	/* the idle CPUs' drain work: queued, and where it ran */
	uint64_t idle_work_queued, idle_work_ran_here, idle_work_ran_elsewhere;
	struct pcb_plan_counter ctr[PCB_PLAN_MAX_EVENTS];	/* the plan's events */
};

/*
 * Which drains time their queue_work_on() wakes, two TSC reads and an add
 * around each: one in PCB_WAKE_SAMPLE of a design that queues work (the
 * second, tenth, ... of a run, n counting from 1), left out of the drain
 * figure, so that no drain it reports holds the harness's reads, and the
 * wake is read from those alone. Both backends' coordinators ask this.
 */
#define PCB_WAKE_SAMPLE		8

static inline bool pcb_wake_sampled(bool queues_work, uint64_t n)
{
	return queues_work && n % PCB_WAKE_SAMPLE == 2;
}

/* the configuration of the kernel the module was built for (and runs in), bits */
#define PCB_KCONFIG_PREEMPT_DYNAMIC	(1u << 0)
#define PCB_KCONFIG_PREEMPT_NONE	(1u << 1)	/* the build's preemption model, */
#define PCB_KCONFIG_PREEMPT_VOLUNTARY	(1u << 2)	/* PREEMPT_DYNAMIC's boot default */
#define PCB_KCONFIG_PREEMPT		(1u << 3)
#define PCB_KCONFIG_PARAVIRT_SPINLOCKS	(1u << 4)
#define PCB_KCONFIG_PARAVIRT_XXL	(1u << 5)	/* interrupt masking through pv_ops */
#define PCB_KCONFIG_RETPOLINE		(1u << 6)
#define PCB_KCONFIG_RETHUNK		(1u << 7)	/* return thunks (retbleed) */
#define PCB_KCONFIG_SLS			(1u << 8)
#define PCB_KCONFIG_JUMP_LABEL		(1u << 9)

/* what the module hands back: this, then nr_workers struct pcb_plan_worker */
struct pcb_plan_result {
	uint32_t version;		/* PCB_PLAN_VERSION */
	uint32_t size;			/* sizeof(struct pcb_plan_result) */
	int32_t status;			/* 0, or -errno with msg */
	uint32_t stopped;		/* a signal ended the run: its figures are none */
	char msg[256];
	uint32_t check_failed;		/* the model's invariant, and the final drain's */
	char check[256];		/* "ok", or when and the first discrepancy */
	char note[256];			/* what the model's setup() said of itself */
	uint64_t tsc_khz;		/* the kernel's */
	uint32_t nr_workers;
	uint32_t kconfig;		/* PCB_KCONFIG_* */
	char release[PCB_PLAN_NAME * 2];	/* the running kernel's */
	struct pcb_plan_coord coord;
};

/* the device's one request: run plan, figures into result (result_size bytes at most) */
struct pcb_plan_run {
	uint64_t plan;			/* const struct pcb_plan * */
	uint64_t result;		/* struct pcb_plan_result *, then the workers' */
	uint64_t result_size;
};

#define PCB_PLAN_DEVICE		"/dev/pcpbench"
/* _IOWR('p', 1, struct pcb_plan_run), spelled out: no ioctl header here */
#define PCB_PLAN_IOC_RUN	(0xc0000000u | ((uint32_t)sizeof(struct pcb_plan_run) << 16) | \
				 ((uint32_t)'p' << 8) | 1u)

static inline uint64_t pcb_plan_result_size(uint32_t nr_workers)
{
	return sizeof(struct pcb_plan_result) + (uint64_t)nr_workers * sizeof(struct pcb_plan_worker);
}

#endif
