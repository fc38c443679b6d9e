// SPDX-License-Identifier: MIT
/*
 * The plans the models' rules refuse, generated from the rules
 * themselves (struct pcb_model_config's rules()), for the kernel
 * backend's module to refuse in turn (kmod/plan.c).
 *
 * For each model, its first design the kernel backend runs, and each
 * timing: the defaults as the kernel backend hands them over (kernel()),
 * then every key at each of its probe values (its bounds, its default and
 * beside it, a few values rules name) and every pair of keys at theirs.
 * Each configuration the rules refuse is one plan.
 *
 *   plan_rules list      each refused plan, a line: the model, design,
 *                        timing and settings, then the harness's sentence
 *   plan_rules feed      each to /dev/pcpbench (pcpbench.ko loaded): the
 *                        module must answer -EINVAL with the same sentence;
 *                        then, each model's, plans whose own fields are past
 *                        the harness's bounds (fields()), which it must
 *                        refuse; exit 1 where one runs or says another
 *   plan_rules fields    those alone
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "pcb/plan.h"
#include "pcb/registry.h"

#define MAX_PROBES 12

struct gen {
	const struct pcb_model *m;
	const struct pcb_design *d;
	int timing;
	int fd;				/* feed: the module's device, else -1 */
	long refused, answered, wrong;	/* the rules' plans */
	long fanswered, fwrong;		/* the plan's own fields' */
	char defaults[PCB_PLAN_CONFIG_MAX];
};

static void put(const struct pcb_key *k, void *config, long v)
{
	int i = (int)v;

	if (k->size == sizeof(int))
		memcpy((char *)config + k->offset, &i, sizeof(i));
	else
		memcpy((char *)config + k->offset, &v, sizeof(v));
}

/* a key's probe values into v[]: their number; 0 for a key no plan field holds */
static int probes(const struct pcb_key *k, long *v)
{
	const long near[] = { 0, 1, 2, 7, 8, 64, 65, 512 };
	int n = 0;
	long def;

	if (!k->size || (k->size != sizeof(int) && k->size != sizeof(long)))
		return 0;
	if (k->type == PCB_KEY_CHOICE) {
		while (k->choices[n] && n < MAX_PROBES) {
			v[n] = n;
			n++;
		}
		return n;
	}
	if (k->type != PCB_KEY_INT)
		return 0;
	def = strtol(k->def, NULL, 10);
	const long cand[] = { k->min, k->max, def, def - 1, def + 1 };

	for (size_t i = 0; i < sizeof(cand) / sizeof(cand[0]) + sizeof(near) / sizeof(near[0]); i++) {
		long c = i < 5 ? cand[i] : near[i - 5];
		bool seen = false;

		for (int j = 0; j < n; j++)
			seen |= v[j] == c;
		if (!seen && c >= k->min && c <= k->max && n < MAX_PROBES)
			v[n++] = c;
	}
	return n;
}

static void setting(char *buf, size_t len, const struct pcb_key *k, long v)
{
	size_t at = strlen(buf);

	if (k->type == PCB_KEY_CHOICE)
		snprintf(buf + at, len - at, " %s.%s=%s", k->section, k->name, k->choices[v]);
	else
		snprintf(buf + at, len - at, " %s.%s=%ld", k->section, k->name, v);
}

/* the plan of config at g's model, design and timing: one worker on CPU 0, 64 operations */
static void plan_of(const struct gen *g, const void *config, struct pcb_plan *p)
{
	struct pcb_model_ops ops = pcb_model_ops(g->m);
	int v = ops.variant_index(config, g->d);

	memset(p, 0, sizeof(*p));
	p->version = PCB_PLAN_VERSION;
	p->size = sizeof(*p);
	snprintf(p->model, sizeof(p->model), "%s", g->m->name);
	snprintf(p->design, sizeof(p->design), "%s", g->d->name);
	/* a configuration no variant builds (stock.slots 2) names the first: the rules refuse it */
	p->variant_index = v >= 0 && v < PCB_MAX_VARIANTS && g->d->variant[v] ? (uint32_t)v : 0;
	snprintf(p->variant, sizeof(p->variant), "%s", g->d->variant[p->variant_index]->name);
	p->config_size = (uint32_t)g->m->config.size;
	memcpy(p->config, config, g->m->config.size);
	p->timing = (uint32_t)g->timing;
	p->ops = 64;
	p->overhead_samples = 1;
	p->nr_workers = 1;
	p->coord_cpu = -1;
}

