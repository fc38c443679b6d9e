#!/bin/bash
# Drains on the four-node guest, where CPUs are free for helpers:
# drain-scaling.scn as written (seven workers asked) and
# pcp-drain-scaling.scn with three, each stocks=N row draining exactly N
# filled caches and running min(N, workers asked) workers; idle CPUs'
# helpers running local_lock's flushed drain_all_pages() work in
# parallel; then a coordinator on node 0 draining workers on nodes 2 and
# 3, whose interruptions on the nohz_full CPUs 6-7 are attributed to the
# drains that queued work there, and to none where the design skips
# isolated CPUs. Every invariant held.
. "$(dirname "$0")/lib.sh"

cat >"$tmp/remote.scn" <<'EOF'
[scenario]
description = a coordinator on node 0 draining workers on nodes 2 and 3 (6-7 nohz_full)

[run]
designs = local_lock, isolated_skip, spinlock
workload = charge
timing = call
runs = 2
duration_ms = 300
warmup_ms = 30
work_delivery = kworker

[cpus]
workers = 4-7

[drain]
cpu = 0
rate_hz = 500
target = root
EOF
cat >"$tmp/guest.sh" <<'EOF'
pcpbench run --quick scenarios/drain-scaling.scn >results/memcg.txt 2>results/memcg.err || exit
pcpbench run --quick --set cpus.workers=1-3 scenarios/pcp-drain-scaling.scn \
	>results/pcp.txt 2>results/pcp.err || exit
pcpbench run remote.scn >results/remote.txt 2>results/remote.err
EOF
vm_run "$tmp/guest.sh" --add "$tmp/remote.scn:/pcb/remote.scn"
[ "$vm_rc" -eq 0 ] && ok || bad "the guest's runs: exit $vm_rc: $(tail -n 20 "$tmp/vm.err")"

# the drain table's rows say how many stocks were filled: the sweep's
for f in memcg pcp; do
	for n in 1 8 64 128; do
		has_line $f.txt "^$n +[0-9.]+ +[0-9.]+ " "$f: the cpus column's $n"
	done
done
check_py "stocks=N" '
for scn, asked in (("drain-scaling", 7), ("pcp-drain-scaling", 3)):
    res = results(scn + "-*/result.json")
    if len(res) != 1:
        fail("%s: %d results" % (scn, len(res)))
    p, r = res[0]
    workers = {d["design"]: len(d["workers"]) for d in r["designs"]}
    rows = 0
    for dr in r["drains"]:
        n = int(dr["design"].split("stocks=")[1])
        rows += 1
        if dr["caches"] != n or dr["online"] != max(128, n):
            fail("%s: %s drained %d of %d" % (p, dr["design"], dr["caches"], dr["online"]))
        if workers[dr["design"]] != min(n, asked):
            fail("%s: %s ran %d workers" % (p, dr["design"], workers[dr["design"]]))
        if dr["count"] < 1 or dr["coordinator_cpu"] != 0:
            fail("%s: %s: %s" % (p, dr["design"], dr))
    if rows != 8:
        fail("%s: %d drain rows" % (p, rows))
    one = [dr for dr in r["drains"] if dr["design"].endswith("stocks=1")]
    if any(dr["helpers"] != 6 for dr in one):
        fail("%s: stocks=1 helpers %s, not 6 (CPUs 2-7)" % (p, [dr["helpers"] for dr in one]))
    cut = [n for n in r["notes"] if "stocks=1: drain.stocks = 1: CPU 1 ran, of cpus.workers\x27 %d" % asked in n]
    if len(cut) != 2:
        fail("%s: the notes do not say which worker ran: %s" % (p, r["notes"]))'
# local_lock flushes drain_all_pages(): idle CPUs' work on helpers, in parallel
check_py "parallel drain" '
p, r = results("pcp-drain-scaling-*/result.json")[0]
for dr in r["drains"]:
    if not dr["design"].startswith("local_lock") or dr["design"].endswith("stocks=1"):
        continue
    if dr["helpers"] != 4 or dr.get("idle_work") != "helpers":
        fail("%s: %s: helpers %s, idle work on %s" % (p, dr["design"], dr["helpers"], dr.get("idle_work")))'

# the remote drains: from node 0, at nodes 2 and 3
check_py "remote drains" '
p, r = results("remote-*/result.json")[0]
nodes = {w["cpu"]: w["node"] for d in r["designs"] for w in d["workers"]}
if nodes != {4: 2, 5: 2, 6: 3, 7: 3}:
    fail("%s: workers %s" % (p, nodes))
for dr in r["drains"]:
    if dr["coordinator_cpu"] != 0 or dr["count"] < 2:
        fail("%s: %s: coordinator %s, %s drains" % (p, dr["design"], dr["coordinator_cpu"], dr["count"]))
for d in r["designs"]:
    iso = sorted(w["cpu"] for w in d["workers"] if w["isolated"])
    if iso != [6, 7]:
        fail("%s: %s: isolated workers %s" % (p, d["design"], iso))
    if d["design"] == "local_lock" and d["work"]["ran"] < 1:
        fail("%s: local_lock: no drain work ran on the workers" % p)
by = {}
for row in r["interruptions"]:
    if row.get("cpu") in (6, 7):
        by.setdefault(row["design"], []).append(row["attributed"])
if sorted(by) != ["isolated_skip", "local_lock", "spinlock"]:
    fail("%s: interruption rows of CPU 6-7: %s" % (p, by))
if sum(by["local_lock"]) < 1:
    fail("%s: local_lock: none of the nohz_full CPUs interruptions is a drain: %s" % (p, by))
if sum(by["isolated_skip"]) != 0:
    fail("%s: isolated_skip: drains interrupted the isolated CPUs it skips: %s" % (p, by))'
invariants_hold
summary drains
