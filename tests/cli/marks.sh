#!/bin/bash
# Every mark agrees with its interval: fixture results made from the
# reference result with run means set by hand (clearly not measurements:
# differences from none to large, some near Holm's thresholds, rows of two
# runs, rows without spread), read by report in every format and by
# compare in every format. In each, a row is marked exactly where its
# interval excludes 0, and the interval is the one the tables print.
set -u
pcpbench=$(realpath "$1")
src=$2
. "$(dirname "$0")/../lib.sh"

ref=$src/results/reference/default-kvm-2cpu/result.json

# A: 16 functions a design; spinlock's against local_lock's as the list below
# says; B: A with every mean moved by another list, for compare
python3 - "$ref" "$tmp" <<'PY'
import json, os, sys
r = json.load(open(sys.argv[1]))
f0 = r["functions"][0]

def row(design, fn, means):
    f = dict(f0, design=design, function=fn)
    f["runs"] = [dict(f0["runs"][0], avg_cycles=m, raw_avg_cycles=m + 30) for m in means]
    n = len(means)
    f["avg_cycles"] = sum(means) / n
    f["raw_avg_cycles"] = f["avg_cycles"] + 30
    sd = (sum((m - f["avg_cycles"]) ** 2 for m in means) / (n - 1)) ** 0.5 if n > 1 else 0
    f["stddev"] = f["raw_stddev"] = sd
    return f

# (base runs, shift, spread, runs): the spinlock row is the base's runs moved by shift
cases = [
    (10, 5, 0.2, 6), (10, 0, 0.2, 6), (10, 0.3, 0.2, 6), (10, 0.25, 0.2, 6),
    (10, 0.2, 0.2, 6), (10, 0.15, 0.2, 6), (20, -1, 0.5, 6), (20, -0.4, 0.5, 6),
    (5, 0.5, 0.3, 2), (5, 2, 0.3, 2), (8, 1, 0, 6), (8, 0, 0, 6),
    (3, 0.05, 0.1, 3), (3, 0.6, 0.1, 3), (40, 2, 1, 9), (40, 0.8, 1, 9),
]
def means(base, spread, n, k):
    # a fixed pattern: every case's runs spread alike, none alike across the two designs
    return [base + spread * ((i * 7 + k) % 5 - 2) / 2 for i in range(n)]

def result(move):
    out = dict(r)
    rows = []
    for k, (base, shift, spread, n) in enumerate(cases):
        fn = "fn%02d" % k
        rows.append(row("local_lock", fn, [m + move * k for m in means(base, spread, n, k)]))
        rows.append(row("spinlock", fn, [m + shift + move * k
                                         for m in means(base, spread, n, k + 1)]))
    out["functions"] = rows
    return out

for name, move in (("a", 0), ("b", 0.05), ("c", 3)):
    os.makedirs(os.path.join(sys.argv[2], name))
    json.dump(result(move), open(os.path.join(sys.argv[2], name, "result.json"), "w"))
PY

