#!/bin/bash
# The command line as a user meets it: help, version, exit statuses, a real
# quick run whose saved result reports back to the same tables, and nothing
# half-written when a run cannot start.
set -u
pcpbench=$(realpath "$1")
src=$2
. "$(dirname "$0")/../lib.sh"

cd "$src" || exit 1

expect_rc 0 "$pcpbench" --version
grep -q '^pcpbench [0-9]' "$tmp/out" && ok || bad "--version output"
expect_rc 0 "$pcpbench" --help
for cmd in run report info list calibrate cpus; do
	expect_rc 0 "$pcpbench" "$cmd" --help
	grep -q "^usage: pcpbench $cmd" "$tmp/out" && ok || bad "$cmd --help has no usage line"
done
expect_rc 2 "$pcpbench"
expect_rc 2 "$pcpbench" frobnicate
expect_rc 2 "$pcpbench" run --no-such-option
expect_rc 2 "$pcpbench" report
expect_rc 2 "$pcpbench" report "$src/README.md"
expect_rc 2 "$pcpbench" --topology "numa:8 core:16 pu:1" run
grep -q "not this machine.s" "$tmp/err" && ok || bad "synthetic run refusal does not say why: $(cat "$tmp/err")"
expect_rc 2 "$pcpbench" --topology "nonsense:::" info

# list names every design and key
expect_rc 0 "$pcpbench" list
for word in local_lock spinlock charge run.designs cpus.workers workload.nr_pages; do
	grep -q "$word" "$tmp/out" && ok || bad "list lacks $word"
done

# rseq stops a scenario where it cannot run, naming why; it keeps one slot
expect_rc 2 env GLIBC_TUNABLES=glibc.pthread.rseq=0 "$pcpbench" run --dry-run \
	--set run.designs=local_lock,rseq
grep -q "run.designs: rseq: not on this machine: glibc registered no rseq area" "$tmp/err" && ok ||
	bad "rseq without glibc's rseq area: $(cat "$tmp/err")"
expect_rc 2 "$pcpbench" run --dry-run --set run.designs=rseq --set stock.slots=7
grep -q "stock.slots: 7: rseq keeps one slot" "$tmp/err" && ok || bad "rseq with 7 slots: $(cat "$tmp/err")"
# the stock's placement: where each design's kernel puts it, an offset only where packed
expect_rc 0 "$pcpbench" list
grep -q "^ *local_lock .*stock packed at byte 0 of its line" "$tmp/out" &&
	grep -q "^ *spinlock .*stock aligned to a cache line" "$tmp/out" && ok ||
	bad "list: the designs' stock placement"
printf '[run]\ndesigns = local_lock\n[stock]\nplacement = aligned\noffset = 8\n' >"$tmp/place.scn"
expect_rc 2 "$pcpbench" run --dry-run "$tmp/place.scn"
grep -q "place.scn:5: stock.offset: 8: an aligned stock starts its cache line" "$tmp/err" && ok ||
	bad "an offset for an aligned stock: $(cat "$tmp/err")"
for word in rseq qpw; do
	"$pcpbench" list | grep -q "^ *$word " && ok || bad "list lacks the design $word"
done

# cpus on the synthetic 8-node machine
expect_rc 0 "$pcpbench" --topology "numa:8 core:16 pu:1" cpus node:3 all housekeeping
grep -q "^node:3	48-63	(16 CPUs)" "$tmp/out" && ok || bad "cpus node:3: $(cat "$tmp/out")"
grep -q "^housekeeping	0-127	(128 CPUs)" "$tmp/out" && ok || bad "cpus housekeeping"
expect_rc 0 env PCPBENCH_TOPOLOGY="numa:8 core:16 pu:1" "$pcpbench" cpus --isolated 8-15 housekeeping
grep -q "^housekeeping	0-7,16-127" "$tmp/out" && ok || bad "PCPBENCH_TOPOLOGY: $(cat "$tmp/out")"

# info, in both forms
expect_rc 0 "$pcpbench" info
for word in "CPU model" "NUMA nodes" "TSC frequency" "TSC step" "empty region call" \
	    "empty region batch" "perf events" "isolated CPUs" "nohz_full"; do
	grep -q "$word" "$tmp/out" && ok || bad "info lacks '$word'"
done
expect_rc 0 "$pcpbench" info --json
grep -q '"timer_overhead"' "$tmp/out" && grep -q '"numa_nodes"' "$tmp/out" && ok || bad "info --json"

# a bad scenario writes nothing
expect_rc 2 "$pcpbench" run --out "$tmp/none" tests/scenarios/unknown-key.scn
[ ! -e "$tmp/none" ] && ok || bad "a rejected scenario left $tmp/none"

