#!/bin/bash
# The kernel backend end to end: pcpbench.ko built from kmod/ against the
# headers of the guest's kernel (no warning), then, in scripts/vm.sh's
# four-node guest under QEMU's TCG, tests/kmod/guest.sh: the refusals
# (the harness's, and the module's own of every plan the models' rules
# refuse, tests/plan_rules.c),
# default, cover-letter-2.2, drain-scaling, pcp-designs and memcg-7.3 run with the
# module, the RCU drain over the kernel's RCU (memcg's qsbr, pcp's rcu),
# sheaves-flush-scaling (every sheaves design),
# reproduce --backend kernel of tests/claims/kernel.ini, then
# tests/kmod/safety.sh: a long run under lowered lockup and stall
# thresholds, SIGINT and SIGTERM mid-run, a failed step, and 20 loads and
# unloads, the module's allocations and memory checked. Functional only:
# the guest's clock is emulated, no figure's size is checked.
#
# usage: kmod.sh PCPBENCH SOURCE_ROOT [native|portable]
# A native build's guest runs build-vm/pcpbench, as the vm suite's do.
# Skipped (77) where the guest (scripts/vm.sh, or PCPBENCH_VM_SH) or the
# guest kernel's linux-headers-ABI-cloud-amd64 cannot be had (or KDIR's
# PCPBENCH_KDIR). PCPBENCH_KMOD_KERNEL boots another kernel in the guest,
# a bzImage (the rig's: PCPBENCH_KDIR=$(scripts/kernel.sh kdir --bare 7.3)
# PCPBENCH_KMOD_KERNEL=$(scripts/kernel.sh build --bare 7.3 | tail -n 1)).
# PCPBENCH_KMOD_KEEP=DIR keeps the guest's results there.
set -u
. "$(dirname "$0")/lib.sh"
pcpbench=$(realpath "$1")
src=$(realpath "$2")
skip() { echo "kmod: skipped: $*"; exit 77; }

vm=${PCPBENCH_VM_SH:-$src/scripts/vm.sh}
[ -x "$vm" ] || skip "no $vm (the guest's script; PCPBENCH_VM_SH names another)"
abi=$("$vm" --abi 2>"$tmp/err") || skip "no guest kernel: $(cat "$tmp/err")"
kdir=${PCPBENCH_KDIR:-/usr/src/linux-headers-$abi-cloud-amd64}
[ -f "$kdir/Makefile" ] || skip "no $kdir (linux-headers-$abi-cloud-amd64)"
command -v make >/dev/null || skip "no make"
if [ "${3:-native}" = native ]; then
	pcpbench=$("$vm" --build "$src/build-vm") || { bad "build-vm: the guest's pcpbench"; summary kmod; exit; }
fi

# the module, from the same kernels/ the program is built from
if make -C "$src/kmod" OUT="$tmp/kmod" KDIR="$kdir" >"$tmp/make.log" 2>&1; then
	ok
else
	bad "the module does not build against $kdir: $(tail -n 20 "$tmp/make.log")"
	summary kmod
	exit
fi
if grep -i 'warning:' "$tmp/make.log"; then bad "the module's build warns"; else ok; fi
# every timed region of the module holds its calls' loads, stores and calls
# (tests/model_regions.py): rdtsc_ordered() alone is no compiler barrier
if python3 "$src/tests/model_regions.py" "$tmp/kmod/pcpbench.ko" >"$tmp/regions.out" 2>&1; then
	ok
else
	bad "pcpbench.ko's timed regions: $(head -n 20 "$tmp/regions.out")"
fi

# the plans the models' rules refuse (tests/plan_rules.c), and plans whose
# own fields are past the harness's bounds, which the guest hands the
# module itself, past the harness's own check
rules=$(dirname "$pcpbench")/tests/plan_rules
if ninja -C "$(dirname "$pcpbench")" tests/plan_rules >"$tmp/rules.log" 2>&1; then
	ok
