#!/bin/bash
# run --each-node and --node: the plan on a synthetic 8-node machine (the
# CPUs each node's workers get, where the coordinator goes), the refusals,
# and a real quick run on this machine, which writes one result (and, with
# one node, says so).
set -u
pcpbench=$(realpath "$1")
src=$2
. "$(dirname "$0")/../lib.sh"
topo="numa:8 core:16 pu:1"

has() { grep -qxF -- "$1" "$tmp/out" && ok || bad "$2: no line '$1' in: $(cat "$tmp/out")"; }

cd "$src" || exit 1

# every node, scenarios/default.scn (cpus.workers = all,!0, no drains)
expect_rc 0 "$pcpbench" --topology "$topo" run --dry-run --each-node
has "scenario default ($src/scenarios/default.scn): each node, 8 of 8 nodes; no drains: the coordinator's CPU is only kept free" "each-node header"
has "node 0 (1/8): workers 1-15 (15 CPUs), coordinator CPU 16 (node 1)" "node 0"
has "node 3 (4/8): workers 48-63 (16 CPUs), coordinator CPU 0 (node 0)" "node 3"
has "node 7 (8/8): workers 112-127 (16 CPUs), coordinator CPU 0 (node 0)" "node 7"
[ "$(grep -c '^node [0-9] ([0-9]/8): workers' "$tmp/out")" -eq 8 ] && ok || bad "not 8 nodes planned"

# every worker on the node; the coordinator's node chosen, and moved off it on its own run
expect_rc 0 "$pcpbench" --topology "$topo" run --dry-run --each-node --coordinator-node 5 \
	--set cpus.workers=all scenarios/drain-scaling.scn
has "node 0 (1/8): workers 0 (1 CPU), coordinator CPU 80 (node 5)" "coordinator-node 5, node 0"
has "  stocks=64: workers 0-15 (16 CPUs)" "coordinator-node 5, node 0, stocks=64"
has "node 5 (6/8): workers 80 (1 CPU), coordinator CPU 0 (node 0)" "coordinator-node 5, its own run"
# the drainer is no isolated CPU: node 1's CPUs all isolated, node 0's run drains from node 2
expect_rc 0 "$pcpbench" --topology "$topo" run --dry-run --each-node --set cpus.isolated=16-31 \
	scenarios/contention.scn
has "node 0 (1/8): workers 1-15 (15 CPUs), coordinator CPU 32 (node 2)" "an isolated node skipped"

# one node
expect_rc 0 "$pcpbench" --topology "$topo" run --dry-run --node 3
has "node 3 (1/1): workers 48-63 (16 CPUs), coordinator CPU 0 (node 0)" "--node 3"
[ "$(grep -c '^node ' "$tmp/out")" -eq 1 ] && ok || bad "--node 3 planned more than one node"

# a scenario whose workers miss some nodes: those are skipped, by name
expect_rc 0 "$pcpbench" --topology "$topo" run --dry-run --each-node --set cpus.workers=0-20
has "node 2 (3/8): no worker of cpus.workers there; skipped" "skipped node"
has "node 1 (2/8): workers 16-20 (5 CPUs), coordinator CPU 0 (node 0)" "partial node"

# drain.stocks below the workers asked: only the first drain.stocks run, the
# plan says so, each node's run of its own CPUs; with no drains, all run
expect_rc 0 "$pcpbench" --topology "$topo" run --dry-run scenarios/drain-scaling.scn
[ "$(grep -E '^scenario drain-scaling \(|^  workers:' "$tmp/out" | tr -s ' \n' ' ')" = \
  "scenario drain-scaling (scenarios/drain-scaling.scn): stocks=1 workers: 1 on CPUs 1 \
scenario drain-scaling (scenarios/drain-scaling.scn): stocks=8 workers: 8 on CPUs 1-8 \
scenario drain-scaling (scenarios/drain-scaling.scn): stocks=64 workers: 64 on CPUs 1-64 \
scenario drain-scaling (scenarios/drain-scaling.scn): stocks=128 workers: 127 on CPUs 1-127 " ] && ok ||
	bad "drain.stocks' workers: $(grep -E '^scenario|workers:' "$tmp/out")"
expect_rc 0 "$pcpbench" --topology "$topo" run --dry-run --each-node scenarios/drain-scaling.scn
has "node 3 (4/8): workers 48 (1 CPU), coordinator CPU 0 (node 0)" "stocks=1 on node 3"
has "  stocks=8: workers 48-55 (8 CPUs)" "stocks=8 on node 3"
has "  stocks=64: workers 48-63 (16 CPUs)" "stocks=64 on node 3"
expect_rc 0 "$pcpbench" --topology "$topo" run --dry-run --set drain.rate_hz=0 \
	scenarios/drain-scaling.scn
[ "$(grep -c "^  workers: 127 on CPUs 1-127$" "$tmp/out")" -eq 4 ] && ok ||
	bad "no drains, yet workers left idle: $(grep workers: "$tmp/out")"

# bad input: exit 2, nothing written
expect_rc 2 "$pcpbench" --topology "$topo" run --dry-run --node 9
grep -q -- "--node 9: no such node" "$tmp/err" && ok || bad "--node 9: $(cat "$tmp/err")"
expect_rc 2 "$pcpbench" --topology "$topo" run --dry-run --node x
expect_rc 2 "$pcpbench" --topology "$topo" run --dry-run --each-node --coordinator-node 8
expect_rc 2 "$pcpbench" --topology "$topo" run --dry-run --coordinator-node 1
expect_rc 2 "$pcpbench" --topology "$topo" run --dry-run --each-node --node 1
expect_rc 2 "$pcpbench" --topology "$topo" run --dry-run --node 2 --set cpus.workers=16
grep -q "no node has a CPU of cpus.workers" "$tmp/err" && ok || bad "no node: $(cat "$tmp/err")"
expect_rc 2 "$pcpbench" --topology "$topo" run --each-node --out "$tmp/synthetic"
[ ! -e "$tmp/synthetic" ] && ok || bad "a refused run wrote $tmp/synthetic"

# a real run here
nodes=$("$pcpbench" info --json | tr -d ' \n' | sed -n 's/.*"numa_nodes":\([0-9]*\).*/\1/p')
expect_rc 0 "$pcpbench" run --each-node --quick --set run.duration_ms=30 --set run.warmup_ms=0 \
	--out "$tmp/real"
if [ "${nodes:-1}" -le 1 ]; then
	grep -q "note: this machine has one NUMA node: one run" "$tmp/err" && ok ||
		bad "one node, no note: $(cat "$tmp/err")"
	[ "$(ls "$tmp/real" | wc -l)" -eq 1 ] && [ -s "$tmp"/real/default-*/result.json ] && ok ||
		bad "one node: not one ordinary result: $(ls -R "$tmp/real")"
else
	dir=$(ls -d "$tmp"/real/default-*/ | head -1)
	head -1 "$dir/nodes.csv" | grep -qx 'node,design,config,function,timing,avg_cycles,stddev,calls' &&
		ok || bad "nodes.csv header"
	[ -s "$dir/nodes.txt" ] && [ -s "$dir/node0/result.json" ] && ok || bad "per-node layout"
	grep -q '"node": 0' "$dir/node0/result.json" && ok || bad "node not in result.json"
fi
ls -a "$tmp/real" | grep -q '\.tmp\.' && bad "temporary directory left" || ok

summary nodes
