#!/bin/bash
# integrations/: the LKP-tests program and the mmtests shellpack, checked
# on fixture results. Offline: parse keeps report --format kv's stats and
# drops the rest, the job and meta.yaml agree with run, and mmtests'
# parse-results maps report --format mmtests rows to its six fields.
# With LKP_SRC (an lkp-tests checkout): LKP's bin/run-stats and
# sbin/dump-stat over parse's output, in a copy of the checkout. With
# MMTESTS_SRC (an mmtests checkout): mmtests' compare-mmtests.pl over
# two fixture results, in a copy. Neither checkout is changed. The third
# argument picks: offline (meson test engines) or engines (engines-live,
# skipped, exit 77, when neither variable names a checkout).
set -u
pcpbench=$(realpath "$1")
src=$(realpath "$2")
mode=${3:-offline}
. "$(dirname "$0")/lib.sh"

lkp=$src/integrations/lkp
mm=$src/integrations/mmtests
fix=$src/tests/fixtures/plots/drain-scaling/result.json
ref=$src/results/reference/default-kvm-2cpu/result.json
"$pcpbench" report --format kv "$fix" >"$tmp/fix.kv" && ok || bad "kv of $fix"

mmrows() { # RESULT LOGDIR: the rows pcpbench-bench keeps, and parse-results' output
	mkdir -p "$2/results/r"
	"$pcpbench" report --format mmtests "$1" >"$2/results/r/mmtests.rows"
	"$mm/shellpack_src/src/pcpbench/parse-results" "$2"
}

if [ "$mode" = offline ]; then
# parse: the kv lines pass, a log_cmd line and a die's message do not
if command -v ruby >/dev/null; then
	{ echo "2026-01-01 00:00:00 $pcpbench run --out x scenarios/drain-scaling.scn"
	  cat "$tmp/fix.kv"; echo "pcpbench run exited 2"; } >"$tmp/log"
	ruby "$lkp/programs/pcpbench/parse" <"$tmp/log" >"$tmp/parsed" && ok || bad "parse failed"
	cmp -s "$tmp/parsed" "$tmp/fix.kv" && ok || bad "parse: $(diff "$tmp/fix.kv" "$tmp/parsed" | head -3)"
else
	echo "no ruby: parse not run"
fi

# run declares what meta.yaml lists; the job runs both seeds' scenarios
# without monitors, at the performance governor
params=$(sed -n 's/^# - //p' "$lkp/programs/pcpbench/run" | sort | tr '\n' ' ')
meta=$(sed -n '/^parameters:/,/^$/s/^  \([a-z_]*\):.*/\1/p' "$lkp/programs/pcpbench/meta.yaml" |
	sort | tr '\n' ' ')
[ "$params" = "$meta" ] && ok || bad "run declares '$params', meta.yaml '$meta'"
job=$lkp/jobs/pcpbench.yaml
for want in '^category: noise-benchmark$' '^cpufreq_governor: performance$' \
	'^  scenario: cover-letter-2.2$' '^  scenario: drain-scaling$' '^  pcpbench_version:'; do
	grep -q "$want" "$job" && ok || bad "job: no $want"
done
for s in $(sed -n 's/^  scenario: //p' "$job"); do
	[ -f "$src/scenarios/$s.scn" ] && ok || bad "job: no scenarios/$s.scn"
done
grep -q '^pcpbench\\\.\.+\\\.avg_cycles: -1$' "$lkp/etc/index-perf-all.yaml" && ok ||
	bad "no KPI direction for avg_cycles"
grep -Eq '^(kmsg|perf-|turbostat|sched_debug|mpstat)' "$job" && bad "job: a monitor" || ok

# mmtests: a row a run, six fields, the label function-design-config,
# "_" outside a sweep
mmrows "$fix" "$tmp/mm1" >"$tmp/mm1.out" && ok || bad "parse-results failed"
[ "$(wc -l <"$tmp/mm1.out")" -eq "$(wc -l <"$tmp/mm1/results/r/mmtests.rows")" ] &&
	[ -s "$tmp/mm1.out" ] && ok || bad "parse-results: not a row a run"
awk -F '\t' 'NF != 6 || $4 !~ /^[0-9]+$/ || $5 !~ /^[0-9.]+$/' "$tmp/mm1.out" >"$tmp/odd"
[ ! -s "$tmp/odd" ] && ok || bad "parse-results: odd rows: $(head -2 "$tmp/odd")"
grep -qP '^consume_stock\tlocal_lock\tstocks_128\t1\t3.000\t_$' "$tmp/mm1.out" && ok ||
	bad "parse-results: $(head -1 "$tmp/mm1.out")"