else
	bad "plan_rules does not build: $(tail -n 20 "$tmp/rules.log")"
fi

# the guest: its results come back into $tmp/res
mkdir -p "$tmp/res"
"$vm" ${PCPBENCH_KMOD_KERNEL:+--kernel "$PCPBENCH_KMOD_KERNEL"} \
	--pcpbench "$pcpbench" --out "$tmp/res" --timeout 1500 \
	--add "$tmp/kmod/pcpbench.ko:/pcb/pcpbench.ko" --add "$src/scenarios:/pcb/kscn" \
	--add "$src/tests/kmod/guest.sh:/pcb/guest.sh" --add "$src/tests/kmod/safety.sh:/pcb/safety.sh" \
	--add "$src/tests/claims/kernel.ini:/pcb/kclaims.ini" --add "$rules:/pcb/plan_rules" \
	-- sh guest.sh >"$tmp/vm.out" 2>"$tmp/vm.err"
vm_rc=$?
[ "$vm_rc" -eq 77 ] && skip "the guest: $(tail -n 3 "$tmp/vm.err")"
if [ "$vm_rc" -eq 0 ]; then ok; else bad "the guest: exit $vm_rc: $(tail -n 30 "$tmp/vm.err")"; fi
r=$tmp/res

# each refusal: exit 2, the reason printed, nothing left loaded
for t in rseq ck per-call; do
	if [ "$(cat "$r/refuse-$t.rc" 2>/dev/null)" = 2 ] &&
		grep -q 'not in the kernel backend' "$r/refuse-$t.err"; then
		ok
	else
		bad "refuse-$t: exit $(cat "$r/refuse-$t.rc" 2>/dev/null): $(cat "$r/refuse-$t.err" 2>/dev/null)"
	fi
	sed 's/^/  /' "$r/refuse-$t.err" 2>/dev/null
done
# every plan the rules refuse, refused by the module with the harness's sentence
if [ "$(cat "$r/plan-rules.rc" 2>/dev/null)" = 0 ] &&
	grep -q '^plan_rules: the module refused \([0-9]*\) of the \1 plans .*, and \([1-9][0-9]*\) of the \2 plans past' \
		"$r/plan-rules.txt"; then
	ok
else
	bad "plan-rules: exit $(cat "$r/plan-rules.rc" 2>/dev/null): $(tail -n 20 "$r/plan-rules.txt" "$r/plan-rules.err" 2>/dev/null)"
fi
tail -n 1 "$r/plan-rules.txt" 2>/dev/null | sed 's/^/  /'
for f in refused-loaded after-runs-loaded plan-rules-loaded; do
	[ "$(cat "$r/$f.txt" 2>/dev/null)" = 0 ] && ok || bad "$f: pcpbench still loaded"
done

# each run: exit 0, a result of the kernel backend that report reads
for t in default cover-letter drain-scaling pcp-designs memcg-7.3; do
	if [ "$(cat "$r/$t.rc" 2>/dev/null)" = 0 ]; then
		ok
	else
		bad "$t: exit $(cat "$r/$t.rc" 2>/dev/null): $(tail -n 20 "$r/$t.err" 2>/dev/null)"
	fi
done
for f in "$r"/*/result.json "$r"/*/node*/result.json; do
	[ -f "$f" ] || continue
	expect_rc 0 "$pcpbench" report "$(dirname "$f")"
done

python3 - "$r" <<'EOF' || bad "the results (above)"
import glob, json, sys
res = sys.argv[1]
fails = []
def fail(m):
    fails.append(m)
