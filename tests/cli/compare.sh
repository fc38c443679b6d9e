#!/bin/bash
# compare and the cover-letter formats: two quick runs of the default
# scenario (one with another nr_pages), a pcp run, and fixtures made from
# them with run means set by hand (clearly not measurements) for the
# significance marks; bad inputs exit 2 with nothing on stdout.
set -u
pcpbench=$(realpath "$1")
src=$2
. "$(dirname "$0")/../lib.sh"

# exit 2, a message on stderr, nothing on stdout
expect_refused() {
	expect_rc 2 "$@"
	[ ! -s "$tmp/out" ] && ok || bad "$* wrote to stdout: $(head -3 "$tmp/out")"
	[ -s "$tmp/err" ] && ok || bad "$* gave no message"
}
# the output with its paragraphs on one line each (a legend is filled to the width)
flat() { tr -s '\n ' '  ' <"$tmp/out"; }
no_line_over_72() {
	local long
	long=$(awk 'length > 72' "$tmp/out")
	[ -z "$long" ] && ok || bad "$1: lines over 72 columns: $long"
}

cd "$src" || exit 1
quick=(run --quick --set run.duration_ms=50 --set run.warmup_ms=10)

expect_rc 0 "$pcpbench" compare --help
grep -q "^usage: pcpbench compare" "$tmp/out" && ok || bad "compare --help has no usage line"
grep -q "compare A B" <("$pcpbench" --help) && ok || bad "pcpbench --help does not name compare"

expect_rc 0 "$pcpbench" "${quick[@]}" --out "$tmp/a" scenarios/default.scn
expect_rc 0 "$pcpbench" "${quick[@]}" --set workload.nr_pages=2 --out "$tmp/b" scenarios/default.scn
expect_rc 0 "$pcpbench" "${quick[@]}" --set run.designs=local_lock,spinlock --out "$tmp/p" \
	scenarios/pcp-designs.scn
a=$(ls -d "$tmp"/a/default-*) b=$(ls -d "$tmp"/b/default-*) p=$(ls -d "$tmp"/p/pcp-designs-*)
[ -f "$a/result.json" ] && [ -f "$b/result.json" ] && [ -f "$p/result.json" ] && ok ||
	{ bad "the quick runs wrote no results"; echo "$pass passed, $fail failed"; exit 1; }

# text: every design and function, a Diff block each, the legend, what differs first
expect_rc 0 "$pcpbench" compare "$a" "$b/result.json"
for design in local_lock spinlock; do
	grep -q "^$design  *A Avg cycles  *B Avg cycles" "$tmp/out" && ok ||
		bad "no means block for $design: $(cat "$tmp/out")"
	grep -q "^$design: B - A  *Diff (cycles)  *Diff %" "$tmp/out" && ok ||
		bad "no Diff block for $design"
done
for fn in consume_stock refill_stock; do
	[ "$(grep -c "^$fn:" "$tmp/out")" -eq 4 ] && ok || bad "$fn not in every block"
done
grep -q "^\(\* the difference\|no difference\) is significant: Welch's test on the run means" \
	"$tmp/out" && ok || bad "no significance legend: $(cat "$tmp/out")"
head -1 "$tmp/out" | grep -qx "context differs: workload.nr_pages: 1 | 2" && ok ||
	bad "the settings' difference is not first: $(head -2 "$tmp/out")"
grep -q "context differs: workload.memcgs" "$tmp/out" && bad "a setting both share is listed" || ok

# csv: the header, one row a design x config x function x result, result 0 without a diff
expect_rc 0 "$pcpbench" compare --format csv "$a" "$b"
head -1 "$tmp/out" | grep -qx "design,config,function,result,label,avg_cycles,stddev,runs,diff_cycles,diff_pct,significant,test,ci_level,ci_low_pct,ci_high_pct" &&
	ok || bad "csv header: $(head -1 "$tmp/out")"
nfn=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["functions"]))' "$a/result.json")
[ "$(($(wc -l <"$tmp/out") - 1))" -eq $((2 * nfn)) ] && ok || bad "csv has $(wc -l <"$tmp/out") lines for $nfn functions x 2"
awk -F, 'NR > 1 && $4 == 0 && ($9 $10 $11 $12 $13 $14 $15 != "") { exit 1 }' "$tmp/out" &&
	ok || bad "the baseline's csv rows carry a diff"