# a real run on every CPU, both timing modes, and its report
for timing in batch call; do
	out="$tmp/results-$timing"
	expect_rc 0 "$pcpbench" run --quick --set run.duration_ms=30 --set run.warmup_ms=10 \
		--set cpus.workers=all --set run.timing=$timing --out "$out"
	cp "$tmp/out" "$tmp/run-$timing.txt"
	dir=$(ls -d "$out"/default-*/ 2>/dev/null | head -1)
	[ -n "$dir" ] && ok || { bad "no result directory in $out"; continue; }
	for f in result.json functions.csv runs.csv histogram.csv tables.txt; do
		[ -s "$dir/$f" ] && ok || bad "$timing: $f missing"
	done
	ls -a "$out" | grep -q '\.tmp\.' && bad "$timing: temporary directory left" || ok
	# the invariant under its generic key, as the schema writes it
	grep -q '"invariant": "ok"' "$dir/result.json" && ! grep -q '"charge_invariant"' "$dir/result.json" &&
		ok || bad "$timing: result.json's invariant key"
	grep -q "^spinlock - local_lock   Diff (cycles)   Diff %" "$tmp/run-$timing.txt" && ok ||
		bad "$timing: no Diff block"
	grep -q "^consume_stock:" "$tmp/run-$timing.txt" && ok || bad "$timing: no consume_stock row"
	grep -q "charge invariant ok" "$tmp/run-$timing.txt" && ok || bad "$timing: invariant"
	grep -q "timing: $timing" "$tmp/run-$timing.txt" && ok || bad "$timing: mode not named"
	cmp -s "$tmp/run-$timing.txt" "$dir/tables.txt" && ok || bad "$timing: tables.txt differs from stdout"
	expect_rc 0 "$pcpbench" report "$dir/result.json"
	cmp -s "$tmp/out" "$tmp/run-$timing.txt" && ok || bad "$timing: report differs: $(diff "$tmp/out" "$tmp/run-$timing.txt")"
	expect_rc 0 "$pcpbench" report "$dir"
	head -1 "$dir/functions.csv" | grep -q '^design,function,timing,avg_cycles,stddev,calls,p50,p99,p999,max,cv_pct,unstable$' &&
		ok || bad "functions.csv header"
	[ "$(grep -c '^local_lock,consume_stock' "$dir/runs.csv")" -eq 2 ] && ok || bad "runs.csv rows"
	# raw figures: the timer included, the same from the run and from the result
	expect_rc 0 "$pcpbench" report --raw "$dir"
	grep -q "^local_lock  *Raw cycles" "$tmp/out" && ok || bad "$timing: report --raw: $(cat "$tmp/out")"
	grep -q "included, not subtracted" "$tmp/out" && ok || bad "$timing: raw header"
	# the runs alternated between the designs, and result.json says in which order
	grep -q '"mode": "interleaved"' "$dir/result.json" && ok || bad "$timing: run_order"
	tr -d ' \n' < "$dir/result.json" | grep -q '"runs":\[{"design":"local_lock","run":1},{"design":"spinlock","run":1},{"design":"local_lock","run":2}' &&
		ok || bad "$timing: not interleaved"
	grep -q '"overhead_ticks"' "$dir/result.json" && ok || bad "$timing: overhead_ticks"
done

# pcp_trylock runs v6.2's per_cpu_pages (the lock first, whole cache lines) by default,
# the series' designs theirs, and pcp.lock_placement overrides both; result.json says
# which each ran with, and the tables and `list` say it
for placement in design end; do
	expect_rc 0 "$pcpbench" run scenarios/pcp-designs.scn --quick --set run.runs=1 \
		--set run.duration_ms=5 --set run.warmup_ms=0 --set workload.burst=1 \
		--set run.designs=spinlock,pcp_trylock,local_lock --set pcp.lock_placement=$placement \
		--out "$tmp/lock-$placement"
	python3 - "$placement" "$(ls -d "$tmp/lock-$placement"/pcp-designs-*/ | head -1)/result.json" <<'PY' && ok ||
import json, sys
placement, path = sys.argv[1], sys.argv[2]
want = {"spinlock": ("end", 256), "local_lock": ("none", None),
        "pcp_trylock": ("first_line", 0) if placement == "design" else ("end", 256)}
bad = 0
for d in json.load(open(path))["designs"]:
    got = (d.get("lock_placement"), d.get("lock_offset"))
    if got != want[d["design"]]:
        print("%s: %s ran with the lock %s, want %s" % (placement, d["design"], got,
                                                       want[d["design"]]), file=sys.stderr)
        bad = 1
    if d["design"] == "pcp_trylock" and placement == "design" and d["cache_bytes"] % 64:
        print("pcp_trylock: per_cpu_pages %d bytes, not cache-line aligned" % d["cache_bytes"],
              file=sys.stderr)
        bad = 1
sys.exit(bad)
PY
		bad "lock_placement=$placement: result.json's placements"
done
grep -q "^pcp_trylock: per_cpu_pages lock end, at byte 256" "$tmp/out" && ok ||
	bad "the tables do not say where pcp_trylock's lock was: $(cat "$tmp/out")"
expect_rc 0 "$pcpbench" list
grep -q "^ *pcp_trylock .*per_cpu_pages lock first_line (v6.2's layout)" "$tmp/out" &&
	grep -q "^ *spinlock .*per_cpu_pages lock end (the series' layout)" "$tmp/out" && ok ||
	bad "list does not say where each pcp design keeps its lock"