/*
 * the module's answer to plan p: -EINVAL with the sentence want (or any
 * sentence, where want is NULL): 1; else said, and 0
 */
static int ask(const struct gen *g, const struct pcb_plan *p, const char *want, const char *what)
{
	uint64_t size = pcb_plan_result_size(1);
	struct pcb_plan_result *r = calloc(1, size);
	struct pcb_plan_run req = { (uintptr_t)p, (uintptr_t)r, size };
	int rc, ok = 1;

	rc = r ? ioctl(g->fd, PCB_PLAN_IOC_RUN, &req) : -1;
	if (rc < 0 || r->status != -EINVAL || !r->msg[0] ||
	    (want && strncmp(r->msg, want, sizeof(r->msg)))) {
		ok = 0;
		printf("not refused as the harness refuses:%s: ioctl %d (%s), status %d, "
		       "\"%.*s\"; want \"%s\"\n", what, rc, rc < 0 ? strerror(errno) : "ok",
		       r ? r->status : 0, r ? (int)sizeof(r->msg) : 0, r ? r->msg : "",
		       want ? want : "a refusal");
	}
	free(r);
	return ok;
}

/* the module's answer to the plan of config: its sentence the refusal's, or said */
static void feed(struct gen *g, const void *config, const char *want, const char *what)
{
	static struct pcb_plan p;

	plan_of(g, config, &p);
	g->answered++;
	if (!ask(g, &p, want, what))
		g->wrong++;
}

/*
 * The plan's own fields past the bounds the harness keeps (scenario/keys.c,
 * run/kernel.c), each beside the model's default settings: the module
 * refuses them before anything runs. A drain count of 2^64 - 1 made the
 * coordinator divide by zero (count + 1 wraps).
 */
static void fields(struct gen *g)
{
	static const char *const what[] = {
		" drain_count=2^64-1", " drain_count=2^32", " drain_burst=0",
		" drain_count=0 and no period", " nr_workers=0", " worker_cpu=4096",
		" timing=7", " ops=0 duration_ns=0", " overhead_samples=0", " nr_events=99",
		" variant_index=4096", " drain_poisson=2", " drain_poisson=1 with drain_count",
	};
	static struct pcb_plan p;

	for (size_t i = 0; i < sizeof(what) / sizeof(what[0]); i++) {
		plan_of(g, g->defaults, &p);
		p.drain_burst = 1;
		switch (i) {
		case 0: p.coord_cpu = 0; p.drain_count = UINT64_MAX; break;
		case 1: p.coord_cpu = 0; p.drain_count = 1ULL << 32; break;
		case 2: p.coord_cpu = 0; p.drain_count = 1; p.drain_burst = 0; break;
		case 3: p.coord_cpu = 0; break;
		case 4: p.nr_workers = 0; break;
		case 5: p.worker_cpu[0] = 4096; break;
		case 6: p.timing = 7; break;
		case 7: p.ops = 0; break;
		case 8: p.overhead_samples = 0; break;
		case 9: p.nr_events = 99; break;
		case 10: p.variant_index = 4096; break;
		case 11: p.coord_cpu = 0; p.drain_period_ns = 1000000; p.drain_poisson = 2; break;
		case 12: p.coord_cpu = 0; p.drain_count = 1; p.drain_poisson = 1; break;
		}
		g->fanswered++;
		if (!ask(g, &p, NULL, what[i]))
			g->fwrong++;
	}
}

/* config under the rules: a refused one listed, or fed to the module */
static void try(struct gen *g, const void *config, const char *what)
{
	const struct pcb_key *keys = g->m->config.keys;
	struct pcb_refusal r;
	char want[512];

	if (!g->m->config.rules(config, g->timing, g->d, &r))
		return;
	g->refused++;
	if (r.key == PCB_RULE_TIMING)
		snprintf(want, sizeof(want), "run.timing: %s", r.msg);
	else
		snprintf(want, sizeof(want), "%s.%s: %s", keys[r.key].section, keys[r.key].name,
			 r.msg);
	if (g->fd < 0)
		printf("%s %s %s:%s: %s\n", g->m->name, g->d->name,
		       g->timing == PCB_TIMING_CALL ? "call" : "batch", what, want);
	else
		feed(g, config, want, what);
}

