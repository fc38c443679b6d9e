#!/bin/bash
# pft (seed 004) on the four-node guest at 1, 2, 4 and 8 workers: a row
# per design and worker count, the scaling block over them, every page
# invariant held.
. "$(dirname "$0")/lib.sh"

cat >"$tmp/guest.sh" <<'EOF'
sed 's/^cpus.workers = .*/cpus.workers = 0, 0-1, 0-3, 0-7/' scenarios/pft.scn >pft8.scn
pcpbench run --quick pft8.scn >results/pft.txt 2>results/pft.err
EOF
vm_run "$tmp/guest.sh"
[ "$vm_rc" -eq 0 ] && ok || bad "the guest's run: exit $vm_rc: $(tail -n 20 "$tmp/vm.err")"

check_py "worker counts" '
res = results("pft8-*/result.json")
if len(res) != 1:
    fail("%d results" % len(res))
p, r = res[0]
got = sorted((d["design_name"], len(d["workers"])) for d in r["designs"])
want = sorted((n, w) for n in ("local_lock", "spinlock", "pcp_trylock") for w in (1, 2, 4, 8))
if got != want:
    fail("%s: rows %s" % (p, got))
for d in r["designs"]:
    if d["ops"] <= 0:
        fail("%s: %s: no fault ran" % (p, d["design"]))'
# each design's scaling block: every function and operations/s at 1, 2, 4, 8
check_py "scaling blocks" '
blocks, cur = {}, None
for line in open("pft.txt"):
    w = line.split()
    if len(w) >= 3 and w[1] == "scaling" and w[2] == "workers":
        cur = blocks.setdefault(w[0], {})
    elif cur is not None and len(w) >= 5 and w[0].endswith(":") and w[1].isdigit():
        cur.setdefault(w[0], []).append(int(w[1]))
    elif not w:
        cur = None
if sorted(blocks) != ["local_lock", "pcp_trylock", "spinlock"]:
    fail("scaling blocks of %s" % sorted(blocks))
for design, rows in blocks.items():
    if "operations/s:" not in rows:
        fail("%s: no operations/s rows: %s" % (design, rows))
    for fn, counts in rows.items():
        if counts != [1, 2, 4, 8]:
            fail("%s: %s at %s workers" % (design, fn, counts))'
invariants_hold
summary pft