awk -F, 'NR > 1 && $4 == 1 && (($11 != 0 && $11 != 1) || $12 != "welch" || $9 == "") { exit 1 }' \
	"$tmp/out" && ok || bad "csv diff rows: $(cat "$tmp/out")"
awk -F, -v l="$(basename "$a")" 'NR > 1 && $4 == 0 && $5 != l { exit 1 }' "$tmp/out" && ok ||
	bad "a directory's label is not its name"

# json parses and holds the same rows and the context differences
expect_rc 0 "$pcpbench" compare --format json "$a" "$b"
python3 -m json.tool "$tmp/out" >/dev/null && ok || bad "compare json does not parse"
python3 - "$tmp/out" "$nfn" <<'PY' && ok || bad "compare json content"
import json, sys
c = json.load(open(sys.argv[1]))
assert c["format"] == "pcpbench-compare-1"
assert len(c["rows"]) == 2 * int(sys.argv[2])
assert {"key": "workload.nr_pages", "values": ["1", "2"]} in c["context_differences"]
assert all(r["diff_pct"] is None for r in c["rows"] if r["result"] == 0)
PY

# markdown: table rows
expect_rc 0 "$pcpbench" compare --format markdown "$a" "$b"
grep -q "^| consume_stock | [0-9.]* ± [0-9.]* | [0-9.]* ± [0-9.]* | -*[0-9.]* | " "$tmp/out" && ok ||
	bad "markdown has no table rows: $(cat "$tmp/out")"
grep -q "^|---|---:|" "$tmp/out" && ok || bad "markdown table has no header rule"

# email: 72 columns, the Test System block, the method, the commands
expect_rc 0 "$pcpbench" compare --format email "$a" "$b" "$a"
no_line_over_72 "compare email"
for word in "^Test System" "  CPU model: " "  TSC frequency: " "^Method" "  timing: batch" \
	    "  empty region: " "^To reproduce:" "  B: .*pcpbench run --quick" "default.scn" \
	    "context differs: workload.nr_pages: 1 | 2 | 1" " is significant: Welch's test" \
	    "  cycles: TSC cycles at [0-9.]* MHz"; do
	grep -q -- "$word" "$tmp/out" && ok || bad "compare email lacks '$word'"
done
expect_rc 0 "$pcpbench" report --format email "$p"
no_line_over_72 "report email"
for word in "^Test System" "  NUMA nodes: " "^Method" "  runs: 2 of 5 ms" \
	    "^spinlock burst=1 - local_lock burst=1$" "^  *Diff (cycles)  *Diff %  *CI (Holm)$" "^To reproduce:" "pcp-designs.scn"; do
	grep -q -- "$word" "$tmp/out" && ok || bad "report email lacks '$word'"
done
expect_rc 0 "$pcpbench" report --format markdown "$a"
grep -q "^### Test System" "$tmp/out" && grep -q "^- timing: batch" "$tmp/out" && ok ||
	bad "report markdown: $(head -20 "$tmp/out")"
expect_rc 2 "$pcpbench" report --format csv "$a"
# --raw reads the result raw in every format, as run --raw does
expect_rc 0 "$pcpbench" report --raw --format email "$a"
grep -q "^local_lock  *Raw cycles  *STDDEV" "$tmp/out" && grep -q "means raw" "$tmp/out" && ok ||
	bad "report --raw --format email is not raw: $(cat "$tmp/out")"

# a sweep's rows are matched by configuration
expect_rc 0 "$pcpbench" compare --format csv "$p" "$p"
# (two runs each: Fieller's interval may be unbounded at that level, its ends then empty)
grep -q "^spinlock,burst=32,free_unref_page,1,.*,0.0000,0.0000,0,welch,0.[0-9]*,\(-[0-9.]*,[0-9.]*\|,\)$" "$tmp/out" && ok ||
	bad "sweep rows by config: $(cat "$tmp/out")"

