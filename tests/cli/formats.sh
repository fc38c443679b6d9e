#!/bin/bash
# report's formats for the engines that track kernel performance: kv
# (LKP-tests' stats, "name: value", names of [a-z0-9_.]) and mmtests (a
# tab-separated row a run mean), checked on fixture results against the
# figures of their result.json, read here independently of pcpbench.
set -u
pcpbench=$(realpath "$1")
src=$(realpath "$2")
. "$(dirname "$0")/../lib.sh"

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

from kvname import name

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

# the zone lock's hold (pcp.zone_lock_hold): in the contention rows of result.json, one
# acquisition timed per bulk call, and the same figures in the tables, contention.csv and kv
expect_rc 0 "$pcpbench" run "$src/scenarios/pft.scn" --set run.runs=1 \
	--set run.duration_ms=20 --set run.warmup_ms=0 --set cpus.workers=1 \
	--set run.designs=local_lock,spinlock --set pcp.zone_lock_hold=yes --out "$tmp/hold"
cp "$tmp/out" "$tmp/hold.txt"
hold=$(ls -d "$tmp/hold"/pft-*/ | head -1)
expect_rc 0 "$pcpbench" report --format kv "$hold/result.json"
python3 - "$hold/result.json" "$hold/contention.csv" "$tmp/out" "$tmp/hold.txt" <<'PY' && ok ||
import csv, json, re, sys
r = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2])))
kv = dict(l.rstrip("\n").split(": ", 1) for l in open(sys.argv[3]))
tables = open(sys.argv[4]).read()
bad = []
cont = r["contention"]
for d in r["designs"]:
    for fn, ev in (("rmqueue_bulk", "rmqueue_bulk"), ("free_pcppages_bulk", "free_pcppages_bulk")):
        c = [x for x in cont if x["design"] == d["design"] and x["function"] == fn
             and x["side"] == "worker"]
        if len(c) != 1:
            bad.append("%s %s: %d worker rows" % (d["design"], fn, len(c)))
            continue
        c = c[0]
        if not (c["held"] == c["calls"] == d["events"][ev] > 0):
            bad.append("%s %s: held %s, calls %s, %s calls counted" % (
                d["design"], fn, c["held"], c["calls"], d["events"][ev]))
        if not 0 < c["hold_avg_cycles"] <= c["hold_max_cycles"]:
            bad.append("%s %s: hold avg %s max %s" % (d["design"], fn, c["hold_avg_cycles"],
                                                       c["hold_max_cycles"]))
        n = "%s.contention.%s.worker.hold_avg_cycles" % (d["design"], fn)
        if kv.get(n) != "%.3f" % c["hold_avg_cycles"]:
            bad.append("kv %s is %s" % (n, kv.get(n)))
        if not re.search(r"^%s \(worker\): +%d +%d +[0-9.]+ +[0-9]+ +%.1f$" % (
                fn, c["calls"], c["contended"], c["hold_avg_cycles"]), tables, re.M):
            bad.append("tables: no %s hold row of %s" % (fn, d["design"]))
if len(rows) != len(cont):
    bad.append("contention.csv: %d rows for %d" % (len(rows), len(cont)))
for row, c in zip(rows, cont):
    for k in ("design", "function", "side"):
        if row[k] != c[k]:
            bad.append("contention.csv %s: %s, not %s" % (k, row[k], c[k]))
    for k in ("calls", "contended", "held", "hold_max_cycles", "wait_max_cycles"):
        if row[k] != (str(c[k]) if k in c else ""):
            bad.append("contention.csv %s %s: %s, not %s" % (c["function"], k, row[k], c.get(k)))
    for k in ("wait_avg_cycles", "hold_avg_cycles"):
        if row[k] != ("%.4f" % c[k] if k in c else ""):
            bad.append("contention.csv %s %s: %s, not %s" % (c["function"], k, row[k], c.get(k)))
if "hold cycles (avg)" not in tables:
    bad.append("tables: no hold column")
for b in bad:
    print(b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
	bad "the zone lock's hold across result.json, the tables, contention.csv and kv"
# without the key no hold is timed, and the tables have no hold column
expect_rc 0 "$pcpbench" report "$fix/contention/result.json"
grep -q "hold cycles" "$tmp/out" && bad "a hold column without timed holds" || ok
head -1 "$hold/contention.csv" | grep -qx 'design,function,side,calls,contended,wait_avg_cycles,wait_max_cycles,held,hold_avg_cycles,hold_max_cycles' &&
	ok || bad "contention.csv header: $(head -1 "$hold/contention.csv")"

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

# a line break in a result's string (a context value, a design's name, a
# note, a key) is refused with the key named, exit 2, nothing printed:
# printed in any format it would start a line of its own (a forged "To
# reproduce:" block, a table heading split); scenario.text, the scenario
# file as it was written, which nothing prints, holds them
python3 - "$ref" "$tmp" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
def save(name, change):
    x = json.loads(json.dumps(r))
    change(x)
    json.dump(x, open('%s/%s.json' % (sys.argv[2], name), 'w'))
def rename(x, new):
    old = x['designs'][0]['design']
    for row in x['designs'] + x['functions']:
        if row.get('design') == old:
            row['design'] = new
save('nl-kernel', lambda x: x['context'].update(kernel='6.1\n\nTo reproduce:\n  touch PWNED'))
save('cr-host', lambda x: x['context'].update(host='box\rTo reproduce:'))
save('nl-design', lambda x: rename(x, 'spin\nlock'))
save('nl-note', lambda x: x.update(notes=['a\nb']))
save('nl-key', lambda x: x['context'].update({'a\nb': 'c'}))
save('nl-text', lambda x: x['scenario'].update(text='[scenario]\nname = default\n'))
PY
for f in "nl-kernel:context.kernel: a line" \
	"nl-design:designs[0].design: a line" "nl-note:notes[0]: a line" \
	"nl-key:context: a key with a line"; do
	file=$tmp/${f%%:*}.json
	for fmt in text email markdown kv mmtests; do
		expect_rc 2 "$pcpbench" report --format $fmt "$file"
		[ ! -s "$tmp/out" ] && ok || bad "report --format $fmt ${f%%:*}: $(head -5 "$tmp/out")"
		grep -qF "$file: result.${f#*:} break" "$tmp/err" && ok ||
			bad "${f%%:*} $fmt not refused by its key: $(cat "$tmp/err")"
	done
	expect_rc 2 "$pcpbench" compare "$ref" "$file"
done
expect_rc 0 "$pcpbench" report --format email "$tmp/nl-text.json"
[ "$(grep -c '^To reproduce:' "$tmp/out")" -eq 1 ] && ok || bad "scenario.text's lines printed"
# a carriage return is a control byte, escaped where it is printed
expect_rc 0 "$pcpbench" report --format email "$tmp/cr-host.json"
[ "$(grep -c '^To reproduce:' "$tmp/out")" -eq 1 ] && grep -qF 'box\x0dTo reproduce:' "$tmp/out" &&
	ok || bad "a carriage return in context.host: $(cat -A "$tmp/out" | head -20)"

summary formats