seen = set()
for p in sorted(glob.glob(res + "/*/result.json")):
    r = json.load(open(p))
    c = r["context"]
    name = r["scenario"]["name"]
    seen.add(name)
    if c.get("backend") != "kernel":
        fail("%s: backend %s" % (p, c.get("backend")))
    k = c.get("kernel_backend", {})
    if not k.get("release") or not k.get("build_id") or not k.get("preemption"):
        fail("%s: kernel_backend %s" % (p, k))
    for d in r["designs"]:
        if d.get("invariant") != "ok":
            fail("%s: %s: invariant %s" % (p, d["design"], d.get("invariant")))
        if d.get("ops", 0) < 1:
            fail("%s: %s: no operations" % (p, d["design"]))
        w = d.get("work", {})
        if d["design"].startswith("local_lock") and name == "drain-scaling":
            if w.get("queued", 0) < 1 or w.get("ran_on_cpu") != w.get("ran"):
                fail("%s: %s: drain work %s" % (p, d["design"], w))
            if w.get("ran_elsewhere") != 0 or w.get("elsewhere_cpu") != -1:
                fail("%s: %s: drain work ran off its stock's CPU: %s" % (p, d["design"], w))
            print("%s: drain work queued %d, ran on its stock's CPU %d, elsewhere %d"
                  % (d["design"], w["queued"], w["ran_on_cpu"], w["ran_elsewhere"]))
        if name == "memcg-7.3" and d["design"].startswith("local_trylock_7_3") and \
                w.get("queued", 0) < 1:
            fail("%s: %s: no drain work queued: %s" % (p, d["design"], w))
        # the spinlock series drains from the calling CPU: no work at all
        if name == "memcg-7.3" and d["design"].startswith("spinlock_7_3") and \
                (d.get("drain") != "remote" or w.get("queued", 0) != 0):
            fail("%s: %s: drain %s, work %s" % (p, d["design"], d.get("drain"), w))
    if name == "drain-scaling":
        if len(r.get("drains", [])) != 8 or any(dr["count"] < 1 for dr in r["drains"]):
            fail("%s: drains %s" % (p, [(dr["design"], dr["count"]) for dr in r.get("drains", [])]))
for want in ("default", "cover-letter-2.2", "drain-scaling", "pcp-designs", "memcg-7.3"):
    if want not in seen:
        fail("no result of %s (%s)" % (want, sorted(seen)))
for m in fails:
    print("FAILED:", m, file=sys.stderr)
sys.exit(1 if fails else 0)
EOF
[ $? -eq 0 ] && ok

# compare: the userspace backend's result against the kernel's, per function
for s in cover-letter-2.2 drain-scaling; do
	expect_rc 0 "$pcpbench" compare "$r"/us/$s-*/ "$r"/$s-*/
	grep -q 'run.backend: userspace | kernel' "$tmp/out" && ok ||
		bad "compare $s: $(head -n 20 "$tmp/out") $(cat "$tmp/err")"
done

# drains from the charge path at memory.max in the kernel: every design ran,
# its invariant held, and its workers' drain_all_stock row has calls
[ "$(cat "$r/limit.rc" 2>/dev/null)" = 0 ] && ok ||
	bad "limit-drains: exit $(cat "$r/limit.rc" 2>/dev/null): $(tail -n 20 "$r/limit.err" 2>/dev/null)"
python3 - "$r/limit" <<'EOF' && ok || bad "the charge path's drains (above)"
import glob, json, sys
fails, seen = [], set()
for p in sorted(glob.glob(sys.argv[1] + "/*/result.json")):
    r = json.load(open(p))
    calls = {}
    for f in r["functions"]:
        if f["function"] == "drain_all_stock":
            calls[f["design"]] = f.get("calls", 0) + f.get("interrupted_calls", 0)
    for d in r["designs"]:
        seen.add(d["design_name"])
        n = calls.get(d["design"], 0)
        print("limit-drains: %s: %d drains from the charge path, %d failed charges, invariant %s"
              % (d["design"], n, d.get("failed", 0), d.get("invariant")))
        if d.get("invariant") != "ok" or n < 1 or d.get("failed", 0) < 1:
            fails.append("%s: %s" % (p, d["design"]))
if seen != {"local_lock", "spinlock", "qsbr", "local_trylock_7_3"}:
    fails.append("designs run: %s" % sorted(seen))
for m in fails:
    print("FAILED:", m, file=sys.stderr)
