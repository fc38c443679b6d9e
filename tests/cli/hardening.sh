#!/bin/bash
# What a hostile pass found in the newest surfaces, each checked as a user
# or a stranger would meet it: a scenario named without a path is read
# from the data directory alone, never the current directory's; CSV cells
# a spreadsheet would take for a formula are text; Markdown shows a
# result's HTML, |, links and setting names as text, and a carriage
# return in a result cannot close its code fence; integer keys compare
# as integers (a sweep and compare tell 2^53 from 2^53 + 1). What the
# guest hands back and --add's destinations: tests/vm/hostile.sh.
#
# usage: hardening.sh PCPBENCH SOURCE_ROOT
set -u
. "$(dirname "$0")/../lib.sh"
pcpbench=$(realpath "$1")
src=$(realpath "$2")
ref=$src/tests/fixtures/results/reference-f5501e3

# ---- a scenario named without a path: the data directory's ----
mkdir -p "$tmp/cwd/scenarios"
printf '[scenario]\ndescription = a stranger left this here\n' >"$tmp/cwd/scenarios/default.scn"
cp "$tmp/cwd/scenarios/default.scn" "$tmp/cwd/scenarios/seeds.ini"
(cd "$tmp/cwd" && "$pcpbench" run --dry-run) >"$tmp/out" 2>"$tmp/err"
grep -qx "scenario default ($src/scenarios/default.scn)" "$tmp/out" && ok ||
	bad "run with no scenario in a folder with scenarios/default.scn: $(head -n 1 "$tmp/out") $(cat "$tmp/err")"
(cd "$tmp/cwd" && "$pcpbench" reproduce --dry-run) >"$tmp/out" 2>"$tmp/err"
grep -q "claims from $src/scenarios/seeds.ini" "$tmp/out" && ok ||
	bad "reproduce in that folder: $(head -n 1 "$tmp/out") $(cat "$tmp/err")"
# a path is the user's explicit choice
(cd "$tmp/cwd" && "$pcpbench" run --dry-run ./scenarios/default.scn) >"$tmp/out" 2>&1
grep -qx "scenario default (./scenarios/default.scn)" "$tmp/out" && ok || bad "a path: $(cat "$tmp/out")"
# PCPBENCH_DATADIR names another data directory
mkdir -p "$tmp/data/scenarios"
cp "$src/scenarios/default.scn" "$tmp/data/scenarios/"
expect_rc 0 env PCPBENCH_DATADIR="$tmp/data" "$pcpbench" run --dry-run
grep -qx "scenario default ($tmp/data/scenarios/default.scn)" "$tmp/out" && ok || bad "PCPBENCH_DATADIR: $(head -n 1 "$tmp/out")"

# ---- names a spreadsheet or a Markdown page would take for something else ----
mkdir -p "$tmp/evil"
python3 - "$ref/result.json" "$tmp/evil/result.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
rename = {"local_lock": "=HYPERLINK(\"http://x\")", "spinlock": "<b>spin|lock</b>"}
for d in r["designs"]:
    d["design"] = rename.get(d["design"], d["design"])
for key in ("functions", "counters", "drains", "contention", "interruptions", "counters_per_call"):
    for row in r.get(key, []):
        if "design" in row:
            row["design"] = rename.get(row["design"], row["design"])
for f in r["functions"]:
    if f["function"] == "refill_stock":
        f["function"] = "@SUM(1+1)"
r["scenario"]["settings"]["scenario.description"] = "<script>alert(1)</script> a|b"
json.dump(r, open(sys.argv[2], "w"))
EOF
expect_rc 0 "$pcpbench" compare --format csv "$tmp/evil" "$tmp/evil"
if grep -q '^=\|,=\|^@\|,@\|,+\|,-[^0-9]' "$tmp/out"; then
	bad "compare --format csv writes a formula cell: $(grep '=HYP\|@SUM' "$tmp/out" | head -n 2)"
else
	ok
fi
grep -q "\"'@SUM(1+1)\"" "$tmp/out" && ok || bad "the function as text: $(grep SUM "$tmp/out" | head -n 1)"
expect_rc 0 "$pcpbench" report --format markdown "$tmp/evil"
grep -q '<script>' "$tmp/out" && bad "report --format markdown prints the description's HTML" || ok
grep -q '^&lt;script&gt;alert(1)&lt;/script&gt; a\\|b$' "$tmp/out" && ok ||
	bad "the description as text: $(sed -n 3p "$tmp/out")"