# blocked order: every run of a design before the next
expect_rc 0 "$pcpbench" run --quick --set run.duration_ms=20 --set run.warmup_ms=0 \
	--set run.order=blocked --out "$tmp/blocked"
tr -d ' \n' < "$(ls -d "$tmp"/blocked/default-*/ | head -1)/result.json" |
	grep -q '"runs":\[{"design":"local_lock","run":1},{"design":"local_lock","run":2},{"design":"spinlock","run":1}' &&
	ok || bad "blocked order"
# the baseline must be one of the designs
expect_rc 2 "$pcpbench" run --dry-run --set run.baseline=qsbr
grep -q "run.baseline: 'qsbr' is not one of run.designs" "$tmp/err" && ok || bad "baseline: $(cat "$tmp/err")"

# an op-bounded run
expect_rc 0 "$pcpbench" run --set run.ops=20000 --set run.runs=1 --set run.warmup_ms=0 \
	--set run.designs=spinlock --out "$tmp/ops"
grep -q "^spinlock " "$tmp/out" && ok || bad "op-bounded run"

# perf counters: an unknown event stops the run before it starts, naming it
expect_rc 2 "$pcpbench" run --dry-run --events cycles,no-such-event
grep -q "counters.events: unknown event 'no-such-event'" "$tmp/err" && ok || bad "unknown event: $(cat "$tmp/err")"
# known events run; hardware ones are counted only where perf_event_open() takes them
expect_rc 0 "$pcpbench" run --quick --set run.duration_ms=30 --set run.warmup_ms=0 \
	--events cycles,instructions,task-clock,context-switches --out "$tmp/ctr"
"$pcpbench" info --json > "$tmp/info.json"
if grep -q '"cycles": "ok"' "$tmp/info.json"; then
	grep -Eq '^ +[0-9,]+ +cycles' "$tmp/out" && ok || bad "cycles not counted on a machine with a PMU"
else
	grep -q '<not supported>      cycles' "$tmp/out" && ok || bad "cycles not marked <not supported>"
fi
grep -Eq '^ +[0-9.]+ msec +task-clock' "$tmp/out" && ok || bad "task-clock not counted: $(cat "$tmp/out")"
dir=$(ls -d "$tmp/ctr"/default-*/ | head -1)
grep -q '^local_lock,all,task-clock,counted,' "$dir/counters.csv" && ok || bad "counters.csv"
grep -q '"counters"' "$dir/result.json" && ok || bad "result.json has no counters"
expect_rc 2 "$pcpbench" run --dry-run --set counters.per_call=on --events task-clock
grep -q "counters.per_call: per-call counter reads need run.timing = call" "$tmp/err" && ok || bad "per_call in batch"

# drains from the coordinator: counted, timed, and their tables printed
expect_rc 0 "$pcpbench" run --set run.runs=1 --set run.duration_ms=200 --set run.warmup_ms=10 \
	--set drain.count=40 --set run.designs=local_lock,spinlock --set counters.events= \
	--set run.timing=call --out "$tmp/drains"
# exactly drain.count a run, or a note naming the drains that a late schedule lost
# (a loaded machine delays them past the run's end)
short() { grep -q "^note: $1: drain.count = 40 a run, but [0-9]* of 40 drains fired" "$tmp/out"; }
{ grep -Eq '^local_lock +40 ' "$tmp/out" || short local_lock; } && ok ||
	bad "40 drains not reported: $(cat "$tmp/out")"
grep -q '^interruptions' "$tmp/out" && ok || bad "no interruptions table"
{ grep -q '^spinlock: drain_all_stock: 40 calls' "$tmp/out" ||
	{ short spinlock && grep -q '^spinlock: drain_all_stock: [0-9]* calls' "$tmp/out"; }; } &&
	ok || bad "no contention summary: $(cat "$tmp/out")"
dir=$(ls -d "$tmp/drains"/default-*/ | head -1)
for key in '"drains"' '"contention"' '"interruptions"' '"completion_p99"' '"stolen_ns"' \
	'"waited_preempted"'; do
	grep -q "$key" "$dir/result.json" && ok || bad "result.json lacks $key"
done
# the line between the drainer's CPU and the worker's, wherever they are two
python3 - "$dir/result.json" <<'PY' && ok || bad "no line_cycles beside the drains"
import json, sys
r = json.load(open(sys.argv[1]))
worker = r["designs"][0]["workers"][0]["cpu"]
for d in r["drains"]:
    if d["coordinator_cpu"] != worker and not d.get("line_cycles", 0) > 0:
        sys.exit(1)
PY
# a system call between two operations: the calls still balance
expect_rc 0 "$pcpbench" run --set run.runs=1 --set run.duration_ms=50 --set run.warmup_ms=1 \
	--set run.timing=call --set workload.between=syscall --set counters.events= \
	--set drain.rate_hz=100 --out "$tmp/between"
grep -q '^local_lock: charge invariant ok' "$tmp/out" && grep -q '^spinlock: charge invariant ok' \
	"$tmp/out" && ok || bad "workload.between=syscall: $(cat "$tmp/out")"