sys.exit(1 if fails else 0)
EOF

# the RCU drain over the kernel's RCU: memcg's qsbr and pcp's rcu run,
# every invariant held, each row drained
for m in drain-scaling pcp-drain-scaling; do
	[ "$(cat "$r/rcu-$m.rc" 2>/dev/null)" = 0 ] && ok ||
		bad "rcu $m: exit $(cat "$r/rcu-$m.rc" 2>/dev/null): $(tail -n 20 "$r/rcu-$m.err" 2>/dev/null)"
done
python3 - "$r/rcu" <<'EOF' && ok || bad "the RCU drain's results (above)"
import glob, json, sys
fails, seen = [], set()
for p in sorted(glob.glob(sys.argv[1] + "/*/result.json")):
    r = json.load(open(p))
    if r["context"].get("backend") != "kernel":
        fails.append("%s: backend %s" % (p, r["context"].get("backend")))
    for d in r["designs"]:
        seen.add(d["design_name"])
        print("%s: %s: drain %s, invariant %s, %d operations"
              % (r["scenario"]["name"], d["design"], d.get("drain"), d.get("invariant"), d.get("ops", 0)))
        if d.get("invariant") != "ok" or d.get("ops", 0) < 1 or d.get("drain") != "qsbr":
            fails.append("%s: %s" % (p, d["design"]))
    for dr in r.get("drains", []):
        print("  %s: %d drains, %.0f cycles each (emulated clock)"
              % (dr["design"], dr["count"], dr["avg_cycles"]))
        if dr["count"] < 1:
            fails.append("%s: %s: no drain" % (p, dr["design"]))
    if len(r.get("drains", [])) != 4:
        fails.append("%s: %d drain rows" % (p, len(r.get("drains", []))))
if seen != {"qsbr", "rcu"}:
    fails.append("designs run: %s" % sorted(seen))
for m in fails:
    print("FAILED:", m, file=sys.stderr)
sys.exit(1 if fails else 0)
EOF

# perf counters in the kernel backend: each worker kthread's and the
# coordinator's own events, resolved by libpfm4 and created in the module;
# task-clock counted (a count, not its size), cycles <not supported> with
# the userspace backend's reason where the guest has no PMU (counted where
# it has one), the rows' fields the userspace backend's, and the report's
# counter block as it prints the userspace one's
[ "$(cat "$r/ctr.rc" 2>/dev/null)" = 0 ] && ok ||
	bad "counters: exit $(cat "$r/ctr.rc" 2>/dev/null): $(tail -n 20 "$r/ctr.err" 2>/dev/null)"
ctr=$(ls -d "$r"/ctr/default-* 2>/dev/null | head -n 1)
expect_rc 0 "$pcpbench" report "${ctr:-$r/ctr/none}"
sed -n '/ counters, /,/^$/p' "$tmp/out" | sed 's/^/  /'
grep -qE '^ +[0-9.]+ msec +task-clock' "$tmp/out" && ok ||
	bad "counters: report prints no task-clock count: $(cat "$tmp/out")"
python3 - "$r" <<'EOF' && ok || bad "the kernel backend's counters (above)"
import glob, json, sys
fails = []
def one(pattern):
    p = sorted(glob.glob(pattern))
    return json.load(open(p[0])) if p else None
k = one(sys.argv[1] + "/ctr/*/result.json")
u = one(sys.argv[1] + "/us-ctr/*/result.json")
if not k or not u:
    print("FAILED: no result (kernel %s, userspace %s)" % (bool(k), bool(u)), file=sys.stderr)
    sys.exit(1)
pmu = [s["value"] for s in k["context"]["machine_state"] if s["setting"] == "pmu"]
print("pmu: %s; notes: %s" % (pmu, [n for n in k.get("notes", []) if "counters" in n]))
rows = {(c["thread"], c["event"]): c for c in k.get("counters", [])}
threads = sorted(set(t for t, e in rows))
for (t, e), c in sorted(rows.items()):
    print("  %-12s %-11s %-16s %12d enabled %d ns running %d ns %s %s"
          % (t, e, c["status"], c["value"], c["enabled_ns"], c["running_ns"],
             c["pfm_name"], c.get("error", "")))
