/* SPDX-License-Identifier: MIT */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config.h"
#include "kmod.h"
#include "pcb/plan.h"
#include "state_read.h"

#define FAIL(...) ({ snprintf(err, errlen, __VA_ARGS__); -1; })

/* path under PCPBENCH_SYSROOT (the tests' fixture trees), else as it is */
static void sysroot(char *buf, size_t len, const char *path)
{
	const char *root = getenv("PCPBENCH_SYSROOT");

	snprintf(buf, len, "%s%s", root && *root ? root : "", path);
}

/*
 * the first line of a file under the root, trimmed; 0 or -1 (a FIFO or a
 * directory in a fixture tree refused, as the state's reads refuse them)
 */
static int read_line(const char *path, char *buf, size_t len)
{
	char full[PATH_MAX];
	FILE *f;

	sysroot(full, sizeof(full), path);
	f = pcb_state_fopen(full);
	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f))
		buf[0] = 0;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

int pcb_kmod_supported(const char *release, char *why, size_t len)
{
	int major, minor;

	if (sscanf(release, "%d.%d", &major, &minor) != 2) {
		snprintf(why, len, "kernel %s: not a release the kernel backend can read", release);
		return -1;
	}
	if (major > PCB_KMOD_OLDEST_MAJOR ||
	    (major == PCB_KMOD_OLDEST_MAJOR && minor >= PCB_KMOD_OLDEST_MINOR))
		return 0;
	snprintf(why, len, "kernel %s: the kernel backend's module is written for Linux %d.%d "
		 "and later (its build refuses an older tree), not %d.%d", release,
		 PCB_KMOD_OLDEST_MAJOR, PCB_KMOD_OLDEST_MINOR, major, minor);
	return -1;
}

/* whether the kernel would take a module here: root, its version */
static int may_load(struct pcb_kmod *k, char *err, size_t errlen)
{
	char why[256];
	struct utsname u;

	if (geteuid() != 0)
		return FAIL("the kernel backend loads a module: run pcpbench as root (uid %u)",
			    (unsigned int)geteuid());
	if (read_line("/proc/sys/kernel/osrelease", k->release, sizeof(k->release)) < 0) {
		uname(&u);
		snprintf(k->release, sizeof(k->release), "%s", u.release);
	}
	if (pcb_kmod_supported(k->release, why, sizeof(why)) < 0)
		return FAIL("%s", why);
	return 0;
}

/*
 * MODULE_SIG_STRING, which scripts/sign-file appends after the signature
 * (include/linux/module_signature.h): the kernel checks what precedes it
 */
#define MODULE_SIG_STRING "~Module signature appended~\n"

static bool module_signed(const unsigned char *image, size_t size)
{
	const size_t n = sizeof(MODULE_SIG_STRING) - 1;

	return size > n && !memcmp(image + size - n, MODULE_SIG_STRING, n);
}

/* the steps that sign a module for a kernel that checks signatures (docs/kernel.md) */
#define SIGN_STEPS "sign it with a machine owner key the kernel trusts (mokutil --import, " \
		   "then scripts/sign-file sha256 of the kernel's headers): docs/kernel.md, " \
		   "\"Secure Boot and lockdown\""

/*
 * A kernel in lockdown, or enforcing signatures, loads only modules signed
 * with a key it trusts: an unsigned k->image is refused here, with the
 * steps; a signed one is the kernel's to judge (init_module()'s EKEYREJECTED)
 */
static int may_load_image(const struct pcb_kmod *k, char *err, size_t errlen)
{
	char buf[256];

	if (module_signed(k->image, k->image_size))
		return 0;
	if (read_line("/sys/kernel/security/lockdown", buf, sizeof(buf)) == 0 &&
	    (strstr(buf, "[integrity]") || strstr(buf, "[confidentiality]")))
		return FAIL("the kernel is locked down (%s, /sys/kernel/security/lockdown): it "
			    "loads no unsigned module, and %s is unsigned: %s", buf, k->path,
			    SIGN_STEPS);
	if (read_line("/sys/module/module/parameters/sig_enforce", buf, sizeof(buf)) == 0 &&
	    buf[0] == 'Y')
		return FAIL("the kernel enforces module signatures "
			    "(/sys/module/module/parameters/sig_enforce is Y) and %s is "
			    "unsigned: %s, or boot without module.sig_enforce", k->path, SIGN_STEPS);
	return 0;
}