# a page cleared before each page charge: the calls still balance, and the plan says so
expect_rc 0 "$pcpbench" run --set run.runs=1 --set run.duration_ms=50 --set run.warmup_ms=1 \
	--set run.timing=call --set workload.clear_pages=3 --set counters.events= \
	--set drain.rate_hz=100 --out "$tmp/clear"
grep -q '^local_lock: charge invariant ok' "$tmp/out" && grep -q '^spinlock: charge invariant ok' \
	"$tmp/out" && ok || bad "workload.clear_pages=3: $(cat "$tmp/out")"
expect_rc 0 "$pcpbench" run --dry-run --set run.timing=call --set workload.clear_pages=3
grep -Eq 'clear_page_(orig|rep|erms)\(\) before each page charge, 3 page' "$tmp/out" && ok ||
	bad "the plan does not name the clearing: $(cat "$tmp/out")"
# batch timing has no page charge to clear before: the key is named, nothing is run
expect_rc 2 "$pcpbench" run --set workload.clear_pages=1 --set run.timing=batch --out "$tmp/clearb"
grep -q 'workload.clear_pages: 1: pages are cleared before' "$tmp/err" && ok ||
	bad "clear_pages with batch timing: $(cat "$tmp/err")"
[ ! -e "$tmp/clearb" ] && ok || bad "clear_pages with batch timing wrote $tmp/clearb"
# one page is cleared before a charge of one: a charge of two is refused, by the key
expect_rc 2 "$pcpbench" run --dry-run --set run.timing=call --set workload.clear_pages=2 \
	--set workload.nr_pages=2
grep -q 'workload.clear_pages: 2: a page is cleared before a charge of one page' "$tmp/err" &&
	ok || bad "clear_pages with nr_pages 2: $(cat "$tmp/err")"
expect_rc 2 "$pcpbench" run --dry-run --set workload.clear_pages=65537
grep -q 'workload.clear_pages' "$tmp/err" && ok || bad "clear_pages out of range: $(cat "$tmp/err")"
expect_rc 2 "$pcpbench" run --dry-run --set workload.between=sleep
grep -q "workload.between: 'sleep'" "$tmp/err" && ok || bad "bad between: $(cat "$tmp/err")"

# think_ns at its limit: a run still ends at its time, not 256 operations of 10 ms later
# (before: 45 s for this; the bound is loose, for a loaded machine)
SECONDS=0
expect_rc 0 "$pcpbench" run --set run.runs=4 --set run.duration_ms=50 --set run.warmup_ms=10 \
	--set run.timing=call --set workload.think_ns=10000000 --set counters.events= --out "$tmp/think"
[ "$SECONDS" -lt 20 ] && ok || bad "think_ns=10ms: 8 runs of 50 ms took $SECONDS s"

# more drains than a run can fire: the shortfall is named, not hidden
expect_rc 0 "$pcpbench" run --set run.runs=1 --set run.duration_ms=50 --set run.warmup_ms=1 \
	--set drain.count=100000000 --set run.designs=spinlock --set counters.events= --out "$tmp/short"
grep -q "^note: spinlock: drain.count = 100000000 a run, but [0-9]* of 100000000 drains fired" \
	"$tmp/out" && ok || bad "no note of the drains not fired: $(cat "$tmp/out")"
# the remote drain counts those that waited on a preempted holder, at most every drain
python3 - "$dir/result.json" <<'PY' && ok || bad "waited_preempted: not a count of the remote drains"
import json, sys
d = {x["design"]: x for x in json.load(open(sys.argv[1]))["drains"]}
sp, ll = d["spinlock"], d["local_lock"]
sys.exit(0 if 0 <= sp["waited_preempted"] <= sp["count"] and "waited_preempted" not in ll else 1)
PY
grep -q 'waited on preempted' "$tmp/out" && ok || bad "no preempted column: $(cat "$tmp/out")"
expect_rc 2 "$pcpbench" run --dry-run --set drain.rate_hz=fast
grep -q "drain.rate_hz: 'fast' is not a number in 0..1000000" "$tmp/err" && ok || bad "bad rate: $(cat "$tmp/err")"

# seed 000's drain shape (charged, online and isolated virtual CPUs, refilled on
# another CPU) under live workers: every design of both models keeps its invariant
shape="--set drain.count=20 --set drain.stocks=6 --set drain.online=16 --set drain.isolated=25"
expect_rc 0 "$pcpbench" run --set run.runs=1 --set run.duration_ms=100 --set run.warmup_ms=10 \
	$shape --set counters.events= --set run.timing=call --out "$tmp/shape" \
	--set run.designs=local_lock,isolated_skip,spinlock,local_trylock,nocache,qsbr,spinlock_cas
[ "$(grep -c ': charge invariant ok' "$tmp/out")" = 7 ] && ok || bad "memcg shape: $(cat "$tmp/out")"
grep -q '"online": 16' "$tmp"/shape/default-*/result.json && ok || bad "result.json: online"
grep -q '"walk_cycles_per_cpu"' "$tmp"/shape/default-*/result.json && ok || bad "no walk figure"
expect_rc 0 "$pcpbench" run "$src/scenarios/pcp-designs.scn" --set run.runs=1 \
	--set run.duration_ms=100 --set run.warmup_ms=10 $shape --set counters.events= --out "$tmp/shape"