if "all" not in threads or "coordinator" not in threads or len(threads) < 3:
    fails.append("threads %s: the workers', all and the coordinator's" % threads)
# A worker's own clock can stand still over the whole timed part where the
# guest's sched_clock is unstable (TCG: "Marking TSC unstable"): local_clock()
# is clamped to a tick past the CPU's last one, and a starved vCPU takes
# none, so perf reports the event enabled for 0 ns, as perf stat's
# <not counted>. That is perf's own answer, allowed a worker alone, never
# all of them; the sum and the coordinator are counted.
idle = []
for t in threads:
    c = rows.get((t, "task-clock"))
    idle_clock = c and t.startswith("cpu ") and c["status"] == "<not counted>" and \
        c["value"] == 0 and c["enabled_ns"] == 0 and c["running_ns"] == 0
    if idle_clock:
        idle.append(t)
        continue
    if not c or c["status"] != "counted" or c["value"] < 1 or c["running_ns"] < 1 or \
       c["running_ns"] > c["enabled_ns"]:
        fails.append("%s: task-clock %s" % (t, c))
    c = rows.get((t, "cycles"))
    if pmu == ["none"]:
        if not c or c["status"] != "<not supported>" or \
           c.get("error") != "no PMU here: hardware events cannot be counted":
            fails.append("%s: cycles without a PMU: %s" % (t, c))
    elif not c or c["status"] != "counted" or c["value"] < 1:
        fails.append("%s: cycles with PMU %s: %s" % (t, pmu, c))
    if c and ":k=1" not in c["pfm_name"]:
        fails.append("%s: cycles not counted in kernel mode: %s" % (t, c["pfm_name"]))
if idle and len(idle) == len([t for t in threads if t.startswith("cpu ")]):
    fails.append("no worker's task-clock counted: %s" % idle)
if not any("counters.kernel = no: the kernel backend's workers are kthreads" in n
           for n in k.get("notes", [])):
    fails.append("no note of kernel-mode counting: %s" % k.get("notes"))
ukeys = set(tuple(sorted(c)) for c in u.get("counters", []))
kkeys = set(tuple(sorted(c)) for c in k.get("counters", []))
uthreads = sorted(set(c["thread"] for c in u.get("counters", [])))
if kkeys != ukeys or len(threads) != len(uthreads):
    fails.append("fields %s, threads %s; the userspace backend's %s, %s"
                 % (sorted(kkeys), threads, sorted(ukeys), uthreads))
for m in fails:
    print("FAILED:", m, file=sys.stderr)
sys.exit(1 if fails else 0)
EOF

# the sheaves model: each design run, every invariant held, each row
# flushed, the flushes' work run on its CPU (their table, emulated figures)
[ "$(cat "$r/sheaves.rc" 2>/dev/null)" = 0 ] && ok ||
	bad "sheaves: exit $(cat "$r/sheaves.rc" 2>/dev/null): $(tail -n 20 "$r/sheaves.err" 2>/dev/null)"