# bad input: exit 2, nothing on stdout
mkdir "$tmp/empty"
head -c 400 "$a/result.json" > "$tmp/cut.json"
sed 's/"pcpbench-result-1"/"pcpbench-result-0"/' "$a/result.json" > "$tmp/other-format.json"
expect_refused "$pcpbench" compare "$a" "$tmp/empty"
grep -q "$tmp/empty: no result.json" "$tmp/err" && ok || bad "empty dir message: $(cat "$tmp/err")"
expect_refused "$pcpbench" compare "$a" "$tmp/cut.json"
grep -q "cut.json:[0-9]*:" "$tmp/err" && ok || bad "truncated message: $(cat "$tmp/err")"
expect_refused "$pcpbench" compare "$a" "$p"
grep -q "pcp model.*memcg model" "$tmp/err" && ok || bad "model message: $(cat "$tmp/err")"
expect_refused "$pcpbench" compare "$a" "$tmp/no-such-result"
expect_refused "$pcpbench" compare "$tmp/other-format.json" "$a"
grep -q "other-format.json: format \"pcpbench-result-0\"" "$tmp/err" && ok ||
	bad "format message: $(cat "$tmp/err")"
expect_refused "$pcpbench" compare "$a"
expect_refused "$pcpbench" compare --format xml "$a" "$b"
expect_refused "$pcpbench" compare --no-such-option "$a" "$b"