[ "$(grep -c ': page invariant ok' "$tmp/out")" = 8 ] && ok || bad "pcp shape: $(cat "$tmp/out")"
expect_rc 2 "$pcpbench" run --dry-run --set drain.isolated=101
grep -q "drain.isolated" "$tmp/err" && ok || bad "bad isolated share: $(cat "$tmp/err")"

# a comment of any length stays a comment; an indented line is a line of its own
{
	printf '[run]\n;%0200d runs = 999\n' 0
	printf '  runs = 3\n  timing = call\n'
} > "$tmp/long.scn"
expect_rc 0 "$pcpbench" run --dry-run "$tmp/long.scn"
grep -q "timing call, 3 runs" "$tmp/out" && ok || bad "long comment or indented lines: $(cat "$tmp/out")"

# result.json is untrusted: figures no run can produce are refused, not printed
res=$(ls "$tmp"/results-batch/default-*/result.json | head -1)
sed 's/"avg_cycles": [-0-9.e+]*/"avg_cycles": 1e308/' "$res" > "$tmp/extreme.json"
expect_rc 2 "$pcpbench" report "$tmp/extreme.json"
grep -q "is not a figure a run can produce" "$tmp/err" && ok || bad "extreme report: $(cat "$tmp/err")"
head -c 300 "$res" > "$tmp/cut.json"
expect_rc 2 "$pcpbench" report "$tmp/cut.json"
# and a figure of the wrong type is no figure, never printed as 0
sed '0,/"avg_cycles": [-0-9.e+]*/s//"avg_cycles": "abc"/' "$res" > "$tmp/typed.json"
expect_rc 2 "$pcpbench" report "$tmp/typed.json"
grep -q "functions\[0\].avg_cycles: missing or not a number" "$tmp/err" && ok ||
	bad "a string avg_cycles: $(cat "$tmp/err")"
[ ! -s "$tmp/out" ] && ok || bad "a string avg_cycles printed tables"

# an unusable --out is found before anything runs
touch "$tmp/a-file"
expect_rc 2 "$pcpbench" run --out "$tmp/a-file"
grep -q -- "--out $tmp/a-file: not a directory" "$tmp/err" && ok || bad "--out file: $(cat "$tmp/err")"

# report --format email's command, pasted into bash, gives pcpbench the run's argv exactly:
# hostile quotes, $(), backticks, a newline and a 10 kB argument; a fake pcpbench records it
mkdir -p "$tmp/realbin" "$tmp/fakebin"
ln -s "$(cd "$(dirname "$pcpbench")" && pwd)/$(basename "$pcpbench")" "$tmp/realbin/pcpbench"
cat > "$tmp/fakebin/pcpbench" <<'FAKE'
#!/bin/bash
printf '%s\0' "$@" > "$PASTE_ARGV"
FAKE
chmod +x "$tmp/fakebin/pcpbench"
big=$(head -c 10240 /dev/zero | tr '\0' y)
hostile="it's \$(touch $tmp/pwned1) \`touch $tmp/pwned2\`; touch $tmp/pwned3 \"q\" \\ end
second line"
# and bytes a terminal acts on: an OSC retitle, an erase, a carriage return, C1's CSI
hostile+=$' \e]0;pwned\a \e[2J \r \xc2\x9b1m end'
# nothing pcpbench prints holds one: C0 but the line break and the tab, DEL, C1
raw_controls() { LC_ALL=C grep -qP '[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]' "$@"; }
args=(run --quick --set run.duration_ms=5 --set run.warmup_ms=0 --set run.designs=local_lock
      --set "scenario.description=$hostile $big" --set "scenario.name=paste" --events "task-clock"
      --set "workload.seed=7" --out "$tmp/paste dir")
PATH=$tmp/realbin:$PATH expect_rc 0 pcpbench "${args[@]}"
r=$(ls -d "$tmp/paste dir"/paste-*/ | head -1)
raw_controls "$tmp/out" && bad "the run printed a control character raw" || ok
# the description's line break is written \n: no line of its own in the tables or the letter
grep -q "^second line" "$tmp/out" && bad "the run printed the description's line break" || ok
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))["scenario"]["settings"]["scenario.description"]
sys.exit("\n" in d or "end\\nsecond line" not in d)' "$r/result.json" && ok ||
	bad "result.json's description holds a line break"
expect_rc 0 "$pcpbench" report "$r" --format email
raw_controls "$tmp/out" && bad "the email report printed a control character raw" || ok
grep -q "^second line" "$tmp/out" && bad "the letter printed the description's line break" || ok
sed -n '/^To reproduce:$/,$p' "$tmp/out" | tail -n +3 > "$tmp/pasted.sh"
PASTE_ARGV=$tmp/argv PATH=$tmp/fakebin:$PATH bash "$tmp/pasted.sh" &&
	cmp -s "$tmp/argv" <(printf '%s\0' "${args[@]}") && ok ||
	bad "the pasted command's argv differs: $(tr '\0' '|' < "$tmp/argv")"
