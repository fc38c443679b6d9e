/* SPDX-License-Identifier: MIT */
/*
 * The instrumented kernel's files read (harness/machine/instrument.c):
 * the counters' lines summed per CPU and function, every malformed line
 * refused with its file and line, and the build file and the kernel's
 * ELF notes read under a fixture root (PCPBENCH_SYSROOT).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/machine/instrument.h"
#include "testing.h"

#define HEADER "cpu function cycles calls contended wait_cycles wait_max\n"

static void counters_read(void)
{
	struct pcb_instr_sums s;
	char err[512];
	int f;

	CHECK(pcb_instr_parse(&s, "f", HEADER "0 consume_stock 5400 100 0 0 0\n"
			      "3 consume_stock 700 10 2 90 60\n"
			      "3 drain_all_stock 44331 1 0 0 0\n", err, sizeof(err)) == 0, "%s", err);
	CHECK(s.nr_fns == 2, "%d functions", s.nr_fns);
	f = pcb_instr_fn(&s, "consume_stock");
	CHECK(f == 0, "consume_stock at %d", f);
	CHECK(pcb_instr_get(&s, 0, f).cycles == 5400 && pcb_instr_get(&s, 0, f).calls == 100,
	      "CPU 0");
	CHECK(pcb_instr_get(&s, 3, f).contended == 2 && pcb_instr_get(&s, 3, f).wait_max == 60,
	      "CPU 3's contention");
	/* a CPU or function with no line reads as zero, as one past the file */
	CHECK(pcb_instr_get(&s, 1, f).calls == 0, "CPU 1");
	CHECK(pcb_instr_get(&s, 9999, f).calls == 0, "CPU 9999");
	CHECK(pcb_instr_fn(&s, "refill_stock") < 0, "refill_stock named");
	pcb_instr_sums_free(&s);

	/* the header alone: no function called yet */
	CHECK(pcb_instr_parse(&s, "f", HEADER, err, sizeof(err)) == 0 && s.nr_fns == 0, "%s", err);
	pcb_instr_sums_free(&s);
}

/* text refused with want in the error */
static void refused(const char *text, const char *want)
{
	struct pcb_instr_sums s;
	char err[512] = "";

	CHECK(pcb_instr_parse(&s, "/sys/kernel/debug/pcpbench/memcg_stock", text, err,
			      sizeof(err)) < 0 && strstr(err, want), "'%s': %s", want, err);
	CHECK(!s.sum && !s.nr_fns, "'%s': sums left", want);
}

static void counters_refused(void)
{
	char big[4096];

	refused("", "empty");
	refused("cpu function cycles calls\n", ":1: 'cpu function cycles calls', not the");
	refused(HEADER "0 consume_stock 1 2 3\n", ":2: not seven fields");
	refused(HEADER "0 consume_stock 1 2 0 0 0 9\n", ":2: not seven fields");
	refused(HEADER "0 consume_stock -1 2 0 0 0\n", ":2: not seven fields");
	refused(HEADER "-1 consume_stock 1 2 0 0 0\n", ":2: not seven fields");
	refused(HEADER "0 consume_stock 1x 2 0 0 0\n", ":2: not seven fields");
	refused(HEADER "9000 consume_stock 1 2 0 0 0\n", ":2: CPU 9000: past the 8192");
	refused(HEADER "0 consume_stock 1 2 0 0 0\n0 consume_stock 1 2 0 0 0\n",
		":3: CPU 0's consume_stock a second time");
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	refused(big, ":1: a line of 4095 bytes");
	{
		char many[4096] = HEADER;

		for (int i = 0; i <= PCB_INSTR_MAX_FNS; i++)
			snprintf(many + strlen(many), sizeof(many) - strlen(many),
				 "0 fn%d 1 1 0 0 0\n", i);
		refused(many, "more than 16 functions");
	}
}