/* every key at each probe value, and every pair of keys at theirs */
static void sweep(struct gen *g)
{
	const struct pcb_model_config *mc = &g->m->config;
	long v1[MAX_PROBES], v2[MAX_PROBES];
	char config[PCB_PLAN_CONFIG_MAX], what[256];

	for (int a = 0; a < mc->nr_keys; a++) {
		int na = probes(&mc->keys[a], v1);

		for (int i = 0; i < na; i++) {
			memcpy(config, g->defaults, mc->size);
			put(&mc->keys[a], config, v1[i]);
			what[0] = 0;
			setting(what, sizeof(what), &mc->keys[a], v1[i]);
			try(g, config, what);
			for (int b = a + 1; b < mc->nr_keys; b++) {
				int nb = probes(&mc->keys[b], v2);

				for (int j = 0; j < nb; j++) {
					char both[256];

					memcpy(config, g->defaults, mc->size);
					put(&mc->keys[a], config, v1[i]);
					put(&mc->keys[b], config, v2[j]);
					snprintf(both, sizeof(both), "%s", what);
					setting(both, sizeof(both), &mc->keys[b], v2[j]);
					try(g, config, both);
				}
			}
		}
	}
}

/* the defaults as the kernel backend hands them over, at g's timing; -1 where they fail */
static int defaults(struct gen *g)
{
	const struct pcb_model_config *mc = &g->m->config;
	char note[512] = "", err[512];

	memset(g->defaults, 0, sizeof(g->defaults));
	for (int k = 0; k < mc->nr_keys; k++) {
		long v[MAX_PROBES];

		if (probes(&mc->keys[k], v) == 0)
			continue;
		if (mc->keys[k].type == PCB_KEY_CHOICE) {
			for (int c = 0; mc->keys[k].choices[c]; c++)
				if (!strcmp(mc->keys[k].choices[c], mc->keys[k].def))
					put(&mc->keys[k], g->defaults, c);
		} else {
			put(&mc->keys[k], g->defaults, strtol(mc->keys[k].def, NULL, 10));
		}
	}
	/* the three models' finish() reads no scenario: the timing into the settings */
	if (mc->finish && mc->finish(g->defaults, g->timing, NULL, err, sizeof(err)) < 0)
		return -1;
	if (mc->kernel)
		mc->kernel(g->defaults, note, sizeof(note));
	return 0;
}

int main(int argc, char **argv)
{
	struct gen g = { .fd = -1 };
	long total = 0;
	int rules;

	if (argc != 2 || (strcmp(argv[1], "list") && strcmp(argv[1], "feed") &&
			  strcmp(argv[1], "fields"))) {
		fprintf(stderr, "usage: plan_rules list | feed | fields\n");
		return 2;
	}
	rules = strcmp(argv[1], "fields") != 0;
	if (strcmp(argv[1], "list")) {
		g.fd = open(PCB_PLAN_DEVICE, O_RDWR | O_CLOEXEC);
		if (g.fd < 0) {
			fprintf(stderr, "plan_rules: %s: %s\n", PCB_PLAN_DEVICE, strerror(errno));
			return 2;
		}
	}
	for (int i = 0; pcb_models[i]; i++) {
		g.m = pcb_models[i];
		g.d = NULL;
		for (int j = 0; g.m->designs[j] && !g.d; j++)
			if (!g.m->designs[j]->kernel_refused)
				g.d = g.m->designs[j];
		if (!g.m->config.rules || !g.d)
			continue;
		for (g.timing = PCB_TIMING_CALL; g.timing <= PCB_TIMING_BATCH; g.timing++) {
			long before = g.refused;

			if (defaults(&g) < 0) {
				fprintf(stderr, "plan_rules: %s's defaults fail\n", g.m->name);
				return 1;
			}
			if (!rules)
				continue;
			sweep(&g);
			fprintf(stderr, "plan_rules: %s %s, %s timing: %ld refused\n", g.m->name,
				g.d->name, g.timing == PCB_TIMING_CALL ? "call" : "batch",
				g.refused - before);
		}
		/* the plan's own fields, at the batch timing's defaults */
		g.timing = PCB_TIMING_BATCH;
		if (g.fd >= 0)
			fields(&g);
	}
	total = g.refused;
	if (g.fd >= 0) {
		close(g.fd);
		printf("plan_rules: the module refused %ld of the %ld plans the rules refuse, "
		       "each with the harness's sentence, and %ld of the %ld plans past the "
		       "plan's own bounds\n", g.answered - g.wrong, total, g.fanswered - g.fwrong,
		       g.fanswered);
		return g.wrong || g.fwrong || g.answered != total || !g.fanswered ||
		       (rules && !total) ? 1 : 0;
	}
	return 0;
}