# fixtures: A's result with run means set by hand, every function alike
fixture() {	# NAME RUNS MEAN [DROP-FUNCTION]
	mkdir -p "$tmp/$1"
	python3 - "$a/result.json" "$tmp/$1/result.json" "$2" "$3" "${4:-}" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
runs, mean, drop = int(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
for f in r["functions"]:
    means = [mean + 0.1 * ((i % 3) - 1) for i in range(runs)]
    f["runs"] = [{"avg_cycles": m, "raw_avg_cycles": m + 40, "calls": 1000, "interrupted": 0}
                 for m in means]
    f["avg_cycles"] = sum(means) / runs
r["functions"] = [f for f in r["functions"] if f["function"] != drop or f["design"] != "spinlock"]
json.dump(r, open(sys.argv[2], "w"))
PY
}
fixture base 3 10
fixture far 3 20
fixture same 3 10
fixture base9 9 10
fixture far9 9 10.5
fixture short 3 10 refill_stock

# a cover letter's paragraphs are filled to 72 columns as wholes: the paragraph
# that starts with PATTERN and its lines indented two more, each line as full
# as the next line's first word allows (no line folded inside a filled one)
filled() {	# WHAT PATTERN
	python3 - "$tmp/out" "$2" <<'PY' && ok || bad "$1: '$2' is not one filled paragraph: $(cat "$tmp/out")"
import re, sys
lines = open(sys.argv[1]).read().splitlines()
at = [i for i, l in enumerate(lines) if re.match(sys.argv[2], l)]
if not at:
    sys.exit("no paragraph")
for i in at:
    lead = len(lines[i]) - len(lines[i].lstrip(" "))
    para = [lines[i]]
    for l in lines[i + 1:]:
        if not l.startswith(" " * (lead + 2)) or l.startswith(" " * (lead + 3)):
            break
        para.append(l)
    for a, b in zip(para, para[1:]):
        if len(a) > 72 or len(a) + 1 + len(b.split()[0]) <= 72:
            sys.exit("ragged at: %r / %r" % (a, b))
    if len(para[-1]) > 72:
        sys.exit("over 72: %r" % para[-1])
PY
}
python3 - "$tmp/base/result.json" "$tmp/noisy/result.json" <<'PY'
import json, os, sys
r = json.load(open(sys.argv[1]))
for f in r["functions"]:
    f["unstable"] = True
os.makedirs(os.path.dirname(sys.argv[2]))
json.dump(r, open(sys.argv[2], "w"))
PY
expect_rc 0 "$pcpbench" report --format email "$tmp/noisy"
no_line_over_72 "report email of unstable rows"
filled "report email" "^! unstable: "
filled "report email" "^(\\* the difference|no difference) is significant: "
filled "report email" "^  runs: "
expect_rc 0 "$pcpbench" compare --format email "$tmp/base" "$tmp/far"
no_line_over_72 "compare email"
filled "compare email" "^(\\* the difference|no difference) is significant: "
expect_rc 0 "$pcpbench" compare "$tmp/base" "$tmp/far"
[ "$(grep -c '  \*100\.00%\*  *\[[0-9.]*, [0-9.]*\]$' "$tmp/out")" -eq 4 ] && ok ||
	bad "far apart not marked: $(cat "$tmp/out")"
# 20 against 10, each 3 runs spread by 0.1: t = 10 / sqrt(2 x 0.01 / 3) = 122.5, 4 df,
# so p ~ 3e-8, still marked x 4 (Holm); geomean of the block's ratios of 2
[ "$(grep -c '^geomean:  *-  *100\.00%$' "$tmp/out")" -eq 2 ] && ok ||
	bad "no geomean row: $(cat "$tmp/out")"
flat | grep -q "Holm's step-down over the 4 differences from A of this compare" && ok ||
	bad "no Holm legend: $(cat "$tmp/out")"
expect_rc 0 "$pcpbench" compare "$tmp/base" "$tmp/same"
grep -q '\*[-0-9.]*%\*' "$tmp/out" && bad "identical marked: $(cat "$tmp/out")" || ok
[ "$(grep -c '   0\.00%  *\[-[0-9.]*, [0-9.]*\]$' "$tmp/out")" -eq 4 ] && ok ||
	bad "identical: $(cat "$tmp/out")"
# thirty rows at p = 0.04 each would mark about 1.5 at 95%; Holm marks none
python3 - "$tmp/base/result.json" "$tmp/edge/result.json" <<'PY'
import json, os, sys
r = json.load(open(sys.argv[1]))
f0 = r["functions"][0]
# 9, 10, 11 against 11.3, 12.3, 13.3: t = 2.3 / sqrt(2/3) = 2.817, 4 df,
# p = 0.0480 (the t density integrated in python3), 30 times
rows = []
for i in range(30):
    f = dict(f0, function="fn%02d" % i)
    f["runs"] = [dict(f0["runs"][0], avg_cycles=v) for v in (9, 10, 11)]
    f["avg_cycles"] = 10
    rows.append(f)
r["functions"] = rows
r["designs"] = [d for d in r["designs"] if d["design"] == f0["design"]]
os.makedirs(os.path.dirname(sys.argv[2]), exist_ok=True)
json.dump(r, open(sys.argv[2], "w"))
for f in rows:
    f["runs"] = [dict(f["runs"][0], avg_cycles=v) for v in (11.3, 12.3, 13.3)]
    f["avg_cycles"] = 12.3
os.makedirs(sys.argv[2].replace("edge", "edge2").rsplit("/", 1)[0], exist_ok=True)
json.dump(r, open(sys.argv[2].replace("edge", "edge2"), "w"))
PY
expect_rc 0 "$pcpbench" compare --format json "$tmp/edge" "$tmp/edge2"
python3 - "$tmp/out" <<'PY' && ok || bad "Holm over 30 rows at p ~ 0.047: $(head -c 1500 "$tmp/out")"
import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["rows"] if r["result"] == 1]
assert len(rows) == 30, len(rows)
assert all(0.04 < r["p_value"] < 0.05 for r in rows), [r["p_value"] for r in rows]
assert not any(r["significant"] for r in rows), "marked"
assert all(abs(r["p_holm"] - 1) < 1e-9 for r in rows), [r["p_holm"] for r in rows]
assert all(r["ci_low_pct"] < 23 < r["ci_high_pct"] for r in rows), rows[0]
PY
# 9 runs each: the same test, interval and mark as 3 (one procedure, whatever the runs)
expect_rc 0 "$pcpbench" compare --format csv "$tmp/base9" "$tmp/far9" "$tmp/base9"
[ "$(grep -c ',1,far9,.*,1,welch,0\.9[0-9]*,[0-9.]*,[0-9.]*$' "$tmp/out")" -eq 4 ] && ok ||
	bad "9 runs each: not marked, or its interval not above 0: $(cat "$tmp/out")"
[ "$(grep -c ',2,base9,.*,0,welch,0\.9[0-9]*,-[0-9.]*,[0-9.]*$' "$tmp/out")" -eq 4 ] && ok ||
	bad "9 runs each, identical: $(cat "$tmp/out")"
