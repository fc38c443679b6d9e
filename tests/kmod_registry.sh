#!/bin/bash
# pcpbench.ko's models and designs are the program's, with no kernel
# headers: kmod/Kbuild is read by make as the kernel's build would read it
# (with BUILD/kmod.mk, what meson wrote of kernels/), and what it would
# build and register is set against `pcpbench list`. Every model of the
# program is in the module with the sources its runs need; every design
# of the program is registered in the module, or the kernel backend
# refuses it as having no kernel meaning (exit 2 before anything is
# built or loaded, the kernel's files faked by PCPBENCH_SYSROOT); the
# module registers no design the program lacks; each design is built in
# every variant kmod.mk lists for it, and each model's run sources are
# those kmod.mk names. That they are all its runs need, the module's link
# shows (kmod-build). Then the tests' module (BUILD/kmod-tests.mk): the
# same and the throwaway vmstat model, declared by its folder alone
# (tests/models/vmstat/meson.build), registered with its every design;
# every source and header both modules name is a file of the tree.
#
# usage: kmod_registry.sh PCPBENCH SOURCE_ROOT KMOD_MK KMOD_TESTS_MK
set -u
pcpbench=$(realpath "$1")
src=$(realpath "$2")
mk=$(realpath "$3")
tests_mk=$(realpath "$4")
. "$(dirname "$0")/lib.sh"

command -v make >/dev/null || { echo "kmod-registry: skipped: no make"; exit 77; }

# Kbuild as Kbuild reads it, its registry's flags and its objects printed
cat >"$tmp/print.mk" <<'MK'
include $(PCB_SRC)/kmod/Kbuild
pcb-print:
	$(info models $(PCB_MODELS))
	$(info registry $(CFLAGS_k-registry.o))
	$(info objects $(pcpbench-y))
	$(foreach g,$(pcb_gen),$(info source $(g) $(pcb_gen_src_$(g))))
	$(foreach o,$(filter v-%,$(pcpbench-y)),$(info cflags $(o) $(CFLAGS_$(o))))
	@:
MK
expect_rc 0 env -u PCB_MODELS make -s -f "$tmp/print.mk" PCB_SRC="$src" PCB_MK="$mk" \
	obj="$tmp/obj" pcb-print
cp "$tmp/out" "$tmp/kbuild"

expect_rc 0 "$pcpbench" list
cp "$tmp/out" "$tmp/list"

python3 - "$tmp/kbuild" "$tmp/list" "$mk" >"$tmp/missing" <<'PY' && ok || bad "the module and the program differ (above)"
import re, sys
kbuild = open(sys.argv[1]).read().split("\n")
listing = open(sys.argv[2]).read().split("\n")
mkvars = dict(re.findall(r"^(\w+) := (.*)$", open(sys.argv[3]).read(), re.M))

def line(tag):
    return next(l[len(tag) + 1:] for l in kbuild if l.startswith(tag + " "))

kmodels = line("models").split()
reg = line("registry")
kdesigns = re.findall(r"PCB_KMOD_DESIGN\((\w+),(\w+)\)", reg)
regmodels = re.findall(r"PCB_KMOD_MODEL\((\w+)\)", reg)
objects = line("objects").split()
sources = dict(l.split()[1:3] for l in kbuild if l.startswith("source "))

program, model = {}, None
for l in listing:
    m = re.match(r"model (\w+):", l)
    if m:
        model = m.group(1)
        program[model] = []
        continue
    if l.strip() in ("designs:", "workloads:", "keys (default):") or not l.startswith("  "):
        section = l.strip()
    m = re.match(r"    (\w+)\s", l)
    if model and m and section == "designs:":
        program[model].append(m.group(1))

bad = []
if sorted(kmodels) != sorted(program) or sorted(regmodels) != sorted(program):
    bad.append("models: module %s (registered %s), program %s" % (kmodels, regmodels, sorted(program)))
for mod, d in kdesigns:
    if d not in program.get(mod, []):
        bad.append("the module registers %s.%s, which the program has not" % (mod, d))
for gen, path in sources.items():
    if not re.fullmatch(r"\S+\.c", path):
        bad.append("%s: no source (%s)" % (gen, path))