[ "$(cat "$r/after-sheaves-loaded.txt" 2>/dev/null)" = 0 ] && ok || bad "sheaves: pcpbench still loaded"
sed 's/^/  /' "$r/sheaves.txt" 2>/dev/null
for f in "$r"/sheaves/*/result.json; do
	[ -f "$f" ] && expect_rc 0 "$pcpbench" report "$(dirname "$f")"
done
python3 - "$r/sheaves" <<'EOF' && ok || bad "the sheaves results (above)"
import glob, json, sys
fails, seen, queued = [], set(), {}
for p in sorted(glob.glob(sys.argv[1] + "/*/result.json")):
    r = json.load(open(p))
    if r["context"].get("backend") != "kernel":
        fails.append("%s: backend %s" % (p, r["context"].get("backend")))
    for d in r["designs"]:
        name, w = d["design_name"], d.get("work", {})
        seen.add(name)
        print("%s: drain %s, invariant %s, %d operations, work %s"
              % (d["design"], d.get("drain"), d.get("invariant"), d.get("ops", 0), w))
        if d.get("invariant") != "ok" or d.get("ops", 0) < 1:
            fails.append("%s: %s" % (p, d["design"]))
        if name in ("local_trylock", "kmem_cache_cpu"):
            queued[name] = queued.get(name, 0) + w.get("queued", 0)
            if w.get("ran_on_cpu") != w.get("ran") or w.get("ran_elsewhere") != 0:
                fails.append("%s: %s: flush work ran off its CPU: %s" % (p, d["design"], w))
    for dr in r.get("drains", []):
        if dr["count"] < 1:
            fails.append("%s: %s: no flush" % (p, dr["design"]))
    if len(r.get("drains", [])) != 20:
        fails.append("%s: %d drain rows, not 20" % (p, len(r.get("drains", []))))
if seen != {"local_trylock", "spinlock", "qpw", "rcu", "kmem_cache_cpu"}:
    fails.append("designs run: %s" % sorted(seen))
for name in ("local_trylock", "kmem_cache_cpu"):
    if queued.get(name, 0) < 1:
        fails.append("%s: no flush work queued" % name)
for m in fails:
    print("FAILED:", m, file=sys.stderr)
sys.exit(1 if fails else 0)
EOF

# reproduce --backend kernel (tests/claims/kernel.ini): the claims it runs
# have figures, 000-contention's of Poisson arrivals too; the claim naming
# rseq is n/a with the refusal's words; nothing left loaded
[ "$(cat "$r/repro.rc" 2>/dev/null)" = 0 ] && ok ||
	bad "reproduce: exit $(cat "$r/repro.rc" 2>/dev/null): $(tail -n 20 "$r/repro.err" 2>/dev/null)"
sed -n '/^claim /,/^results:/p' "$r/repro.txt" 2>/dev/null | sed 's/^/  /'
repro=$(tr -s ' \n' '  ' <"$r/repro.txt" 2>/dev/null)
for want in "n/a: skipped: rseq: not in the kernel backend: restartable sequences are a" \
	"1 of 4 claims skipped" "the designs run in the kernel backend"; do
	case $repro in
	*"$want"*) ok ;;
	*) bad "reproduce: no '$want'" ;;
	esac
done
csv=$(ls "$r"/repro/reproduce-*/reproduce.csv 2>/dev/null | head -n 1)
python3 - "$csv" <<'EOF' && ok || bad "reproduce.csv (above)"
import csv, sys
rows = {r["id"]: r for r in csv.DictReader(open(sys.argv[1]))}
want = {"beyond-spinlock": True, "beyond-qsbr": True, "beyond-rseq": False, "000-contention": True}
print("reproduce.csv: here =", {i: rows[i]["here"] for i in rows})
sys.exit(1 if [i for i, has in want.items() if i not in rows or bool(rows[i]["here"]) != has] else 0)
EOF
[ "$(cat "$r/after-repro-loaded.txt" 2>/dev/null)" = 0 ] && ok || bad "reproduce: pcpbench still loaded"

# ---- safety (tests/kmod/safety.sh) ----
# a long run under lowered soft-lockup and RCU-stall thresholds: its log is checked below
if [ "$(cat "$r/safety-long.rc" 2>/dev/null)" = 0 ] &&
	grep -q '^watchdog_thresh 2, rcu_cpu_stall_timeout 4$' "$r/safety-long.txt"; then
	ok
else
	bad "the long run: exit $(cat "$r/safety-long.rc" 2>/dev/null): $(head -n 3 "$r/safety-long.txt" 2>/dev/null) $(tail -n 5 "$r/safety-long.err" 2>/dev/null)"