[ ! -e "$tmp/pwned1" ] && [ ! -e "$tmp/pwned2" ] && [ ! -e "$tmp/pwned3" ] && ok ||
	bad "the pasted command ran what the description held"
# the command's lines fit 72 columns, but for one that carries a quoted word too long to
awk 'length > 72 && !/'"'"'/' "$tmp/pasted.sh" | grep -q . && bad "a command line over 72 columns" || ok

# a temporary result directory whose process died is removed by the next run, and named
mkdir -p "$tmp/stale/.default-20260101T000000Z.tmp.999999"
touch "$tmp/stale/.default-20260101T000000Z.tmp.999999/result.json" \
	"$tmp/stale/.default-20260101T000000Z.tmp.999999/.pcpbench-partial"
# what pcpbench did not make is left alone, whatever its name: a user's file, an
# unmarked tree, a link to a marked one
echo thesis > "$tmp/stale/.thesis.tex.tmp.999999"
mkdir -p "$tmp/stale/.backup.tmp.1/keep" "$tmp/elsewhere/.x.tmp.999998"
touch "$tmp/elsewhere/.x.tmp.999998/.pcpbench-partial"
ln -s "$tmp/elsewhere/.x.tmp.999998" "$tmp/stale/.link.tmp.999998"
expect_rc 0 "$pcpbench" run --quick --set run.duration_ms=5 --set run.warmup_ms=0 --out "$tmp/stale"
[ ! -e "$tmp/stale/.default-20260101T000000Z.tmp.999999" ] && ok || bad "stale temporary directory kept"
grep -q "removed $tmp/stale/.default-20260101T000000Z.tmp.999999, left by a run that died" \
	"$tmp/err" && ok || bad "the removal not named: $(cat "$tmp/err")"
[ "$(cat "$tmp/stale/.thesis.tex.tmp.999999")" = thesis ] && [ -d "$tmp/stale/.backup.tmp.1/keep" ] &&
	[ -L "$tmp/stale/.link.tmp.999998" ] && [ -e "$tmp/elsewhere/.x.tmp.999998/.pcpbench-partial" ] &&
	ok || bad "a file pcpbench did not make was removed"
[ -z "$(find "$tmp/stale" -name .pcpbench-partial)" ] && ok || bad "a result keeps its mark"

# the per-CPU lock files: a symlink is not followed, a FIFO not waited on
mkdir -p "$tmp/locks"
for c in 0 1; do ln -s "$tmp/victim$c" "$tmp/locks/pcpbench-cpu$c.lock"; done
PCPBENCH_LOCK_DIR=$tmp/locks expect_rc 0 timeout 60 "$pcpbench" run --quick \
	--set run.duration_ms=5 --set run.warmup_ms=0 --set run.designs=local_lock --out "$tmp/lk"
[ ! -e "$tmp/victim0" ] && [ ! -e "$tmp/victim1" ] && ok || bad "a lock file's symlink was followed"
grep -q "pcpbench-cpu1.lock is not a regular file" "$tmp/err" && ok || bad "symlink: $(cat "$tmp/err")"
rm -f "$tmp/locks/"*; for c in 0 1; do mkfifo "$tmp/locks/pcpbench-cpu$c.lock"; done
PCPBENCH_LOCK_DIR=$tmp/locks expect_rc 0 timeout 60 "$pcpbench" run --quick \
	--set run.duration_ms=5 --set run.warmup_ms=0 --set run.designs=local_lock --out "$tmp/lk"
grep -q "pcpbench-cpu1.lock is not a regular file" "$tmp/err" && ok || bad "FIFO: $(cat "$tmp/err")"

# Ctrl-C ends the run in progress within a second, even one bounded by run.ops alone
# at its limit (2^40 operations, hours), and says no run finished
"$pcpbench" run --set run.ops=1099511627776 --set run.warmup_ms=0 --set run.designs=local_lock \
	--out "$tmp/intops" >"$tmp/out" 2>"$tmp/err" &
pid=$!
sleep 1.5
kill -INT $pid
SECONDS=0
wait $pid
rc=$?
[ "$rc" -eq 1 ] && [ "$SECONDS" -lt 10 ] && ok || bad "run.ops run after Ctrl-C: exit $rc, ${SECONDS}s"
grep -q "interrupted before a run finished: no result written" "$tmp/err" && ok ||
	bad "run.ops interruption: $(cat "$tmp/err")"

# Ctrl-C ends the run in progress and writes what finished, complete: false
"$pcpbench" run --set run.runs=200 --set run.duration_ms=20 --set run.warmup_ms=0 \
	--out "$tmp/int" >"$tmp/out" 2>"$tmp/err" &
pid=$!
sleep 1.5
kill -INT $pid
wait $pid
rc=$?
[ "$rc" -eq 1 ] && ok || bad "interrupted run: exit $rc: $(cat "$tmp/err")"
grep -q "interrupted after" "$tmp/err" && ok || bad "interruption not said: $(cat "$tmp/err")"
grep -q '"complete": false' "$tmp"/int/default-*/result.json 2>/dev/null && ok ||
	bad "no result with complete: false"