mmrows "$ref" "$tmp/mm0" >"$tmp/mm0.out"
grep -qP '^consume_stock\tlocal_lock\t_\t1\t' "$tmp/mm0.out" && ok ||
	bad "parse-results outside a sweep: $(head -1 "$tmp/mm0.out")"

summary engines
exit
fi

mmrows "$fix" "$tmp/mm1" >"$tmp/mm1.out"
engines=0
copy() { # SRC DST: a checkout without its .git and mmtests' work/
	mkdir -p "$2" && tar -C "$1" --exclude=./.git --exclude=./work -cf - . | tar -C "$2" -xf -
}

if [ -n "${LKP_SRC:-}" ] && [ -f "$LKP_SRC/sbin/dump-stat" ]; then
	engines=$((engines + 1))
	copy "$LKP_SRC" "$tmp/lkp-tests"
	"$lkp/install.sh" "$tmp/lkp-tests" >/dev/null && ok || bad "lkp install.sh failed"
	rt=$tmp/rt
	mkdir -p "$rt"
	echo "category: noise-benchmark" >"$rt/job.yaml"
	{ echo "2026-01-01 00:00:00 pcpbench run"; cat "$tmp/fix.kv"; } >"$rt/pcpbench"
	env LKP_SRC="$tmp/lkp-tests" RESULT_ROOT="$rt" "$tmp/lkp-tests/bin/run-stats" pcpbench \
		>"$tmp/out" 2>"$tmp/err" && ok || bad "run-stats: $(cat "$tmp/err")"
	# dump-stat keeps every stat but the all-zero ones, prefixed with the program
	python3 - "$rt/pcpbench.json" "$tmp/fix.kv" <<'PY' && ok || bad "LKP's pcpbench.json"
import json, sys
got = json.load(open(sys.argv[1]))
want = {}
for l in open(sys.argv[2]):
    k, v = l.rstrip("\n").split(": ")
    v = float(v) if "." in v else int(v)
    if v != 0:
        want["pcpbench." + k] = [v]
if got != want:
    odd = [k for k in set(got) | set(want) if got.get(k) != want.get(k)]
    print("got %d stats, want %d: %s" % (len(got), len(want), odd[:3]), file=sys.stderr)
    sys.exit(1)
PY
	# a broken invariant is a failure by LKP's etc/failure
	ruby -e 'pats = File.read(ARGV[0]).split("\n")
		exit(pats.any? { |p| "pcpbench.spinlock.invariant.fail" =~ /^#{p}/ } ? 0 : 1)' \
		"$tmp/lkp-tests/etc/failure" && ok || bad "invariant.fail is no failure to LKP"
	grep -q '^pcpbench$' "$tmp/lkp-tests/etc/linux-perf-test-cases" && ok ||
		bad "pcpbench not among LKP's performance tests"
else
	echo "LKP_SRC does not name an lkp-tests checkout: LKP's stats not checked"
fi

if [ -n "${MMTESTS_SRC:-}" ] && [ -x "$MMTESTS_SRC/bin/compare-mmtests.pl" ]; then
	engines=$((engines + 1))
	copy "$MMTESTS_SRC" "$tmp/mmtests"
	"$mm/install.sh" "$tmp/mmtests" >/dev/null && ok || bad "mmtests install.sh failed"
	for k in a b; do
		mkdir -p "$tmp/mmlog/pcpb-$k/iter-0/pcpbench/logs/results/r"
		"$pcpbench" report --format mmtests "$fix" |
			awk -F '\t' -v k=$k 'BEGIN { OFS = "\t" } { if (k == "b") $5 = sprintf("%.3f", $5 * 1.25 + $4 / 100); print }' \
			>"$tmp/mmlog/pcpb-$k/iter-0/pcpbench/logs/results/r/mmtests.rows"
	done
	(cd "$tmp/mmlog" && "$tmp/mmtests/bin/compare-mmtests.pl" -d . -b pcpbench -n pcpb-a,pcpb-b) \
		>"$tmp/out" 2>"$tmp/err" && ok || bad "compare-mmtests.pl: $(cat "$tmp/err")"
	grep -Eq '^Amean +consume_stock-local_lock-stocks_128 +3\.00 \( +0\.00%\) +3\.76 [(*] *-25\.' "$tmp/out" &&
		ok || bad "compare-mmtests.pl's table: $(grep Amean "$tmp/out" | head -2)"
	[ "$(grep -c '^Amean ' "$tmp/out")" -eq "$(cut -f1-3 "$tmp/mm1.out" | sort -u | wc -l)" ] &&
		ok || bad "compare-mmtests.pl: not an Amean row a function, design and config"
else
	echo "MMTESTS_SRC does not name an mmtests checkout: compare-mmtests.pl not run"
fi

[ "$engines" -gt 0 ] || { echo "SKIP: neither LKP_SRC nor MMTESTS_SRC names a checkout"; exit 77; }
summary engines-live
