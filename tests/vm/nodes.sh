#!/bin/bash
# run --each-node on the four-node guest, the memcg model (default.scn)
# and the page allocator's (pcp-designs.scn): one result per node, each
# worker on that node with its per-CPU cache there, the pcp zone there too
# (move_pages(2) in query mode, recorded in result.json), the per-node
# table and its placement rows; every invariant held.
. "$(dirname "$0")/lib.sh"

cat >"$tmp/guest.sh" <<'EOF'
pcpbench run --each-node --quick >results/memcg.txt 2>results/memcg.err || exit
pcpbench run --each-node --quick --set run.designs=local_lock,spinlock \
	scenarios/pcp-designs.scn >results/pcp.txt 2>results/pcp.err
EOF
vm_run "$tmp/guest.sh"
[ "$vm_rc" -eq 0 ] && ok || bad "the guest's runs: exit $vm_rc: $(tail -n 20 "$tmp/vm.err")"

for f in memcg pcp; do
	has_line $f.txt '^Avg cycles per node' "$f: the per-node table"
	has_line $f.txt '^On the run.s node, as move_pages\(2\) finds them' "$f: the placement table"
done
has_line memcg.txt '^node  stock +memcg *$' "memcg: the placement header"
has_line pcp.txt '^node  per_cpu_pages +zone *$' "pcp: the placement header"
for n in 0 1 2 3; do
	has_line memcg.txt "^node $n \($((n + 1))/4\): workers " "memcg: node $n planned"
	has_line pcp.txt "^$n +([0-9]+) of \\1 +[0-9]+ of [0-9]+ *\$" "pcp: node $n placed"
done

# per node: the result says which; every worker there, its cache there;
# the pcp zone there too (the memcg, on the heap, is recorded, not
# promised: a note says where it is)
check_py "placement" '
for scn, want_target in (("default", False), ("pcp-designs", True)):
    res = results(scn + "-*/node*/result.json")
    if len(res) != 4:
        fail("%s: %d node results, not 4" % (scn, len(res)))
    for p, r in res:
        node = r["node"]
        if p.split("/")[-2] != "node%d" % node:
            fail("%s: says node %d" % (p, node))
        for d in r["designs"]:
            if not d["workers"]:
                fail("%s: %s: no worker" % (p, d["design"]))
            for w in d["workers"]:
                if w["node"] != node or w["cache_node"] != node:
                    fail("%s: %s: worker %s" % (p, d["design"], w))
            if d.get("target_node") is None:
                fail("%s: %s: no target_node" % (p, d["design"]))
            if want_target and (d["target_name"] != "zone" or d["target_node"] != node):
                fail("%s: %s: the zone on node %d" % (p, d["design"], d["target_node"]))
        for note in r.get("notes", []):
            if " is on node " in note and ("the zone" in note or " of CPU " in note):
                fail("%s: %s" % (p, note))'
check_py "isolated workers" '
for p, r in results("*/node3/result.json"):
    for d in r["designs"]:
        if [w["isolated"] for w in d["workers"]] != [True, True]:
            fail("%s: %s: node 3 workers %s" % (p, d["design"], d["workers"]))'
invariants_hold
summary nodes