for mod in program:
    run = sorted("m-%s-%s.o" % (mod, f) for f in mkvars.get("pcb_model_" + mod, "").split())
    have = sorted(o for o in objects if o.startswith("m-%s-" % mod))
    if not have or have != run:
        bad.append("%s: the module builds %s of its sources, kmod.mk names %s" % (mod, have, run))
    builds = mkvars.get("pcb_builds_" + mod, "").split()
    for d in program[mod]:
        if (mod, d) in kdesigns:
            want = [b for b in builds if b.split(":")[0] == d]
            n = len([o for o in objects if o.startswith("v-%s-%s-" % (mod, d))])
            if not want or n != len(want) or any(int(b.split(":")[3]) != n for b in want):
                bad.append("%s.%s: %d builds, kmod.mk lists %d of %s variants" %
                           (mod, d, n, len(want), want[0].split(":")[3] if want else "no"))
        else:
            print(mod, d)
for b in bad:
    print(b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
# every file a module of either list names is there: its sources, its
# designs' headers, its variants' (the folders kmod.mk gives each model)
files() {
	python3 - "$1" <<'PY'
import os, re, sys
for l in open(sys.argv[1]).read().split("\n"):
    paths = l.split()[2:3] if l.startswith("source ") else re.findall(r"'\"([^\"]+)\"'", l)
    for p in paths:
        if not os.path.isfile(p):
            print("%s: no file %s" % (l.split()[1], p))
PY
}
files "$tmp/kbuild" >"$tmp/nofile"
[ -s "$tmp/nofile" ] && bad "kmod.mk: $(head -n 5 "$tmp/nofile")" || ok
expect_rc 0 env -u PCB_MODELS make -s -f "$tmp/print.mk" PCB_SRC="$src" PCB_MK="$tests_mk" \
	obj="$tmp/obj" pcb-print
files "$tmp/out" >"$tmp/nofile"
[ -s "$tmp/nofile" ] && bad "kmod-tests.mk: $(head -n 5 "$tmp/nofile")" || ok
grep -q '^cflags v-vmstat-' "$tmp/out" && ok || bad "kmod-tests.mk: no vmstat design built"
python3 - "$tmp/out" "$tmp/kbuild" "$src/tests/models/vmstat/designs.def" <<'PY' &&
import re, sys
tests, base = (open(f).read() for f in sys.argv[1:3])

def registry(text):
    reg = next(l for l in text.split("\n") if l.startswith("registry "))
    return (re.findall(r"PCB_KMOD_MODEL\((\w+)\)", reg),
            set(re.findall(r"PCB_KMOD_DESIGN\((\w+),(\w+)\)", reg)))

want = set(("vmstat", d) for d in re.findall(r"^PCB_DESIGN\((\w+)\)", open(sys.argv[3]).read(), re.M))
models, designs = registry(tests)
bmodels, bdesigns = registry(base)
print("kmod-tests.mk: models %s, vmstat's designs %s" %
      (models, sorted(d for m, d in designs if m == "vmstat")))
sys.exit(0 if want and models == bmodels + ["vmstat"] and designs == bdesigns | want else 1)
PY
	ok || bad "kmod-tests.mk: not the program's models and vmstat with its designs"

[ "$(grep -c '' "$tmp/missing")" -lt "$(grep -c '^    [a-z]' "$tmp/list")" ] && ok ||
	bad "the module has none of the program's designs"

# a design the module lacks is one the kernel backend refuses, and says why
root=$tmp/root
mkdir -p "$root/proc/sys/kernel"
echo 6.1.0-0-none >"$root/proc/sys/kernel/osrelease"	# a release with no headers here
while read -r mod d; do
	printf '[run]\nmodel = %s\ndesigns = %s\n' "$mod" "$d" >"$tmp/one.scn"
	expect_rc 2 env PCPBENCH_SYSROOT="$root" "$pcpbench" run --backend kernel \
		--out "$tmp/res" "$tmp/one.scn"
	grep -qF "$d: not in the kernel backend:" "$tmp/err" && ok ||
		bad "$mod.$d is not in the module, and the kernel backend does not refuse it: $(cat "$tmp/err")"
	[ ! -e "$tmp/res" ] && ok || bad "$mod.$d: a result was written"
done <"$tmp/missing"
summary kmod-registry