/* the ELF section named name of the file mapped at p (size n), or NULL */
static const Elf64_Shdr *section(const unsigned char *p, size_t n, const char *name)
{
	const Elf64_Ehdr *eh = (const void *)p;
	const Elf64_Shdr *sh, *strs;

	if (n < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shoff > n ||
	    eh->e_shstrndx >= eh->e_shnum || (size_t)eh->e_shnum * sizeof(*sh) > n - eh->e_shoff)
		return NULL;
	sh = (const void *)(p + eh->e_shoff);
	strs = &sh[eh->e_shstrndx];
	if (strs->sh_offset > n || strs->sh_size > n - strs->sh_offset)
		return NULL;
	for (int i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_name >= strs->sh_size || sh[i].sh_offset > n ||
		    sh[i].sh_size > n - sh[i].sh_offset)
			continue;
		if (!strncmp((const char *)p + strs->sh_offset + sh[i].sh_name, name,
			     strs->sh_size - sh[i].sh_name))
			return &sh[i];
	}
	return NULL;
}

/* path mapped read-only, its size in *n; NULL if it cannot be */
static unsigned char *map_file(const char *path, size_t *n)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	void *p;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || st.st_size <= 0) {
		close(fd);
		return NULL;
	}
	*n = (size_t)st.st_size;
	p = mmap(NULL, *n, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	return p == MAP_FAILED ? NULL : p;
}

/* the GNU build id of the ELF image p (size n), hex, into id[41]; 0 or -1 */
static int build_id_of(const unsigned char *p, size_t n, char *id)
{
	size_t off;
	const Elf64_Shdr *sh = p ? section(p, n, ".note.gnu.build-id") : NULL;
	int rc = -1;

	id[0] = 0;
	if (sh && sh->sh_size >= sizeof(Elf64_Nhdr)) {
		const Elf64_Nhdr *nh = (const void *)(p + sh->sh_offset);

		off = sizeof(*nh) + ((nh->n_namesz + 3) & ~3u);
		if (nh->n_type == NT_GNU_BUILD_ID && off + nh->n_descsz <= sh->sh_size &&
		    nh->n_descsz <= 20) {
			for (unsigned int i = 0; i < nh->n_descsz; i++)
				sprintf(id + 2 * i, "%02x", p[sh->sh_offset + off + i]);
			rc = 0;
		}
	}
	return rc;
}

int pcb_kmod_build_id(const char *path, char *id)
{
	size_t n = 0;
	unsigned char *p = map_file(path, &n);
	int rc = build_id_of(p, n, id);

	if (p)
		munmap(p, n);
	return rc;
}

/* the modinfo value of key in the module image p (size n) into val; 0 or -1 */
static int modinfo_of(const unsigned char *p, size_t n, const char *key, char *val, size_t len)
{
	size_t k = strlen(key);
	const Elf64_Shdr *sh = p ? section(p, n, ".modinfo") : NULL;
	int rc = -1;

	for (size_t i = 0; sh && i < sh->sh_size; ) {
		const char *s = (const char *)p + sh->sh_offset + i;
		size_t l = strnlen(s, sh->sh_size - i);

		if (!strncmp(s, key, k) && s[k] == '=' && l < sh->sh_size - i) {
			snprintf(val, len, "%s", s + k + 1);
			rc = 0;
			break;
		}
		i += l + 1;
	}
	return rc;
}

int pcb_kmod_modinfo(const char *path, const char *key, char *val, size_t len)
{
	size_t n = 0;
	unsigned char *p = map_file(path, &n);
	int rc = modinfo_of(p, n, key, val, len);

	if (p)
		munmap(p, n);
	return rc;
}

/* the kernel a module image was built for (its vermagic's first word) into rel; 0 or -1 */
static int vermagic_of(const unsigned char *p, size_t n, char *rel, size_t len)
{
	if (modinfo_of(p, n, "vermagic", rel, len) < 0)
		return -1;
	rel[strcspn(rel, " ")] = 0;
	return 0;
}

int pcb_kmod_vermagic(const char *path, char *rel, size_t len)
{
	size_t n = 0;
	unsigned char *p = map_file(path, &n);
	int rc = vermagic_of(p, n, rel, len);

	if (p)
		munmap(p, n);
	return rc;
}

/*
 * path's whole content read into k->image (what is checked is what is
 * loaded: a file changed after the check changes nothing); 0, or -1 with
 * errno
 */