expect_rc 0 "$pcpbench" compare --format markdown "$tmp/evil" "$tmp/evil"
grep -q '<b>' "$tmp/out" && bad "compare --format markdown prints a design's HTML" || ok
grep -q '^#### &lt;b&gt;spin\\|lock&lt;/b&gt;$' "$tmp/out" && ok ||
	bad "the design as a block's title: $(grep '^####' "$tmp/out" | head -n 3)"
# every table row of the compare has as many cells as its header
python3 - "$tmp/out" <<'EOF' && ok || bad "compare's markdown rows (above)"
import re, sys
cells = lambda l: len(re.findall(r'(?<!\\)\|', l))
want = None
for l in open(sys.argv[1]):
    if l.startswith("| function |"):
        want = cells(l)
    elif l.startswith("| ") and want is not None and cells(l) != want:
        print("a row of %d cells under a header of %d: %s" % (cells(l), want, l.strip()))
        sys.exit(1)
EOF

# a setting's name (compare's "context differs" line) and a link, as text;
# a carriage return, which ends a Markdown line (and a code fence), written
# \x0d as every control byte is
for v in 1 2; do
	mkdir -p "$tmp/key$v"
	python3 - "$ref/result.json" "$tmp/key$v/result.json" "$v" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
r["scenario"]["settings"]["<i>k|x</i>"] = sys.argv[3]
r["scenario"]["settings"]["scenario.description"] = "![x](http://x/a.png) [click](http://x)"
json.dump(r, open(sys.argv[2], "w"))
EOF
done
expect_rc 0 "$pcpbench" compare --format markdown "$tmp/key1" "$tmp/key2"
grep -q '<i>' "$tmp/out" && bad "compare --format markdown prints a setting's HTML: $(grep '<i>' "$tmp/out")" || ok
grep -qF -- '- context differs: &lt;i&gt;k\|x&lt;/i&gt;: 1 | 2' "$tmp/out" && ok ||
	bad "the setting as text: $(grep 'context differs' "$tmp/out")"
expect_rc 0 "$pcpbench" report --format markdown "$tmp/key1"
grep -qF '!\[x\](http://x/a.png) \[click\](http://x)' "$tmp/out" && ok ||
	bad "the description's links as text: $(grep -F 'http://x' "$tmp/out")"
mkdir -p "$tmp/cr"
python3 - "$ref/result.json" "$tmp/cr/result.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
r["context"]["host"] = "box\r```\r### To reproduce"
json.dump(r, open(sys.argv[2], "w"))
EOF
expect_rc 0 "$pcpbench" report --format markdown "$tmp/cr"
! grep -q "$(printf '\r')" "$tmp/out" && grep -qF 'box\x0d```\x0d### To reproduce' "$tmp/out" && ok ||
	bad "a carriage return in the host, raw: $(grep -a 'host:' "$tmp/out" | cat -A)"

# ---- integer keys as integers ----
printf '[sweep]\nworkload.seed = 9007199254740992, 9007199254740993\n' >"$tmp/seed.scn"
expect_rc 0 "$pcpbench" run --dry-run "$tmp/seed.scn"
grep -q '2 sweep steps' "$tmp/out" && ok || bad "a sweep of 2^53 and 2^53 + 1: $(cat "$tmp/out" "$tmp/err")"
printf '[sweep]\nworkload.seed = 9007199254740993, 9007199254740993\n' >"$tmp/seed2.scn"
expect_rc 2 "$pcpbench" run --dry-run "$tmp/seed2.scn"
for s in 9007199254740992 9007199254740993; do
	mkdir -p "$tmp/s$s"
	python3 - "$ref/result.json" "$tmp/s$s/result.json" "$s" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
r["scenario"]["settings"]["workload.seed"] = sys.argv[3]
json.dump(r, open(sys.argv[2], "w"))
EOF
done
expect_rc 0 "$pcpbench" compare "$tmp/s9007199254740992" "$tmp/s9007199254740993"
grep -q '^context differs: workload.seed: 9007199254740992 | 9007199254740993$' "$tmp/out" && ok ||
	bad "compare of two seeds: $(grep 'context differs' "$tmp/out")"
summary hardening