/* path under root written with text (n bytes), its folders made */
static void put(const char *root, const char *path, const void *text, size_t n)
{
	char full[PATH_MAX], *slash;
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", root, path);
	for (slash = strchr(full + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = 0;
		mkdir(full, 0755);
		*slash = '/';
	}
	f = fopen(full, "w");
	CHECK(f != NULL, "%s", full);
	if (f) {
		fwrite(text, 1, n, f);
		fclose(f);
	}
}

static void build_read(void)
{
	static const unsigned char notes[] = {
		/* a note of another kind first, then GNU's build id (type 3) */
		4, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 'X', 'e', 'n', 0, 1, 2, 3, 4,
		4, 0, 0, 0, 4, 0, 0, 0, 3, 0, 0, 0, 'G', 'N', 'U', 0, 0xde, 0xad, 0xbe, 0xef,
	};
	const char *build = "variant 6.1+seed-000-1-4\nseries seed-000 1-4 sha256:ab\n"
			    "config sha256:cd\ninstrument cycles\nstock_lock spinlock_t\n"
			    "stock_size 56\nstock_align 64\nstock_offset_in_line 0\n"
			    "empty_cycles_min 30\nempty_cycles_median 32\nlater_line kept\n";
	char root[] = "/tmp/pcb-instr.XXXXXX", err[512] = "", rm[64];
	struct pcb_instr_build b;

	CHECK(mkdtemp(root) != NULL, "mkdtemp");
	setenv("PCPBENCH_SYSROOT", root, 1);
	CHECK(pcb_instr_probe(&b, err, sizeof(err)) < 0 &&
	      strstr(err, "this kernel has no instrument"), "%s", err);

	put(root, "/sys/kernel/debug/pcpbench/build", build, strlen(build));
	put(root, "/proc/sys/kernel/osrelease", "6.1.192\n", 8);
	put(root, "/sys/kernel/notes", notes, sizeof(notes));
	CHECK(pcb_instr_probe(&b, err, sizeof(err)) == 0, "%s", err);
	CHECK(!strcmp(b.variant, "6.1+seed-000-1-4") && !strcmp(b.stock_lock, "spinlock_t") &&
	      b.stock_size == 56 && b.stock_align == 64 && b.empty_median == 32,
	      "%s %s %ld %ld %ld", b.variant, b.stock_lock, b.stock_size, b.stock_align,
	      b.empty_median);
	CHECK(!strcmp(b.release, "6.1.192"), "release %s", b.release);
	CHECK(!strcmp(b.build_id, "deadbeef"), "build id %s", b.build_id);
	/* one stock: no obj_stock lines, and the lock field 6.1 names */
	CHECK(b.obj_stock_size == -1 && b.obj_stock_align == -1 && b.obj_stock_offset == -1,
	      "obj_stock %ld %ld %ld", b.obj_stock_size, b.obj_stock_align, b.obj_stock_offset);
	CHECK(!strcmp(pcb_instr_lock_field(&b), "memcg_stock.stock_lock"), "%s",
	      pcb_instr_lock_field(&b));

	/* 7.3's instrument: obj_stock apart, its lock named lock */
	build = "variant 7.3\nseries - sha256:ab\nconfig sha256:cd\ninstrument cycles\n"
		"stock_lock local_trylock_t\nstock_size 112\nstock_align 64\n"
		"stock_offset_in_line 0\nobj_stock_size 112\nobj_stock_align 64\n"
		"obj_stock_offset_in_line 0\nempty_cycles_min 26\nempty_cycles_median 26\n";
	put(root, "/sys/kernel/debug/pcpbench/build", build, strlen(build));
	CHECK(pcb_instr_probe(&b, err, sizeof(err)) == 0, "%s", err);
	CHECK(!strcmp(b.stock_lock, "local_trylock_t") && b.stock_size == 112 &&
	      b.obj_stock_size == 112 && b.obj_stock_align == 64 && b.obj_stock_offset == 0,
	      "%s %ld %ld %ld %ld", b.stock_lock, b.stock_size, b.obj_stock_size,
	      b.obj_stock_align, b.obj_stock_offset);
	CHECK(!strcmp(pcb_instr_lock_field(&b), "memcg_stock.lock"), "%s",
	      pcb_instr_lock_field(&b));
	CHECK(b.nr_prims == 0, "%d primitives without their lines", b.nr_prims);

	/* its primitives, in the order the file gives them; a bad one refused at its line */
#define PRIM_BASE "variant 7.3\ninstrument cycles\nstock_lock local_trylock_t\nstock_size 112\n" \
	"empty_cycles_median 26\nprim_repeat 32\n"
	build = PRIM_BASE "prim_call_cycles_median 30\nprim_this_cpu_add_cycles_median 27\n"
		"prim_irq_save_cycles_median 41\n";
	put(root, "/sys/kernel/debug/pcpbench/build", build, strlen(build));
	CHECK(pcb_instr_probe(&b, err, sizeof(err)) == 0, "%s", err);
	CHECK(b.prim_repeat == 32 && b.empty_median == 26, "repeat %ld, empty %ld",
	      b.prim_repeat, b.empty_median);
	CHECK(b.nr_prims == 3 && !strcmp(b.prim[0].name, "call") && b.prim[0].cycles == 30 &&
	      !strcmp(b.prim[1].name, "this_cpu_add") && b.prim[1].cycles == 27 &&
	      !strcmp(b.prim[2].name, "irq_save") && b.prim[2].cycles == 41,
	      "%d primitives: %s %ld", b.nr_prims, b.prim[0].name, b.prim[0].cycles);
	static const struct {
		const char *text, *where;
	} bad_prims[] = {
		{ PRIM_BASE "prim_call_cycles_median -3\n", "build:7: not the" },
		{ PRIM_BASE "prim_Call_cycles_median 3\n", "build:7: not the" },
		{ PRIM_BASE "prim_a_much_too_long_primitive_name_cycles_median 3\n",
		  "build:7: not the" },
		{ PRIM_BASE "prim_a_cycles_median 1\nprim_b_cycles_median 1\n"
		  "prim_c_cycles_median 1\nprim_d_cycles_median 1\nprim_e_cycles_median 1\n"
		  "prim_f_cycles_median 1\nprim_g_cycles_median 1\nprim_h_cycles_median 1\n"
		  "prim_i_cycles_median 1\n", "build:15: not the" },
	};
	/* a repeat below one, and primitives without the empty region to take off */
	build = "variant x\ninstrument cycles\nstock_lock spinlock_t\nstock_size 1\nprim_repeat 0\n";
	put(root, "/sys/kernel/debug/pcpbench/build", build, strlen(build));
	CHECK(pcb_instr_probe(&b, err, sizeof(err)) < 0 && strstr(err, "prim_repeat 0: not the"),
	      "%s", err);
	build = "variant x\ninstrument cycles\nstock_lock spinlock_t\nstock_size 1\n"
		"prim_call_cycles_median 9\n";
	put(root, "/sys/kernel/debug/pcpbench/build", build, strlen(build));
	CHECK(pcb_instr_probe(&b, err, sizeof(err)) < 0 && strstr(err, "without empty_cycles"),
	      "%s", err);
	for (size_t i = 0; i < sizeof(bad_prims) / sizeof(bad_prims[0]); i++) {
		put(root, "/sys/kernel/debug/pcpbench/build", bad_prims[i].text,
		    strlen(bad_prims[i].text));
		CHECK(pcb_instr_probe(&b, err, sizeof(err)) < 0 && strstr(err, bad_prims[i].where),
		      "bad primitives %zu: %s", i, err);
	}
	/* prim_ alone, or without its suffix: a later instrument's line, kept */
	build = PRIM_BASE "prim_ 4\nprim_call_cycles 4\n_cycles_median 2\n";
	put(root, "/sys/kernel/debug/pcpbench/build", build, strlen(build));
	CHECK(pcb_instr_probe(&b, err, sizeof(err)) == 0 && b.nr_prims == 0, "%s", err);
#undef PRIM_BASE

	put(root, "/sys/kernel/debug/pcpbench/build", "variant x\nobj_stock_size -8\n", 28);
	CHECK(pcb_instr_probe(&b, err, sizeof(err)) < 0 && strstr(err, "build:2: not the"),
	      "%s", err);

	put(root, "/sys/kernel/debug/pcpbench/build", "variant x\nstock_size many\n", 25);
	CHECK(pcb_instr_probe(&b, err, sizeof(err)) < 0 && strstr(err, "build:2: not the"),
	      "%s", err);
	put(root, "/sys/kernel/debug/pcpbench/build", "variant x\n", 10);
	CHECK(pcb_instr_probe(&b, err, sizeof(err)) < 0 && strstr(err, "no variant, instrument"),
	      "%s", err);
	unsetenv("PCPBENCH_SYSROOT");
	snprintf(rm, sizeof(rm), "rm -rf %s", root);
	CHECK(system(rm) == 0, "%s", rm);
}

int main(void)
{
	counters_read();
	counters_refused();
	build_read();
	return check_summary();
}
