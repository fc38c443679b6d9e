// SPDX-License-Identifier: MIT
/*
 * A plan checked before anything of it runs (pcb/plan.h): the harness
 * checked the scenario it came from, and the module checks again what it
 * relies on, each field against its bound, the CPUs against the
 * machine's, the model's settings against its keys' ranges and its rules
 * across them (the harness's own, harness/seam/rules.c), the perf
 * events against what a plan carries (the kernel's perf core checks
 * their configs as it checks perf_event_open()'s).
 */
#include <linux/cpumask.h>
#include <linux/limits.h>
#include <linux/perf_event.h>
#include <linux/string.h>

#include "kmod.h"

#define FAIL(...) ({ snprintf(msg, len, __VA_ARGS__); -EINVAL; })

/* a name field: NUL-terminated within its bytes */
static bool name_ok(const char *s)
{
	return strnlen(s, PCB_PLAN_NAME) < PCB_PLAN_NAME && s[0];
}

static int choices(const char *const *c)
{
	int n = 0;

	while (c[n])
		n++;
	return n;
}

/*
 * each of the model's settings within its key's range, then the model's
 * rules across them, those the harness applied (pcb_model_config's
 * rules(), the same code)
 */
static int config_check(const struct pcb_model_run *m, const struct pcb_design *d,
			const struct pcb_plan *p, char *msg, size_t len)
{
	struct pcb_refusal r;

	if (p->config_size != m->config_size)
		return FAIL("%s's settings are %zu bytes, the plan's %u", m->name, m->config_size,
			    p->config_size);
	for (int k = 0; k < m->nr_keys; k++) {
		const struct pcb_key *key = &m->keys[k];
		long v;

		if (!key->size)
			continue;
		if (key->offset + key->size > m->config_size ||
		    (key->size != sizeof(int) && key->size != sizeof(long)))
			return FAIL("%s.%s: no field the module can read", key->section, key->name);
		v = pcb_key_value(key, p->config);
		if (key->type == PCB_KEY_INT && (v < key->min || v > key->max))
			return FAIL("%s.%s = %ld: outside %ld..%ld", key->section, key->name, v,
				    key->min, key->max);
		if (key->type == PCB_KEY_CHOICE && (v < 0 || v >= choices(key->choices)))
			return FAIL("%s.%s = %ld: no such choice", key->section, key->name, v);
		if (key->type != PCB_KEY_INT && key->type != PCB_KEY_CHOICE)
			return FAIL("%s.%s: a setting the module cannot check", key->section,
				    key->name);
	}
	if (!m->rules || !m->rules(p->config, (int)p->timing, d, &r))
		return 0;
	if (r.key == PCB_RULE_TIMING)
		return FAIL("run.timing: %s", r.msg);
	return FAIL("%s.%s: %s", m->keys[r.key].section, m->keys[r.key].name, r.msg);
}

/*
 * the variant the settings build, as the harness picks it (the model's
 * variant_index()): a plan naming another would run code built for other
 * settings
 */
static int variant_check(const struct pcb_model_run *m, const struct pcb_design *d,
			 const struct pcb_plan *p, char *msg, size_t len)
{
	struct pcb_model_ops ops = pcb_model_ops_defaults(m->ops);
	int v = ops.variant_index(p->config, d);

	if (v != (int)p->variant_index)
		return FAIL("%s: the settings build variant %d, the plan names %u (%s)", d->name, v,
			    p->variant_index, p->variant);
	return 0;
}

/* a CPU the plan names: online, and within the plan's bound */
static bool cpu_ok(uint32_t cpu)
{
	return cpu < PCB_PLAN_MAX_CPUS && cpu < nr_cpu_ids && cpu_online(cpu);
}

