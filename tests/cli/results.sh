#!/bin/bash
# Results read back through the schema (harness/schema/schema.def): old
# results, written with keys since renamed and without a model, report as
# they did; a missing or mistyped field is refused with the file and the
# JSON path named, exit 2 and nothing on stdout, by report, compare and
# plot alike.
set -u
pcpbench=$(realpath "$1")
src=$(realpath "$2")
. "$(dirname "$0")/../lib.sh"

ref=$src/results/reference/default-kvm-2cpu/result.json
fix=$src/tests/fixtures/plots

# an old result: no model (memcg's), charge_invariant, stock_bytes, no invariant_name
grep -q '"charge_invariant"' "$ref" && ! grep -q '"model"' "$ref" && ok ||
	bad "the reference result is no longer an old one"
expect_rc 0 "$pcpbench" report "$ref"
grep -qx "local_lock: charge invariant ok; stock 88 bytes; [0-9]* operations" "$tmp/out" && ok ||
	bad "old invariant and cache: $(tail -3 "$tmp/out")"
grep -q "; workload charge, nr_pages 1; 6 runs of 2000 ms; memcg depth 2$" "$tmp/out" && ok ||
	bad "old workers line: $(grep '^workers' "$tmp/out")"
# written before the noise gate: no cv_pct, no unstable, no mark
grep -q '"unstable"' "$ref" && bad "the reference result has the noise gate's fields" || ok
grep -q '^consume_stock:  *[0-9.]*  *[0-9.]*!' "$tmp/out" && bad "an old row marked unstable" || ok
grep -q "^! unstable" "$tmp/out" && bad "an old result has the unstable legend" || ok
# the gate's mark as a result carries it, its legend naming run.max_cv; auto's verdict
python3 - "$ref" "$tmp/gated.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["functions"][0]["unstable"] = True
r["functions"][0]["cv_pct"] = 4.5
r["scenario"]["settings"]["run.max_cv"] = "3"
r["designs"][0]["runs_target_met"] = False
json.dump(r, open(sys.argv[2], "w"))
PY
expect_rc 0 "$pcpbench" report "$tmp/gated.json"
grep -q '^consume_stock:  *2\.97  *0\.04!  *3269451456$' "$tmp/out" && ok ||
	bad "no unstable mark: $(cat "$tmp/out")"
[ "$(grep -c '[0-9]!  ' "$tmp/out")" -eq 1 ] && ok || bad "more than one row marked"
grep -q "^! unstable: the run means' coefficient of variation is above run.max_cv (3%)" \
	"$tmp/out" && ok || bad "no unstable legend: $(cat "$tmp/out")"
grep -q "^local_lock: .*; 6 runs (auto), run.max_runs reached before every row" "$tmp/out" &&
	ok || bad "auto's verdict: $(grep '^local_lock:' "$tmp/out")"

# drains under their old key, "stocks": seed 000's table over them
expect_rc 0 "$pcpbench" report "$fix/drain-scaling"
grep -q "^drain_all_stock " "$tmp/out" && ok || bad "old drain name: $(cat "$tmp/out")"
grep -qx "128     168000.00       158000.00       -10000.00       -5.95" "$tmp/out" && ok ||
	bad "old drains' caches: $(cat "$tmp/out")"
# an old result and compare: of the model that results naming none belong to
expect_rc 0 "$pcpbench" compare --format json "$ref" "$fix/drain-scaling"
grep -q '"model": "memcg"' "$tmp/out" && ok || bad "old results' model: $(head -5 "$tmp/out")"

# a missing field: the file, the JSON path, exit 2, nothing printed
python3 - "$ref" "$tmp/missing.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
del r["functions"][1]["calls"]
json.dump(r, open(sys.argv[2], "w"))
PY
for cmd in "report" "report --format email" "compare $ref"; do
	expect_rc 2 "$pcpbench" $cmd "$tmp/missing.json"
	grep -qx "pcpbench: .*$tmp/missing.json: functions\[1\].calls: missing or not an integer" \
		"$tmp/err" && ok || bad "$cmd: missing field: $(cat "$tmp/err")"
	[ ! -s "$tmp/out" ] && ok || bad "$cmd: a missing field printed: $(head -3 "$tmp/out")"
done

# a mistyped field, optional and old-named: named as the file has it
python3 - "$ref" "$tmp/typed.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["designs"][1]["charge_invariant"] = 7
json.dump(r, open(sys.argv[2], "w"))
PY
expect_rc 2 "$pcpbench" report "$tmp/typed.json"
grep -qx "pcpbench: $tmp/typed.json: designs\[1\].charge_invariant: not a string" "$tmp/err" &&
	ok || bad "mistyped field: $(cat "$tmp/err")"
[ ! -s "$tmp/out" ] && ok || bad "a mistyped field printed tables"