#define PCB_KMOD_MAX_IMAGE ((size_t)1 << 30)
static int read_image(struct pcb_kmod *k, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), e = 0;
	struct stat st;
	size_t got = 0;

	free(k->image);
	k->image = NULL;
	k->image_size = 0;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0)
		e = errno;
	else if (!S_ISREG(st.st_mode))
		e = EINVAL;
	else if (st.st_size <= 0 || (size_t)st.st_size > PCB_KMOD_MAX_IMAGE)
		e = st.st_size <= 0 ? ENOEXEC : EFBIG;
	else if (!(k->image = malloc((size_t)st.st_size)))
		e = ENOMEM;
	while (!e && got < (size_t)st.st_size) {
		ssize_t r = read(fd, k->image + got, (size_t)st.st_size - got);

		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	k->image_size = got;
	errno = e;
	return e ? -1 : 0;
}

/*
 * path is pcpbench.ko, one that speaks this program's plans, built for
 * this kernel: 1; not: 0 with why. Its modinfo says so (name, and the
 * pcpbench_plan version kmod/main.c declares): any other module, however
 * it fits the kernel, is not loaded.
 */
static int fits(struct pcb_kmod *k, const char *path, char *why, size_t len)
{
	char rel[128], name[64], plan[16];
	const unsigned char *p;
	size_t n;

	if (read_image(k, path) < 0) {
		snprintf(why, len, "%s: %s", path, strerror(errno));
		return 0;
	}
	p = k->image;
	n = k->image_size;
	if (vermagic_of(p, n, rel, sizeof(rel)) < 0) {
		snprintf(why, len, "%s: not a kernel module (no vermagic)", path);
		return 0;
	}
	if (modinfo_of(p, n, "name", name, sizeof(name)) < 0 || strcmp(name, "pcpbench")) {
		snprintf(why, len, "%s is the module '%s', not pcpbench", path,
			 modinfo_of(p, n, "name", name, sizeof(name)) < 0 ? "?" : name);
		return 0;
	}
	if (modinfo_of(p, n, "pcpbench_plan", plan, sizeof(plan)) < 0 ||
	    atoi(plan) != PCB_PLAN_VERSION) {
		snprintf(why, len, "%s speaks plan version %s, this pcpbench %d: build the module "
			 "from this source (make -C kmod)", path,
			 modinfo_of(p, n, "pcpbench_plan", plan, sizeof(plan)) < 0 ? "none" : plan,
			 PCB_PLAN_VERSION);
		return 0;
	}
	if (strcmp(rel, k->release)) {
		snprintf(why, len, "%s was built for kernel %s, this one is %s", path, rel,
			 k->release);
		return 0;
	}
	return 1;
}

/* the folder of this program, into dir */
static void program_dir(char *dir, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", dir, len - 1);
	char *slash;

	dir[n > 0 ? n : 0] = 0;
	slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
}

/*
 * make -C SOURCE/kmod OUT=out KDIR=kdir PCB_MK=BUILD/kmod.mk (this build's
 * models), its output in out.log; 0 or -1 with err
 */