expect_rc 0 "$pcpbench" compare "$tmp/base" "$tmp/short"
grep -qx "missing: spinlock refill_stock: not in B" "$tmp/out" && ok ||
	bad "a row B lacks is not listed: $(cat "$tmp/out")"
expect_rc 0 "$pcpbench" compare --format json "$tmp/short" "$tmp/base"
python3 -c 'import json,sys; m = json.load(open(sys.argv[1]))["missing"]; assert m == [{"design": "spinlock", "config": "", "function": "refill_stock", "result": 0, "label": "short"}], m' \
	"$tmp/out" && ok || bad "json missing: $(cat "$tmp/out")"

# a directory whose name is not UTF-8 is compared, its bad bytes written '?'
bad_name="$tmp/$(printf 'bad\xffname')"
mkdir "$bad_name" && cp "$b/result.json" "$bad_name/"
expect_rc 0 "$pcpbench" compare "$a" "$bad_name"
grep -q "^local_lock  *A Avg cycles  *B Avg cycles" "$tmp/out" && ok ||
	bad "a non-UTF-8 directory's result is dropped: $(cat "$tmp/out")"
grep -qx "  B  bad?name ($tmp/bad?name/result.json)" "$tmp/out" && ok ||
	bad "non-UTF-8 label and path: $(grep '^  B' "$tmp/out")"
expect_rc 0 "$pcpbench" compare --format json "$a" "$bad_name"
python3 - "$tmp/out" "$nfn" <<'PY' && ok || bad "json of a non-UTF-8 directory: $(cat "$tmp/out")"
import json, sys
c = json.load(open(sys.argv[1]))
assert [r["label"] for r in c["results"]] == [c["results"][0]["label"], "bad?name"], c["results"]
assert len(c["rows"]) == 2 * int(sys.argv[2]), len(c["rows"])
PY

# a context value longer than 256 bytes, a character across byte 256, is compared whole
python3 - "$a/result.json" "$tmp" <<'PY'
import json, os, sys
for name in ("longA", "longB"):
    r = json.load(open(sys.argv[1]))
    r["scenario"]["settings"]["scenario.description"] = "x" * 254 + "\u00e9" + name[-1]
    os.makedirs(os.path.join(sys.argv[2], name))
    json.dump(r, open(os.path.join(sys.argv[2], name, "result.json"), "w"), ensure_ascii=False)
PY
long=$(printf 'x%.0s' $(seq 254))
expect_rc 0 "$pcpbench" compare "$tmp/longA" "$tmp/longB"
grep -qx "context differs: scenario.description: ${long}éA | ${long}éB" "$tmp/out" && ok ||
	bad "a long context value is cut: $(head -1 "$tmp/out" | cut -c 250-)"
expect_rc 0 "$pcpbench" compare --format json "$tmp/longA" "$tmp/longB"
python3 - "$tmp/out" <<'PY' && ok || bad "json of a long context value: $(head -c 2000 "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))["context_differences"]
v = [x["values"] for x in d if x["key"] == "scenario.description"][0]
assert v == ["x" * 254 + "\u00e9A", "x" * 254 + "\u00e9B"], v
PY

# results with different functions: a design's block stays one, no empty Diff block
expect_rc 0 "$pcpbench" "${quick[@]}" --out "$tmp/c" scenarios/cover-letter-2.2.scn
expect_rc 0 "$pcpbench" "${quick[@]}" --set run.designs=local_lock,qsbr --out "$tmp/q" \
	scenarios/default.scn
c=$(ls -d "$tmp"/c/cover-letter-2.2-*) q=$(ls -d "$tmp"/q/default-*)
expect_rc 0 "$pcpbench" compare "$a" "$c"
for design in local_lock spinlock; do
	[ "$(grep -c "^$design  *A Avg cycles" "$tmp/out")" -eq 1 ] && ok ||
		bad "$design's block is split: $(cat "$tmp/out")"
	[ "$(grep -c "^$design: B - A  *Diff" "$tmp/out")" -eq 1 ] && ok ||
		bad "$design has more than one Diff block: $(cat "$tmp/out")"