# and what reads it back says so
grep -q "^interrupted: the result has only the runs that finished" "$tmp/out" && ok ||
	bad "the run's tables do not say it was interrupted"
int=$(ls -d "$tmp"/int/default-* | head -1)
expect_rc 0 "$pcpbench" report --format email "$int"
grep -q "interrupted: the result has only the runs that finished" "$tmp/out" && ok ||
	bad "the cover letter does not say the run was interrupted"
expect_rc 0 "$pcpbench" compare "$src/results/reference/default-kvm-2cpu" "$int"
grep -q "^context differs: complete: true | false" "$tmp/out" && ok ||
	bad "compare does not say B was interrupted: $(head -3 "$tmp/out")"

# poll delivery under fast drains ends with its runs, whatever the owner does
start=$(date +%s)
expect_rc 0 timeout 120 "$pcpbench" run --quick --set run.duration_ms=100 --set run.warmup_ms=0 \
	--set run.work_delivery=poll --set drain.rate_hz=10000 --set run.designs=local_lock \
	--set run.timing=call --out "$tmp/poll"
[ $(($(date +%s) - start)) -lt 30 ] && ok || bad "poll delivery run took $(($(date +%s) - start)) s"

# another pcpbench on the same CPU is noted (its lock file held meanwhile)
if command -v flock >/dev/null; then
	cpu=$(sed -n 's/^\(.*\)\t\([0-9]*\).*/\2/p' <("$pcpbench" cpus 'all,!0') | head -1)
	cpu=${cpu:-0}
	flock /tmp/pcpbench-cpu$cpu.lock sleep 5 &
	holder=$!
	sleep 0.3
	expect_rc 0 "$pcpbench" run --quick --set run.duration_ms=5 --set run.warmup_ms=0 \
		--set run.designs=local_lock --set "cpus.workers=$cpu" --out "$tmp/locked"
	grep -q "another pcpbench held CPU $cpu" "$tmp/out" && ok || bad "lock not noted: $(cat "$tmp/out" "$tmp/err")"
	kill $holder 2>/dev/null
	wait $holder 2>/dev/null
else
	echo "skipped: the CPU lock test needs flock(1)"
fi

# calibrate: the bare loop beside the harness, and what the preempt count pair costs in it
expect_rc 0 "$pcpbench" calibrate --runs 1
grep -Eq '^bare loop without the preempt count pair: +[0-9]+\.[0-9]{2} ' "$tmp/out" &&
	grep -Eq "stand-in for cli and sti, costs -?[0-9]+\.[0-9]{2} cycles a call$" "$tmp/out" &&
	ok || bad "calibrate: $(cat "$tmp/out")"
# calibrate runs on one CPU and names its options in errors
expect_rc 2 "$pcpbench" calibrate --cpu all
grep -q "calibrate: --cpu all: not a CPU of this machine" "$tmp/err" && ok || bad "calibrate --cpu: $(cat "$tmp/err")"
expect_rc 2 "$pcpbench" calibrate --runs 0
grep -q "^pcpbench: --runs: run.runs: 0 is out of range" "$tmp/err" && ok || bad "calibrate --runs: $(cat "$tmp/err")"
# an event modifier that would make a counter sample is refused
expect_rc 2 "$pcpbench" run --dry-run --events task-clock:period=1
grep -q "would sample" "$tmp/err" && ok || bad "sampling modifier: $(cat "$tmp/err")"
# expressions before --isolated count too
expect_rc 0 "$pcpbench" --topology "numa:1 core:4 pu:1" cpus 1 --isolated 0 all
[ "$(wc -l < "$tmp/out")" -eq 2 ] && ok || bad "cpus before --isolated: $(cat "$tmp/out")"

# no SCHED_FIFO: drain work goes by signal, and the result says so
nobody="setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all"
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
	echo "skipped: the unprivileged run needs root and setpriv"
elif ! $nobody "$pcpbench" --version >/dev/null 2>&1; then
	echo "skipped: user nobody cannot run $pcpbench (a directory above it is private)"