static int build(const char *out, const char *kdir, char *err, size_t errlen)
{
	char src[PATH_MAX], outarg[PATH_MAX + 8], kdirarg[PATH_MAX + 8], log[PATH_MAX + 8];
	char mkarg[PATH_MAX + 16];
	pid_t pid;
	int status, fd;

	snprintf(src, sizeof(src), "%s/kmod", PCB_SOURCE_DIR);
	snprintf(outarg, sizeof(outarg), "OUT=%s", out);
	snprintf(kdirarg, sizeof(kdirarg), "KDIR=%s", kdir);
	snprintf(mkarg, sizeof(mkarg), "PCB_MK=%s/kmod.mk", PCB_BUILD_DIR);
	snprintf(log, sizeof(log), "%s.log", out);
	if (access(src, R_OK) < 0)
		return FAIL("no module beside the program, and no source to build one (%s: %s)", src,
			    strerror(errno));
	fprintf(stderr, "pcpbench: building pcpbench.ko for %s into %s\n", kdir, out);
	pid = fork();
	if (pid == 0) {
		fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execlp("make", "make", "-C", src, outarg, kdirarg, mkarg, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return FAIL("the module did not build against %s (see %s)", kdir, log);
	return 0;
}

/*
 * run.module = auto: the one beside the program (BUILD/kmod, meson's kmod
 * target), else /lib/modules/RELEASE/extra, else one built with this
 * kernel's headers; 0 with k->path, or -1 with err
 */
static int find(struct pcb_kmod *k, char *err, size_t errlen)
{
	char dir[PATH_MAX], kdir[PATH_MAX], out[PATH_MAX], why[2][PATH_MAX + 128];
	char full[PATH_MAX];

	program_dir(dir, sizeof(dir));
	snprintf(k->path, sizeof(k->path), "%s/kmod/pcpbench.ko", dir);
	k->how = "found beside the program";
	if (fits(k, k->path, why[0], sizeof(why[0])))
		return 0;
	snprintf(k->path, sizeof(k->path), "/lib/modules/%s/extra/pcpbench.ko", k->release);
	k->how = "found in /lib/modules";
	if (fits(k, k->path, why[1], sizeof(why[1])))
		return 0;
	snprintf(kdir, sizeof(kdir), "/lib/modules/%s/build", k->release);
	sysroot(full, sizeof(full), kdir);
	if (access(full, R_OK) < 0)
		return FAIL("no headers for this kernel: %s is missing (Debian: install "
			    "linux-headers-%s), and no module built for it (%s; %s): build one "
			    "elsewhere and name it with run.module", kdir, k->release, why[0],
			    why[1]);
	snprintf(out, sizeof(out), "%s/kmod", dir);
	if (access(dir, W_OK) < 0)
		snprintf(out, sizeof(out), "%s/.cache/pcpbench/kmod/%s",
			 getenv("HOME") ? getenv("HOME") : "/tmp", k->release);
	if (build(out, kdir, err, errlen) < 0)
		return -1;
	snprintf(k->path, sizeof(k->path), "%s/pcpbench.ko", out);
	k->how = "built with this kernel's headers";
	return fits(k, k->path, why[0], sizeof(why[0])) ? 0 : FAIL("%s", why[0]);
}

/* a pcpbench.ko loaded already (by a run that died): unloaded first, or refused */
static int unload_stale(char *err, size_t errlen)
{
	char full[PATH_MAX];

	sysroot(full, sizeof(full), "/sys/module/pcpbench");
	if (access(full, F_OK) < 0)
		return 0;
	if (syscall(SYS_delete_module, "pcpbench", O_NONBLOCK) == 0)
		return 0;
	return FAIL("a pcpbench module is loaded already and cannot be unloaded (%s): another "
		    "pcpbench uses it", strerror(errno));
}

/* the names of the modules loaded, each between line breaks ("\na\nb\n"), into buf; 0 or -1 */
static int module_names(char *buf, size_t len)
{
	char full[PATH_MAX], line[512];
	size_t at = 1;
	FILE *f;

	sysroot(full, sizeof(full), "/proc/modules");
	f = fopen(full, "re");
	if (!f)
		return -1;
	snprintf(buf, len, "\n");
	while (fgets(line, sizeof(line), f) && at < len) {
		line[strcspn(line, " \n")] = 0;
		at += (size_t)snprintf(buf + at, len - at, "%s\n", line);
	}
	fclose(f);
	return 0;
}

/*
 * the name of a module loaded since before (module_names()) into name;
 * "pcpbench" where /proc/modules names none new (a run beside this one
 * unloaded and loaded it again)
 */
static void loaded_name(const char *before, char *name, size_t len)
{
	static char after[1 << 16];
	char want[520];

	snprintf(name, len, "pcpbench");
	if (module_names(after, sizeof(after)) < 0)
		return;
	for (char *l = strtok(after, "\n"); l; l = strtok(NULL, "\n")) {
		snprintf(want, sizeof(want), "\n%s\n", l);
		if (!strstr(before, want)) {
			snprintf(name, len, "%s", l);
			return;
		}
	}
}

/* k's module chosen (module: run.module, a path, or "auto") and its image read; 0 or -1 */
static int choose(struct pcb_kmod *k, const char *module, char *err, size_t errlen)
{
	char why[PATH_MAX + 128];

	if (module && *module && strcmp(module, "auto")) {
		snprintf(k->path, sizeof(k->path), "%s", module);
		k->how = "given by run.module";
		if (!fits(k, k->path, why, sizeof(why)))
			return FAIL("run.module: %s", why);
		return 0;
	}
	return find(k, err, errlen);
}

int pcb_kmod_load(struct pcb_kmod *k, const char *module, char *err, size_t errlen)
{
	static char before[1 << 16];
	int rc;

	memset(k, 0, sizeof(*k));
	rc = may_load(k, err, errlen);
	if (!rc)
		rc = choose(k, module, err, errlen);
	if (!rc)
		rc = may_load_image(k, err, errlen);
	if (!rc)
		rc = unload_stale(err, errlen);
	if (!rc && module_names(before, sizeof(before)) < 0)
		rc = FAIL("/proc/modules: %s", strerror(errno));
	if (rc)
		goto out;
	build_id_of(k->image, k->image_size, k->build_id);
	/* the image fits() checked, not the file again: init_module(), not finit_module() */
	if (syscall(SYS_init_module, k->image, k->image_size, "") < 0) {
		int e = errno;

		rc = FAIL("the kernel refused %s: %s%s", k->path, strerror(e),
			  e == EPERM || e == EKEYREJECTED ?
			  " (lockdown, or a signature by a key it does not trust: docs/kernel.md, "
			  "\"Secure Boot and lockdown\")" :
			  e == ENOEXEC || e == EINVAL ? " (not built for this kernel's symbols)" : "");
		goto out;
	}
	k->loaded = 1;
	/* what the kernel registered, which the unload names: pcpbench, or unloaded at once */
	loaded_name(before, k->name, sizeof(k->name));
	if (strcmp(k->name, "pcpbench")) {
		rc = FAIL("%s registered as the module '%s', not pcpbench: unloaded", k->path,
			  k->name);
		pcb_kmod_unload(k);
	}
out:
	free(k->image);
	k->image = NULL;
	k->image_size = 0;
	return rc;
}

void pcb_kmod_unload(struct pcb_kmod *k)
{
	if (!k->loaded)
		return;
	if (syscall(SYS_delete_module, k->name, O_NONBLOCK) < 0)
		fprintf(stderr, "pcpbench: note: the module %s stays loaded: %s\n", k->name,
			strerror(errno));
	k->loaded = 0;
}

/* the build's own model, PREEMPT_DYNAMIC's boot default */
static const char *built_preemption(unsigned int kconfig)
{
	return kconfig & PCB_KCONFIG_PREEMPT ? "full" :
	       kconfig & PCB_KCONFIG_PREEMPT_VOLUNTARY ? "voluntary" :
	       kconfig & PCB_KCONFIG_PREEMPT_NONE ? "none" : "?";
}

void pcb_kmod_preemption(unsigned int kconfig, char *buf, size_t len)
{
	char line[4096], *open, *close, *arg;

	if (!(kconfig & PCB_KCONFIG_PREEMPT_DYNAMIC)) {
		snprintf(buf, len, "%s (CONFIG_PREEMPT_%s)", built_preemption(kconfig),
			 kconfig & PCB_KCONFIG_PREEMPT ? "" : built_preemption(kconfig));
		return;
	}
	/* "none (voluntary) full": the one in parentheses is in force */
	if (read_line("/sys/kernel/debug/sched/preempt", line, sizeof(line)) == 0 &&
	    (open = strchr(line, '(')) && (close = strchr(open, ')'))) {
		*close = 0;
		snprintf(buf, len, "%s (PREEMPT_DYNAMIC, /sys/kernel/debug/sched/preempt)", open + 1);
		return;
	}
	if (read_line("/proc/cmdline", line, sizeof(line)) == 0 && (arg = strstr(line, "preempt="))) {
		arg += 8;
		arg[strcspn(arg, " ")] = 0;
		snprintf(buf, len, "%s (PREEMPT_DYNAMIC, preempt= on the command line)", arg);
		return;
	}
	snprintf(buf, len, "%s (PREEMPT_DYNAMIC, the build's default)", built_preemption(kconfig));
}

void pcb_kmod_mitigations(unsigned int kconfig, char *buf, size_t len)
{
	static const char *const vuln[] = { "retbleed", "spectre_v2" };
	char path[128], line[256];

	snprintf(buf, len, "built with%s%s%s", kconfig & PCB_KCONFIG_RETHUNK ? " return thunks," : "",
		 kconfig & PCB_KCONFIG_RETPOLINE ? " retpolines," : "",
		 kconfig & PCB_KCONFIG_SLS ? " SLS," : "");
	if (!(kconfig & (PCB_KCONFIG_RETHUNK | PCB_KCONFIG_RETPOLINE | PCB_KCONFIG_SLS)))
		snprintf(buf, len, "built without return thunks or retpolines,");
	buf[strlen(buf) - 1] = 0;
	for (size_t i = 0; i < sizeof(vuln) / sizeof(vuln[0]); i++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/vulnerabilities/%s", vuln[i]);
		if (read_line(path, line, sizeof(line)) == 0)
			snprintf(buf + strlen(buf), len - strlen(buf), "; %s: %s", vuln[i], line);
	}
}