done
sed -n '/^local_lock  *A Avg/,/^$/p' "$tmp/out" | cut -d: -f1 | tr '\n' ' ' |
	grep -qx "local_lock  *A Avg cycles  *B Avg cycles consume_stock refill_stock mod_objcg_state consume_obj_stock refill_obj_stock  " &&
	ok || bad "B's functions are not after A's in their design's block: $(cat "$tmp/out")"
no_empty_diff_block() {
	awk '/ - A  *Diff \(cycles\)/ { head = 1; next } head && !/^[a-z_]*: / { exit 1 } { head = 0 }' \
		"$tmp/out" && ok || bad "$1: a Diff block with no row: $(cat "$tmp/out")"
}
no_empty_diff_block "compare A C"
for fmt in text email; do
	expect_rc 0 "$pcpbench" compare --format $fmt "$a" "$q"
	no_empty_diff_block "compare --format $fmt, a design only B has"
	grep -q "^qsbr: B - A" "$tmp/out" && bad "$fmt: qsbr, only in B, has a Diff block" || ok
	grep -q "^qsbr  *A Avg cycles  *B Avg cycles" "$tmp/out" && ok || bad "$fmt: no qsbr block"
done
expect_rc 0 "$pcpbench" compare --format markdown "$a" "$q"
table() { sed -n "/^#### $1\$/,/^\(#### \|- missing\)/p" "$tmp/out"; }
table qsbr | grep -q "Diff" && bad "markdown: qsbr, only in B, has Diff columns" || ok
table qsbr | grep -qx "|---|---:|---:|" && ok || bad "markdown: qsbr's table: $(table qsbr)"
table local_lock | grep -q " B - A Diff %" && ok ||
	bad "markdown: local_lock lost its Diff columns"

# the command to reproduce pastes back into bash and gives the same argv
argv=("$pcpbench" run --quick --set "cpus.workers=all, !0" --set run.duration_ms=50
      --set "scenario.description=it's a \"test\" * \$HOME" --out "$tmp/quoted" scenarios/default.scn)
expect_rc 0 "${argv[@]}"
r=$(ls -d "$tmp"/quoted/default-*)
same_argv() {	# WHAT COMMAND-TEXT
	local got=()
	eval "got=($2)" 2>/dev/null || { bad "$1 is not valid shell: $2"; return; }
	[ "${#got[@]}" -eq "${#argv[@]}" ] && [ "$(printf '%s\0' "${got[@]}" | od -c)" = \
		"$(printf '%s\0' "${argv[@]}" | od -c)" ] && ok || bad "$1 gives another argv: $2"
}
same_argv "result.json's context.command" \
	"$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["context"]["command"])' "$r/result.json")"
expect_rc 0 "$pcpbench" report --format email "$r"
no_line_over_72 "report email with a quoted argument"
same_argv "report email's command" "$(sed -n '/^To reproduce:/,$p' "$tmp/out" | tail -n +3)"
expect_rc 0 "$pcpbench" report --format markdown "$r"
same_argv "report markdown's command" "$(sed -n '/^### Reproduce/,$p' "$tmp/out" | sed -n 4p)"
expect_rc 0 "$pcpbench" compare --format email "$a" "$r"
same_argv "compare email's command" "$(sed -n '/^  B: /,$p' "$tmp/out" | sed 's/^  B: //')"

# a line break in a label is a blank in the CSV: a row a line, and plot --compare reads it
nl_name="$tmp/$(printf 'two\nli\rnes')"
mkdir "$nl_name" && cp "$b/result.json" "$nl_name/"
expect_rc 0 "$pcpbench" compare --format csv "$a" "$nl_name"
cp "$tmp/out" "$tmp/nl.csv"
[ "$(wc -l <"$tmp/nl.csv")" -eq $((2 * nfn + 1)) ] && ok || bad "a label's line break splits a CSV row: $(cat -A "$tmp/nl.csv")"
grep -q ",1,two li nes,[0-9]" "$tmp/nl.csv" && ok || bad "a line break is not a blank: $(cat -A "$tmp/nl.csv")"
if command -v gnuplot >/dev/null; then
	expect_rc 0 "$pcpbench" plot --compare "$tmp/nl.csv" --out "$tmp/nlplot"
	[ -s "$tmp/nlplot/nl.svg" ] && ok || bad "plot --compare drew no nl.svg"
fi

summary
