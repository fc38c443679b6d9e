#!/bin/bash
# One result, one answer: a scenario run quick in call and batch timing,
# its means net (the harness's timer) and raw (the kernel's timer, and run
# --raw), and every output of the result read back against what the run
# printed: report (exactly the run's text), report --format email and
# markdown, functions.csv, runs.csv, diffs.csv, report --format kv and
# mmtests, compare and plot's data. Each carries the terminal's means,
# STDDEV, Diff, Diff % and interval, named raw or net as the terminal
# names them; and each mark agrees with its interval.
set -u
pcpbench=$(realpath "$1")
src=$2
. "$(dirname "$0")/../lib.sh"

cd "$src" || exit 1
quick=(run --quick --set run.duration_ms=40 --set run.warmup_ms=10 --set run.runs=3)

# the terminal's tables beside one output of the same result (python3: read apart)
check() {	# WHAT MODE(raw|net) TERMINAL RESULT-DIR [OUTPUT FORMAT]
	python3 - "$@" <<'PY'
import csv, json, re, sys

what, mode, term_file, rdir = sys.argv[1:5]
out_file, fmt = (sys.argv[5], sys.argv[6]) if len(sys.argv) > 6 else (None, None)
head = {"raw": "Raw cycles", "net": "Avg cycles"}[mode]
bad = []

heads = {}

def blocks(text):
    """design -> fn -> (mean, sd); (design, base) -> fn -> (diff, pct, mark, ci)"""
    means, diffs, title, kind = {}, {}, None, None
    lines = text.splitlines()
    for i, l in enumerate(lines):
        m = re.match(r"^(\S.*?)?\s+(Avg cycles|Raw cycles)\s+STDDEV\s+Call Count$", l)
        d = re.match(r"^(\S.*?)?\s+Diff \(cycles\)\s+Diff %\s+CI \(Holm\)$", l)
        if m or d:
            # a title too wide for the width is on the line before, the head's first column empty
            t = (m or d).group(1) or lines[i - 1].strip()
            title, kind = t, "m" if m else "d"
            if m:
                means[t] = {}
                heads[t] = m.group(2)
            else:
                diffs[tuple(t.split(" - "))] = {}
            continue
        if not l.strip():
            title = None
            continue
        if not title or l.startswith("geomean:") or not re.match(r"^[a-z_]+:", l):
            continue
        f = l.split()
        if kind == "m":
            means[title][f[0][:-1]] = (f[1], f[2])
        else:
            ci = " ".join(f[3:])
            # a cover letter's row too wide for its interval has it on the next line
            if not ci and i + 1 < len(lines) and lines[i + 1].lstrip().startswith("["):
                ci = lines[i + 1].strip()
            diffs[tuple(title.split(" - "))][f[0][:-1]] = (f[1], f[2].rstrip("*"),
                                                           f[2].endswith("*"), ci)
    return means, diffs

term = open(term_file).read()
tm, td = blocks(term)
if not tm or not td:
    bad.append("the terminal has no blocks: %s" % term[:400])
for d, h in heads.items():
    if h != head:
        bad.append("%s's head is %s, not %s" % (d, h, head))
if ("means %s" % mode) not in term:
    bad.append("terminal: the means are not said to be %s" % mode)

def mark_agrees(where, diffs):
    for k, rows in diffs.items():
        for fn, (diff, pct, mark, ci) in rows.items():
            m = re.match(r"^\[(-?[0-9.]+), (-?[0-9.]+)\]$", ci)
            if m:
                lo, hi = float(m.group(1)), float(m.group(2))
                if mark != (lo > 0 or hi < 0):
                    bad.append("%s: %s %s: mark %s, interval %s" % (where, k, fn, mark, ci))
            elif mark and ci not in ("unbounded",):
                bad.append("%s: %s %s marked with no interval (%s)" % (where, k, fn, ci))

mark_agrees("terminal", td)
# a figure rounded to dec decimals beside one written to more (each within its rounding)
near = lambda a, b, dec: abs(float(a) - float(b)) <= 0.6 * 10 ** -dec

def same_ci(text, lo, hi):
    """the terminal's "[lo, hi]" (2 decimals) and a format's ends, written to more"""
    m = re.match(r"^\[(-?[0-9.]+), (-?[0-9.]+)\]$", text)
    return bool(m) and near(lo, m.group(1), 2) and near(hi, m.group(2), 2)

def text_format(text):
    m, d = blocks(text)
    if m != tm:
        bad.append("%s: means %s, the terminal's %s" % (what, m, tm))
    if d != td:
        bad.append("%s: diffs %s, the terminal's %s" % (what, d, td))
    mark_agrees(what, d)

def functions_csv():
    rows = list(csv.DictReader(open(rdir + "/functions.csv")))
    mean, sd = ("raw_avg_cycles", "raw_stddev") if mode == "raw" else ("avg_cycles", "stddev")
    if mean not in rows[0] or (mode == "raw") != ("avg_cycles" not in rows[0]):
        bad.append("functions.csv: columns %s for %s means" % (list(rows[0]), mode))
        return
    for r in rows:
        t = tm[r["design"]][r["function"]]
        if not (t[0].startswith("~") or t[0].startswith("<") or near(r[mean], t[0], 2)) \
           or not near(r[sd], t[1].rstrip("!"), 2):
            bad.append("functions.csv %s %s: %s %s, the terminal's %s" % (
                r["design"], r["function"], r[mean], r[sd], t))
    runs = list(csv.DictReader(open(rdir + "/runs.csv")))
    if mean not in runs[0]:
        bad.append("runs.csv: no %s: %s" % (mean, list(runs[0])))

def diffs_csv():
    rows = list(csv.DictReader(open(rdir + "/diffs.csv")))
    n = sum(len(v) for v in td.values())
    if len(rows) != n:
        bad.append("diffs.csv: %d rows, the terminal %d" % (len(rows), n))
    for r in rows:
        t = td[(r["design"], r["baseline"])][r["function"]]
        if r["means"] != mode or not near(r["diff_cycles"], t[0], 2):
            bad.append("diffs.csv %s: %s, the terminal's %s" % (r["function"], r, t))
        if r["diff_pct"] and not near(r["diff_pct"], t[1].lstrip("~"), 2):
            bad.append("diffs.csv %s: Diff %% %s, the terminal's %s" % (r["function"], r["diff_pct"], t))
        if r["significant"] != ("1" if t[2] else "0" if r["p_value"] else ""):
            bad.append("diffs.csv %s: significant %s, the terminal's mark %s" % (r["function"], r["significant"], t[2]))
        if r["ci_low_pct"]:
            if not same_ci(t[3], r["ci_low_pct"], r["ci_high_pct"]):
                bad.append("diffs.csv %s: interval %s %s, the terminal's %s" % (r["function"], r["ci_low_pct"], r["ci_high_pct"], t[3]))
            if (float(r["ci_low_cycles"]) > 0 or float(r["ci_high_cycles"]) < 0) != t[2]:
                bad.append("diffs.csv %s: the cycles' interval disagrees with the mark" % r["function"])

from kvname import name

def kv(text):
    got = dict(l.split(": ", 1) for l in text.splitlines())
    mean, sd = ("raw_avg_cycles", "raw_stddev") if mode == "raw" else ("avg_cycles", "stddev")
    other = "avg_cycles" if mode == "raw" else "raw_avg_cycles"
    for d, rows in tm.items():
        for fn, (m, s) in rows.items():
            k = name(d, fn)
            if k + "." + other in got:
                bad.append("kv: %s.%s in a %s result" % (k, other, mode))
            if not (m[0] in "~<" or near(got.get(k + "." + mean, "nan"), m, 2)):
                bad.append("kv: %s.%s %s, the terminal's %s" % (k, mean, got.get(k + "." + mean), m))
    for (d, base), rows in td.items():
        for fn, (diff, pct, mark, ci) in rows.items():
            k = name(d, fn)
            if not near(got.get(k + ".diff_cycles", "nan"), diff, 2):
                bad.append("kv: %s.diff_cycles %s, the terminal's %s" % (k, got.get(k + ".diff_cycles"), diff))
            if got.get(k + ".significant", "0") != ("1" if mark else "0"):
                bad.append("kv: %s.significant %s, the terminal's mark %s" % (k, got.get(k + ".significant"), mark))
            if ci.startswith("[") and not same_ci(ci, got[k + ".ci_low_pct"], got[k + ".ci_high_pct"]):
                bad.append("kv: %s interval, the terminal's %s" % (k, ci))

def mmtests(text):
    runs = {}
    for l in text.splitlines():
        fn, design, cfg, run, v = l.split("\t")
        runs.setdefault((design, fn), []).append(float(v))
    for d, rows in tm.items():
        for fn, (m, s) in rows.items():
            if m[0] not in "~<":
                v = runs[(name(d), fn)]
                if not near(sum(v) / len(v), m, 2):
                    bad.append("mmtests: %s %s runs' mean %.4f, the terminal's %s" % (d, fn, sum(v) / len(v), m))

def compare(text):
    # compare of the result with itself: A's column is the terminal's means
    for l in text.splitlines():
        m = re.match(r"^(\S+)\s+A (Avg cycles|Raw cycles)\s+B ", l)
        if m and m.group(2) != head:
            bad.append("compare: %s, not %s" % (m.group(2), head))
    a, design = {}, None
    for l in text.splitlines():
        m = re.match(r"^(\S+)\s+A (Avg|Raw) cycles", l)
        if m:
            design = m.group(1)
            continue
        if not l.strip():
            design = None
        elif design and re.match(r"^[a-z_]+:", l):
            a[(design, l.split()[0][:-1])] = l.split()[1]
    for d, rows in tm.items():
        for fn, (m, s) in rows.items():
            if m[0] not in "~<" and a.get((d, fn)) != m.lstrip("~"):
                bad.append("compare: %s %s A %s, the terminal's %s" % (d, fn, a.get((d, fn)), m))

def plot(text):
    lines = [l.split("\t") for l in text.splitlines()]
    designs = lines[0][1::2]
    for l in lines[1:]:
        for i, d in enumerate(designs):
            m = tm[d][l[0]][0]
            if m[0] not in "~<" and not near(l[1 + 2 * i], m, 2):
                bad.append("plot: %s %s %s, the terminal's %s" % (d, l[0], l[1 + 2 * i], m))

if fmt in ("text", "email", "markdown"):
    text_format(open(out_file).read())
elif fmt == "csv":
    functions_csv()
    diffs_csv()
elif fmt:
    globals()[fmt](open(out_file).read())
for b in bad:
    print("%s: %s" % (what, b), file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}

for timing in call batch; do
	for mode in net raw kernel; do
		case $mode in
		net) extra=() ;;
		raw) extra=(--raw) ;;
		kernel) extra=(--set run.timer=kernel) ;;
		esac
		means=$([ $mode = net ] && echo net || echo raw)
		what="$timing, $mode"
		expect_rc 0 "$pcpbench" "${quick[@]}" --set run.timing=$timing "${extra[@]}" \
			--out "$tmp/$timing-$mode" scenarios/default.scn
		term=$tmp/$timing-$mode.txt
		cp "$tmp/out" "$term"
		dir=$(ls -d "$tmp/$timing-$mode"/default-*/ 2>/dev/null | head -1)
		[ -n "$dir" ] || { bad "$what: no result"; continue; }
		check "$what: terminal" $means "$term" "$dir" && ok || bad "$what: terminal"
		cmp -s "$term" "$dir/tables.txt" && ok || bad "$what: tables.txt is not what run printed"
		expect_rc 0 "$pcpbench" report "$dir"
		cmp -s "$tmp/out" "$term" && ok ||
			bad "$what: report is not what run printed: $(diff "$tmp/out" "$term")"
		for fmt in email markdown; do
			expect_rc 0 "$pcpbench" report --format $fmt "$dir"
			check "$what: $fmt" $means "$term" "$dir" "$tmp/out" $fmt && ok || bad "$what: $fmt"
		done
		check "$what: csv" $means "$term" "$dir" "$dir" csv && ok || bad "$what: csv"
		for fmt in kv mmtests; do
			expect_rc 0 "$pcpbench" report --format $fmt "$dir"
			check "$what: $fmt" $means "$term" "$dir" "$tmp/out" $fmt && ok || bad "$what: $fmt"
		done
		expect_rc 0 "$pcpbench" compare "$dir" "$dir"
		check "$what: compare" $means "$term" "$dir" "$tmp/out" compare && ok ||
			bad "$what: compare"
		if command -v gnuplot >/dev/null; then
			expect_rc 0 "$pcpbench" plot "$dir"
			check "$what: plot" $means "$term" "$dir" "$dir/plots/functions.dat" plot &&
				ok || bad "$what: plot"
		fi
	done
done

# report --raw of a net result reads it raw in every format, as run --raw would have
net=$(ls -d "$tmp/call-net"/default-*/ | head -1)
expect_rc 0 "$pcpbench" report --raw "$net"
cp "$tmp/out" "$tmp/raw-view.txt"
for fmt in email kv; do
	expect_rc 0 "$pcpbench" report --raw --format $fmt "$net"
	check "report --raw: $fmt" raw "$tmp/raw-view.txt" "$net" "$tmp/out" $fmt && ok ||
		bad "report --raw --format $fmt"
done

summary figures