# a model's figure of the wrong type, as its block declares it
python3 - "$ref" "$tmp/model.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["designs"][0]["events"]["hit_rate"] = "most"
json.dump(r, open(sys.argv[2], "w"))
PY
expect_rc 2 "$pcpbench" report "$tmp/model.json"
grep -q "model.json: designs\[0\].events.hit_rate: missing or not a number" "$tmp/err" && ok ||
	bad "model field: $(cat "$tmp/err")"

# plot reads through the same path, before it writes anything
if command -v gnuplot >/dev/null; then
	mkdir "$tmp/plot" && cp "$tmp/typed.json" "$tmp/plot/result.json"
	expect_rc 2 "$pcpbench" plot "$tmp/plot"
	grep -q "result.json: designs\[1\].charge_invariant: not a string" "$tmp/err" && ok ||
		bad "plot: $(cat "$tmp/err")"
	[ ! -e "$tmp/plot/plots" ] && ok || bad "plot wrote plots/ for a refused result"
fi
# a denormal figure (no run makes one; a Diff % over it reads inf) and a FIFO as result.json
# are refused by report, compare and plot alike, naming the file and the key
python3 - "$ref" "$tmp/tiny.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
j["functions"][0]["avg_cycles"] = 1e-310
json.dump(j, open(sys.argv[2], "w"))
PY
mkfifo "$tmp/fifo.json"
# plot takes result directories: the same in one each
mkdir -p "$tmp/tinyd" "$tmp/fifod" && cp "$tmp/tiny.json" "$tmp/tinyd/result.json" &&
	mkfifo "$tmp/fifod/result.json"
for cmd in report "compare $ref" plot; do
	tiny=$tmp/tiny.json fifo=$tmp/fifo.json
	[ "$cmd" = plot ] && tiny=$tmp/tinyd fifo=$tmp/fifod
	expect_rc 2 timeout 20 "$pcpbench" $cmd "$tiny"
	grep -q "tiny.*: result.functions\[0\].avg_cycles: 1e-310 is not a figure a run can produce" \
		"$tmp/err" && ok || bad "$cmd, a denormal: $(cat "$tmp/err")"
	expect_rc 2 timeout 20 "$pcpbench" $cmd "$fifo"
	# (plot's walk passes a result.json that is not a regular file by, and finds none)
	grep -Eq "fifo.*: (not a regular file|no result in it)" "$tmp/err" && ok ||
		bad "$cmd, a FIFO: $(cat "$tmp/err")"
done

# the reference result as f5501e3 wrote it, format pcpbench-result-1 before designs[] had
# design_name: read by every reader, the name taken from the design's label
old=$src/tests/fixtures/results/reference-f5501e3/result.json
grep -q '"pcpbench-result-1"' "$old" && ! grep -q '"design_name"' "$old" && ok ||
	bad "the f5501e3 fixture is not the old form"
expect_rc 0 "$pcpbench" report "$old"
grep -q "^spinlock - local_lock   Diff (cycles)" "$tmp/out" && ok ||
	bad "f5501e3's result: $(cat "$tmp/out" "$tmp/err")"
for fmt in email markdown kv mmtests; do
	expect_rc 0 "$pcpbench" report --format "$fmt" "$old"
done
grep -q "^spinlock.consume_stock.avg_cycles: 17.4" <("$pcpbench" report --format kv "$old") && ok ||
	bad "f5501e3's result in kv: $("$pcpbench" report --format kv "$old" 2>&1 | head -3)"
expect_rc 0 "$pcpbench" compare "$old" "$ref"
mkdir -p "$tmp/oldplot" && cp "$old" "$tmp/oldplot/result.json"
command -v gnuplot >/dev/null && { expect_rc 0 "$pcpbench" plot "$tmp/oldplot"; }

# compare: a setting's list and numbers as its key reads them, the TSC in MHz however written
python3 - "$ref" "$tmp/spelled.json" "$tmp/othertsc.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert j["scenario"]["settings"]["run.designs"] == "local_lock, spinlock"
j["scenario"]["settings"]["run.designs"] = "local_lock,spinlock"
j["scenario"]["settings"]["run.duration_ms"] = "2e3"
j["context"]["tsc_hz"] = int(j["context"]["tsc_hz"])
json.dump(j, open(sys.argv[2], "w"))
j["context"]["tsc_hz"] = 3000000000
j["scenario"]["settings"]["run.designs"] = "spinlock, local_lock"
json.dump(j, open(sys.argv[3], "w"))
PY
expect_rc 0 "$pcpbench" compare "$ref" "$tmp/spelled.json"
grep -q "context differs" "$tmp/out" && bad "one context, two spellings: $(grep context "$tmp/out")" || ok
expect_rc 0 "$pcpbench" compare "$ref" "$tmp/othertsc.json"
grep -qx "context differs: tsc_hz: 2600.0 MHz | 3000.0 MHz" "$tmp/out" && ok ||
	bad "an integer tsc_hz: $(grep context "$tmp/out")"
grep -qx "context differs: run.designs: local_lock, spinlock | spinlock, local_lock" "$tmp/out" &&
	ok || bad "designs in another order: $(grep context "$tmp/out")"

summary results
