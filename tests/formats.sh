#!/bin/bash
# report's formats for the engines that track kernel performance: kv
# (LKP-tests' stats, "name: value", names of [a-z0-9_.]) and mmtests (a
# tab-separated row a run mean), checked on fixture results against the
# figures of their result.json, read here independently of pcpbench.
set -u
pcpbench=$(realpath "$1")
src=$(realpath "$2")
. "$(dirname "$0")/lib.sh"

ref=$src/results/reference/default-kvm-2cpu/result.json
fix=$src/tests/fixtures/plots

# every line a stat: a name of [a-z0-9_.] without empty parts, a number
for r in "$ref" "$fix/drain-scaling/result.json" "$fix/contention/result.json"; do
	expect_rc 0 "$pcpbench" report --format kv "$r"
	[ -s "$tmp/out" ] && ok || bad "kv of $r: nothing printed"
	grep -Evx '[a-z0-9_]+(\.[a-z0-9_]+)*: -?[0-9]+(\.[0-9]+)?' "$tmp/out" >"$tmp/odd"
	[ ! -s "$tmp/odd" ] && ok || bad "kv of $r: not stats: $(head -3 "$tmp/odd")"
	[ "$(cut -d: -f1 "$tmp/out" | sort | uniq -d | wc -l)" -eq 0 ] && ok ||
		bad "kv of $r: a name twice: $(cut -d: -f1 "$tmp/out" | sort | uniq -d | head -3)"
	cp "$tmp/out" "$tmp/$(basename "$(dirname "$r")").kv"
done

# the figures are the result's: each function row's, each drain row's, the contention counts
python3 - "$ref" "$tmp/default-kvm-2cpu.kv" "$fix/drain-scaling/result.json" \
	"$tmp/drain-scaling.kv" "$fix/contention/result.json" "$tmp/contention.kv" <<'PY' && ok ||
import json, re, sys

def name(*parts):
    out = []
    for p in parts:
        p = re.sub(r"[^a-z0-9_. ]", "_", p.lower()).replace(" ", ".")
        out += [x for x in p.split(".") if x]
    return ".".join(out)

def want(r):
    w = {}
    for f in r["functions"]:
        n = name(f["design"], f["function"])
        w[n + ".avg_cycles"] = "%.3f" % f["avg_cycles"]
        w[n + ".stddev"] = "%.3f" % f["stddev"]
        if "p99" in f:
            w[n + ".p99"] = str(f["p99"])
        if "interrupted" in f:
            w[n + ".interrupted"] = str(f["interrupted"])
    for d in r.get("drains", []):
        n = name(d["design"], "drain")
        if "avg_cycles" in d:
            w[n + ".avg_cycles"] = "%.3f" % d["avg_cycles"]
    for c in r.get("contention", []):
        w[name(c["design"], "contention", c["function"], c["side"]) + ".contended"] = \
            str(c["contended"])
    return w

bad = 0
for res, kv in zip(sys.argv[1::2], sys.argv[2::2]):
    got = dict(l.rstrip("\n").split(": ", 1) for l in open(kv))
    for k, v in want(json.load(open(res))).items():
        if got.get(k) != v:
            print("%s: %s is %s, want %s" % (kv, k, got.get(k), v), file=sys.stderr)
            bad += 1
sys.exit(1 if bad else 0)
PY
	bad "kv figures differ from the results'"
grep -qx 'spinlock.stocks_128.drain.avg_cycles: [0-9.]*' "$tmp/drain-scaling.kv" && ok ||
	bad "a sweep's label as a name: $(grep drain "$tmp/drain-scaling.kv" | head -3)"
grep -q 'fail' "$tmp/default-kvm-2cpu.kv" && bad "a held invariant reported as failed" || ok

# a broken invariant is a .fail stat, as LKP counts failures
python3 - "$ref" "$tmp/broken.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["designs"][1]["charge_invariant"] = "CPU 0: 3 pages counted twice"
json.dump(r, open(sys.argv[2], "w"))
PY
expect_rc 0 "$pcpbench" report --format kv "$tmp/broken.json"
[ "$(grep -c 'fail' "$tmp/out")" -eq 1 ] && grep -qx 'spinlock.invariant.fail: 1' "$tmp/out" &&
	ok || bad "broken invariant: $(grep fail "$tmp/out")"

# mmtests: a row a run mean, five tab-separated fields, the result's run means
expect_rc 0 "$pcpbench" report --format mmtests "$fix/drain-scaling/result.json"
python3 - "$fix/drain-scaling/result.json" "$tmp/out" <<'PY' && ok || bad "mmtests rows"
import json, sys
r = json.load(open(sys.argv[1]))
design = {d["design"]: d for d in r["designs"]}
want = []
for f in r["functions"]:
    d = design[f["design"]]
    cfg = d.get("config") or "-"
    cfg = cfg.replace("=", "_").replace(" ", ".")
    for i, run in enumerate(f["runs"]):
        want.append("%s\t%s\t%s\t%d\t%.3f" % (f["function"], d["design_name"], cfg, i + 1,
                                            run["avg_cycles"]))
got = open(sys.argv[2]).read().splitlines()
if got != want:
    print("got %s...\nwant %s..." % (got[:2], want[:2]), file=sys.stderr)
    sys.exit(1)
PY

# a broken result: refused as the other formats refuse it, nothing on stdout
python3 - "$ref" "$tmp/missing.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
del r["functions"][0]["runs"]
json.dump(r, open(sys.argv[2], "w"))
PY
for f in kv mmtests; do
	expect_rc 2 "$pcpbench" report --format $f "$tmp/missing.json"
	grep -q "$tmp/missing.json: functions\[0\].runs: missing" "$tmp/err" && ok ||
		bad "$f: broken result: $(cat "$tmp/err")"
	[ ! -s "$tmp/out" ] && ok || bad "$f: a broken result printed"
done
expect_rc 2 "$pcpbench" report --format lkp "$ref"
grep -q "kv or mmtests" "$tmp/err" && ok || bad "unknown format: $(cat "$tmp/err")"
expect_rc 2 "$pcpbench" compare --format kv "$ref" "$ref"

summary formats