/* the workers' and the idle CPUs': each online, none twice, none the other's */
static int cpus_check(const struct pcb_plan *p, char *msg, size_t len)
{
	DECLARE_BITMAP(seen, PCB_PLAN_MAX_CPUS);

	/* a drain walks the workers, the drainer and the idle CPUs: PCB_WALK_ARRAY() holds them */
	BUILD_BUG_ON(PCB_PLAN_MAX_WORKERS + 1 + PCB_PLAN_MAX_CPUS > PCB_KMOD_MAX_WALK);
	bitmap_zero(seen, PCB_PLAN_MAX_CPUS);
	if (!p->nr_workers || p->nr_workers > PCB_PLAN_MAX_WORKERS)
		return FAIL("%u workers: 1 to %d", p->nr_workers, PCB_PLAN_MAX_WORKERS);
	for (uint32_t i = 0; i < p->nr_workers; i++) {
		if (!cpu_ok(p->worker_cpu[i]) || test_and_set_bit(p->worker_cpu[i], seen))
			return FAIL("worker CPU %u: not an online CPU, or named twice",
				    p->worker_cpu[i]);
	}
	if (p->coord_cpu < 0)
		return p->nr_idle ? FAIL("idle CPUs without drains") : 0;
	if (!cpu_ok((uint32_t)p->coord_cpu))
		return FAIL("coordinator CPU %d: not an online CPU", p->coord_cpu);
	if (p->nr_idle > PCB_PLAN_MAX_CPUS || p->nr_charged > p->nr_idle || p->coord_charged > 1)
		return FAIL("%u idle CPUs, %u charged, the coordinator's %u", p->nr_idle,
			    p->nr_charged, p->coord_charged);
	for (uint32_t i = 0; i < p->nr_idle; i++) {
		if (!cpu_ok(p->idle_cpu[i]) || test_and_set_bit(p->idle_cpu[i], seen) ||
		    p->idle_cpu[i] == (uint32_t)p->coord_cpu)
			return FAIL("idle CPU %u: not an online CPU without a worker or the "
				    "coordinator", p->idle_cpu[i]);
	}
	if (!p->drain_period_ns && !p->drain_count)
		return FAIL("drains with neither a period nor a count");
	/* the coordinator spreads them over the run: count + 1 gaps (coord_run()) */
	if (p->drain_count > PCB_PLAN_MAX_DRAINS)
		return FAIL("%llu drains a run: at most %llu", p->drain_count, PCB_PLAN_MAX_DRAINS);
	if (!p->drain_burst || p->drain_burst > 1024)
		return FAIL("drain burst %u: 1 to 1024", p->drain_burst);
	if (p->drain_poisson > 1 || (p->drain_poisson && p->drain_count))
		return FAIL("drain_poisson %u: 0, or 1 with a period", p->drain_poisson);
	return 0;
}

/* the perf events: within the plan's bound, each with only the attr's bits a plan carries */
static int events_check(const struct pcb_plan *p, char *msg, size_t len)
{
	if (p->nr_events > PCB_PLAN_MAX_EVENTS)
		return FAIL("%u perf events: at most %d", p->nr_events, PCB_PLAN_MAX_EVENTS);
	for (uint32_t i = 0; i < p->nr_events; i++) {
		const struct pcb_plan_event *e = &p->event[i];

		if ((e->flags & ~PCB_PLAN_EV_FLAGS) || e->precise_ip > PCB_PLAN_EV_MAX_PRECISE ||
		    e->pad || e->type == PERF_TYPE_BREAKPOINT || e->type > INT_MAX)
			return FAIL("perf event %u: type %u, flags %#x, precise %u: not one the "
				    "module counts", i, e->type, e->flags, e->precise_ip);
	}
	return 0;
}

static int times_check(const struct pcb_plan *p, char *msg, size_t len)
{
	if (p->timing != PCB_TIMING_CALL && p->timing != PCB_TIMING_BATCH)
		return FAIL("timing %u", p->timing);
	if ((!p->ops && !p->duration_ns) || p->duration_ns > PCB_PLAN_MAX_NS ||
	    p->warmup_ns > PCB_PLAN_MAX_NS || p->ops > (1ULL << 40))
		return FAIL("a run of %llu ns (%llu ops), warm-up %llu ns: 1 ns to %llu s, or ops",
			    p->duration_ns, p->ops, p->warmup_ns, PCB_PLAN_MAX_NS / 1000000000ULL);
	if (!p->overhead_samples || p->overhead_samples > PCB_PLAN_OVH_MAX_SAMPLES)
		return FAIL("%u empty regions: 1 to %d", p->overhead_samples,
			    PCB_PLAN_OVH_MAX_SAMPLES);
	if (p->gap_threshold_ns > PCB_PLAN_MAX_NS || p->gap_floor_ns > PCB_PLAN_MAX_NS ||
	    p->gap_periods > 1000000)
		return FAIL("interruption threshold");
	return 0;
}

int pcb_kmod_plan_check(const struct pcb_plan *p, char *msg, size_t len)
{
	const struct pcb_model_run *m;
	const struct pcb_design *d;
	int rc;

	if (p->version != PCB_PLAN_VERSION || p->size != sizeof(*p))
		return FAIL("a plan of version %u and %u bytes: this module reads version %d, "
			    "%zu bytes", p->version, p->size, PCB_PLAN_VERSION, sizeof(*p));
	if (!name_ok(p->model) || !name_ok(p->design) || !name_ok(p->variant))
		return FAIL("a model, design or variant name that is not one");
	m = pcb_kmod_model(p->model);
	if (!m)
		return FAIL("model %s: not in this module", p->model);
	d = pcb_kmod_design(p->model, p->design);
	if (!d)
		return FAIL("design %s of %s: not in this module", p->design, p->model);
	if (p->variant_index >= PCB_MAX_VARIANTS || !d->variant[p->variant_index] ||
	    strcmp(d->variant[p->variant_index]->name, p->variant))
		return FAIL("%s: variant %u is not %s in this module", p->design, p->variant_index,
			    p->variant);
	/* the timing first: the model's rules read it */
	rc = times_check(p, msg, len);
	if (!rc)
		rc = config_check(m, d, p, msg, len);
	if (!rc)
		rc = variant_check(m, d, p, msg, len);
	if (!rc)
		rc = cpus_check(p, msg, len);
	if (!rc)
		rc = events_check(p, msg, len);
	return rc;
}