else
	# the scenario read from a copy: the source tree may be private to its owner
	mkdir -p "$tmp/nobody" && chmod 777 "$tmp/nobody" "$tmp"
	cp "$src/scenarios/default.scn" "$tmp/nobody/default.scn" && chmod 644 "$tmp/nobody/default.scn"
	expect_rc 0 $nobody "$pcpbench" run "$tmp/nobody/default.scn" --quick \
		--set run.duration_ms=20 --set run.warmup_ms=0 \
		--set drain.rate_hz=100 --set run.designs=local_lock --out "$tmp/nobody"
	grep -q "delivered by signal instead" "$tmp/out" && ok || bad "no SCHED_FIFO note: $(cat "$tmp/out" "$tmp/err")"

	# another user on a shared, sticky directory (as /tmp is): links nobody plants at
	# the lock paths are not followed by root's run, nor root's by nobody's; a marked
	# temporary directory of nobody's is not root's to clean
	mkdir -p "$tmp/shared" "$tmp/shared-out" "$tmp/private" && chmod 1777 "$tmp/shared" "$tmp/shared-out"
	chmod 700 "$tmp/private"
	for c in 0 1; do $nobody ln -s "$tmp/private/victim$c" "$tmp/shared/pcpbench-cpu$c.lock"; done
	$nobody mkdir -p "$tmp/shared-out/.default-20260101T000000Z.tmp.999999"
	$nobody touch "$tmp/shared-out/.default-20260101T000000Z.tmp.999999/.pcpbench-partial"
	PCPBENCH_LOCK_DIR=$tmp/shared expect_rc 0 timeout 60 "$pcpbench" run --quick \
		--set run.duration_ms=5 --set run.warmup_ms=0 --set run.designs=local_lock \
		--out "$tmp/shared-out"
	[ ! -e "$tmp/private/victim0" ] && [ ! -e "$tmp/private/victim1" ] && ok ||
		bad "root's run followed a link another user planted"
	grep -q "pcpbench-cpu1.lock is not a regular file" "$tmp/err" && ok ||
		bad "another user's link: $(cat "$tmp/err")"
	[ -e "$tmp/shared-out/.default-20260101T000000Z.tmp.999999/.pcpbench-partial" ] && ok ||
		bad "root's run removed another user's directory"
	rm -f "$tmp/shared/"*
	for c in 0 1; do ln -s "$tmp/nobody/victim$c" "$tmp/shared/pcpbench-cpu$c.lock"; done
	PCPBENCH_LOCK_DIR=$tmp/shared expect_rc 0 timeout 60 $nobody "$pcpbench" run \
		"$tmp/nobody/default.scn" --quick --set run.duration_ms=5 --set run.warmup_ms=0 \
		--set run.designs=local_lock --out "$tmp/nobody"
	[ ! -e "$tmp/nobody/victim0" ] && [ ! -e "$tmp/nobody/victim1" ] && ok ||
		bad "nobody's run followed a link root planted"
fi

# a [sweep] of run.runs: the header says each configuration has its own, each design
# line says what auto did; --quick keeps the swept counts, which name the configurations
printf '%s\n' '[run]' 'designs = local_lock' 'duration_ms = 20' 'warmup_ms = 0' 'max_runs = 3' \
	'[cpus]' 'workers = 1' '[sweep]' 'run.runs = auto, 2' >"$tmp/runs.scn"
for quick in "" --quick; do
	expect_rc 0 timeout 120 "$pcpbench" run "$tmp/runs.scn" $quick --out "$tmp/runs$quick"
	grep -q "; each configuration's (run.runs = auto, 2) runs of [0-9]* ms$" "$tmp/out" && ok ||
		bad "swept run.runs$quick, header: $(grep '^workers' "$tmp/out")"
	grep -q "auto (3 to" "$tmp/out" && bad "swept run.runs$quick: auto's header" || ok
	grep -q "^local_lock runs=auto: .*; 3 runs (auto), " "$tmp/out" && ok ||
		bad "swept run.runs$quick, auto's line: $(grep '^local_lock runs=' "$tmp/out")"
	python3 -c '
import json, sys
d = {x["design"]: x["runs"] for x in json.load(open(sys.argv[1]))["designs"]}
assert d == {"local_lock runs=auto": 3, "local_lock runs=2": 2}, d
' "$tmp/runs$quick"/runs-*/result.json && ok || bad "swept run.runs$quick: runs"
	expect_rc 0 "$pcpbench" report --format email "$tmp/runs$quick"/runs-*
	grep -q "runs: each configuration's (run.runs = auto, 2) of [0-9]* ms" "$tmp/out" && ok ||
		bad "swept run.runs$quick, email: $(grep 'runs:' "$tmp/out")"
done

# a [sweep] of run.timing and cpus.workers: each timing's line, the workers as each
# configuration's, the sweep named under the first configuration's words
printf '%s\n' '[run]' 'designs = local_lock' 'duration_ms = 50' 'warmup_ms = 0' '[sweep]' \
	'run.timing = batch, call' 'cpus.workers = 1, 0-1' >"$tmp/timings.scn"
expect_rc 0 timeout 120 "$pcpbench" run "$tmp/timings.scn" --quick --out "$tmp/timings"
grep -q "^timing: batch, " "$tmp/out" && grep -q "^timing: call, each call between" "$tmp/out" &&
	ok || bad "swept run.timing: $(grep '^timing' "$tmp/out")"
grep -q "^workers: CPU each configuration's (cpus.workers = 1, 0-1); " "$tmp/out" && ok ||
	bad "swept cpus.workers: $(grep '^workers' "$tmp/out")"
grep -q "^swept: run.timing = batch, call; cpus.workers = 1, 0-1 (" "$tmp/out" && ok ||
	bad "no sweep line: $(grep '^swept' "$tmp/out")"
expect_rc 0 "$pcpbench" report --format email "$tmp/timings"/timings-*
tr -s '\n ' '  ' <"$tmp/out" | grep -q "timing: each configuration's (run.timing = batch, call), a batch of calls or each call" &&
	ok || bad "swept run.timing, email: $(grep -A1 'timing:' "$tmp/out")"

summary