# every row of an output: its mark beside its interval
agree() {	# WHAT FORMAT FILE
	python3 - "$@" <<'PY'
import csv, json, re, sys
what, fmt, path = sys.argv[1:4]
text = open(path).read()
rows, bad = [], []
if fmt in ("text", "email", "markdown") and "| function |" not in text:
    lines, inside = text.splitlines(), False
    for i, l in enumerate(lines):
        if "Diff (cycles)" in l:
            inside = True
            continue
        if not l.strip() or l.startswith("```"):
            inside = False
        m = re.match(r"^(fn\d\d):\s+(-?[0-9.]+)\s+(\S+)\s*(.*)$", l) if inside else None
        if not m:
            continue
        ci = m.group(4).strip()
        # a cover letter's row too wide for its interval has it on the next line
        if not ci and i + 1 < len(lines) and lines[i + 1].strip().startswith("["):
            ci = lines[i + 1].strip()
        rows.append((m.group(1), m.group(3).endswith("*"), ci))
elif fmt == "markdown":
    head = None
    for l in text.splitlines():
        cells = [c.strip() for c in l.strip().strip("|").split("|")]
        if cells[0] == "function":
            head = cells
        elif head and re.match(r"^fn\d\d$", cells[0]):
            for j, h in enumerate(head):
                if h.endswith("Diff %") and cells[j] != "-":
                    rows.append((cells[0], cells[j].endswith("\\*"), cells[j + 1]))
        elif not l.startswith("|"):
            head = None
elif fmt == "kv":
    kv = dict(l.split(": ", 1) for l in text.splitlines())
    for k, v in kv.items():
        if k.endswith(".diff_pct"):
            p = k[:-len(".diff_pct")]
            lo, hi = kv.get(p + ".ci_low_pct"), kv.get(p + ".ci_high_pct")
            rows.append((p, kv.get(p + ".significant") == "1",
                         "[%s, %s]" % (lo, hi) if lo else "unbounded"))
elif fmt == "csv":
    for r in csv.DictReader(open(path)):
        if r["p_value"] if "p_value" in r else r["test"]:
            rows.append((r["function"], r["significant"] == "1",
                         "[%s, %s]" % (r["ci_low_pct"], r["ci_high_pct"])
                         if r["ci_low_pct"] else "unbounded"))
elif fmt == "json":
    for r in json.load(open(path))["rows"]:
        if r["result"] and r["p_value"] is not None:
            lo, hi = r["ci_low_cycles"], r["ci_high_cycles"]
            if r["significant"] != (lo > 0 or hi < 0):
                bad.append("%s: the cycles' interval [%s, %s], mark %s" % (r["function"], lo, hi, r["significant"]))
            rows.append((r["function"], r["significant"],
                         "[%r, %r]" % (r["ci_low_pct"], r["ci_high_pct"])
                         if r["ci_low_pct"] is not None else "unbounded"))
marked = 0
for fn, mark, ci in rows:
    m = re.match(r"^\[(-?[0-9.e+-]+), (-?[0-9.e+-]+)\]$", ci)
    marked += mark
    if m:
        lo, hi = float(m.group(1)), float(m.group(2))
        if mark != (lo > 0 or hi < 0):
            bad.append("%s: %s, marked %s" % (fn, ci, mark))
    elif ci != "unbounded":
        bad.append("%s: no interval: %r" % (fn, ci))
if len(rows) < 16:
    bad.append("%d rows read, 16 or more expected" % len(rows))
if not 0 < marked < len(rows):
    bad.append("%d of %d rows marked: the fixture should mark some, not all" % (marked, len(rows)))
for b in bad:
    print("%s: %s" % (what, b), file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}

for f in text email markdown kv; do
	expect_rc 0 "$pcpbench" report --format $f "$tmp/a"
	agree "report --format $f" $f "$tmp/out" && ok || bad "report --format $f"
done
for f in text email markdown csv json; do
	expect_rc 0 "$pcpbench" compare --format $f "$tmp/a" "$tmp/b" "$tmp/c"
	agree "compare --format $f" $f "$tmp/out" && ok || bad "compare --format $f"
done
# the report's rows: as many marked as Holm's procedure rejects over their p-values
expect_rc 0 "$pcpbench" report --format kv "$tmp/a"
grep -c '\.significant: 1$' "$tmp/out" > "$tmp/marked"
python3 - "$tmp/a/result.json" "$(cat "$tmp/marked")" <<'PY' && ok || bad "marks and Holm's count differ"
import json, sys
from mpmath import mp, mpf, betainc, sqrt
r = json.load(open(sys.argv[1]))
runs = {(f["design"], f["function"]): [x["avg_cycles"] for x in f["runs"]] for f in r["functions"]}
ps = []
for (d, fn), a in runs.items():
    if d != "spinlock":
        continue
    b = runs[("local_lock", fn)]
    var = lambda v: sum((x - sum(v) / len(v)) ** 2 for x in v) / (len(v) - 1)
    sa, sb = var(a) / len(a), var(b) / len(b)
    diff = sum(a) / len(a) - sum(b) / len(b)
    if sa + sb == 0:
        ps.append(0 if diff else 1)
        continue
    df = (sa + sb) ** 2 / (sa ** 2 / (len(a) - 1) + sb ** 2 / (len(b) - 1))
    t = abs(diff) / (sa + sb) ** 0.5
    ps.append(float(betainc(mpf(df) / 2, mpf(1) / 2, 0, df / (df + t * t), regularized=True)))
ps.sort()
rejected = 0
for k, p in enumerate(ps):
    if p > 0.05 / (len(ps) - k):
        break
    rejected += 1
print("Holm rejects %d of %d, the kv marks %s" % (rejected, len(ps), sys.argv[2]))
sys.exit(0 if rejected == int(sys.argv[2]) else 1)
PY

summary marks