fi
# a session ended by a signal, or by a failure in the module: exit 1, nothing left
safe_end() {
	local t=$1 want=$2
	if [ "$(cat "$r/safety-$t.rc" 2>/dev/null)" = 1 ] &&
		grep -q '^module: 0 in /proc/modules, 0 in /sys/module$' "$r/safety-$t.left" &&
		grep -q '^kthreads: 0$' "$r/safety-$t.left" &&
		cat "$r/safety-$t.err" "$r/safety-$t.txt" | grep -q "$want"; then
		ok
	else
		bad "$t: exit $(cat "$r/safety-$t.rc" 2>/dev/null), no '$want': $(cat "$r/safety-$t.left" "$r/safety-$t.err" 2>/dev/null)"
	fi
	echo "  $t: exit $(cat "$r/safety-$t.rc" 2>/dev/null); $(tr '\n' ';' <"$r/safety-$t.left" 2>/dev/null)"
	sed 's/^/    /' "$r/safety-$t.err" 2>/dev/null
}
for sig in INT TERM; do
	grep -q '^kthreads before: pcpbench' "$r/safety-$sig.left" 2>/dev/null && ok ||
		bad "$sig: not sent while the module's kthreads ran: $(cat "$r/safety-$sig.left" 2>/dev/null)"
	safe_end "$sig" 'interrupted'
done
safe_end fail-threads "cannot create the run's kthreads"
# every unload of the guest's sessions says in the log that each allocation
# its runs made was freed; over 20 loads and unloads the kernel's per-CPU
# memory is what it was and its unreclaimable slab within 1 MiB of it
[ "$(cat "$r/safety-cycles.txt" 2>/dev/null)" = 20 ] && ok ||
	bad "load/unload: $(cat "$r/safety-cycles.txt" 2>/dev/null) of 20"
grep 'pcpbench: unloaded' "$r/dmesg.txt" | sed 's/^\[[ 0-9.]*\] //' | sort | uniq -c | sed 's/^/  /'
python3 - "$r" <<'EOF' && ok || bad "the module's allocations, or the memory figures (above)"
import re, sys
res = sys.argv[1]
fails = []
log = open(res + "/dmesg.txt", errors="replace").read()
unloads = re.findall(r"pcpbench: unloaded: (\d+) allocations, (\d+) freed: (.*)", log)
ran = [u for u in unloads if int(u[0]) > 0]
if len(ran) < 5 or len(unloads) < 25:
    fails.append("%d unloads said their allocations, %d after runs (25 and 5 at least)"
                 % (len(unloads), len(ran)))
for made, freed, what in unloads:
    if made != freed or what != "none left":
        fails.append("an unload: %s allocations, %s freed: %s" % (made, freed, what))
def mem(name):
    return dict((l.split(":")[0], int(l.split()[1]))
                for l in open(res + "/" + name) if ":" in l)
before, after = mem("safety-mem-before.txt"), mem("safety-mem-after.txt")
for k in sorted(before):
    print("  %-12s %8d kB -> %8d kB (%+d)" % (k, before[k], after[k], after[k] - before[k]))
if after["Percpu"] != before["Percpu"]:
    fails.append("Percpu %d -> %d kB" % (before["Percpu"], after["Percpu"]))
if after["SUnreclaim"] - before["SUnreclaim"] > 1024:
    fails.append("SUnreclaim grew by %d kB (at most 1024)"
                 % (after["SUnreclaim"] - before["SUnreclaim"]))
for m in fails:
    print("FAILED:", m, file=sys.stderr)
sys.exit(1 if fails else 0)
EOF

if grep -E 'BUG|WARNING|soft lockup|rcu_sched self-detected|stall' "$r/dmesg.txt"; then
	bad "the guest's kernel log (above)"
else
	ok
fi
# the guest's results kept where PCPBENCH_KMOD_KEEP names a folder
[ -z "${PCPBENCH_KMOD_KEEP:-}" ] || cp -r "$r/." "$PCPBENCH_KMOD_KEEP/"
summary kmod
