#!/bin/bash
# integrations/: the LKP-tests program and the mmtests shellpack, checked
# on fixture results. Offline: parse keeps report --format kv's stats and
# drops the rest, the job and meta.yaml agree with run, and mmtests'
# parse-results maps report --format mmtests rows to its six fields;
# both install.sh on trees laid out as the checkouts are, hostile ones
# among them (a tag with "/" and "&", an etc/ file without a final line
# break, symbolic links out of the tree, a tree named "-x", a patch that
# does not apply), and LKP's run against a stale result that sorts last.
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
. "$(dirname "$0")/../lib.sh"

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

# the short jobs: LKP's one document (one atomic job), the default
# scenario with --quick, no cpufreq_governor; mmtests' config with
# PCPBENCH_QUICK=yes, which the bench turns into --quick
quick=$lkp/jobs/pcpbench-quick.yaml
[ "$(grep -c '^pcpbench:$' "$quick")" -eq 1 ] && grep -q '^  quick: 1$' "$quick" &&
	grep -q '^  scenario: default$' "$quick" && ! grep -q '^cpufreq_governor' "$quick" && ok ||
	bad "jobs/pcpbench-quick.yaml: $(cat "$quick")"
grep -q '^\[\[ "\$quick" = 1 \]\] && opts+=(--quick)$' "$lkp/programs/pcpbench/run" && ok || bad "run: no quick"
grep -q '^export PCPBENCH_QUICK=yes$' "$mm/configs/config-workload-pcpbench-quick" &&
	grep -q 'parseargYes[[:space:]]*--quick[[:space:]]*PCPBENCH_QUICK' \
		"$mm/shellpack_src/src/pcpbench/pcpbench-bench" &&
	grep -q 'PCPBENCH_QUICK:+--quick' "$mm/drivers/driver-pcpbench.sh" && ok || bad "mmtests: no quick config"
# mmtests asks apt-get for openSUSE's ninja only where there is no ninja
grep -E '^install-depends .*\<ninja\>' "$mm/shellpack_src/src/pcpbench/pcpbench-install" &&
	bad "pcpbench-install asks for ninja unconditionally" || ok

# docs/engines.md's steps, in the order they must run: LKP's split-job
# into a directory made first, after wakeup and the testbox file, and
# lkp install (where named) of a split job; the files they name exist;
# mmtests' packages with R
doc=$src/docs/engines.md
blocks=$(awk '/^```/ { n++; next } n % 2 { print n ": " $0 }' "$doc")
line() { echo "$blocks" | grep -n -m1 -- "$1" | cut -d: -f1; }
s=$(line 'split-job -o /tmp/jobs jobs/pcpbench-quick.yaml')
for before in 'mkdir -p /tmp/jobs' 'make -C bin/event wakeup' '>hosts/$(hostname)' \
	'integrations/lkp/install.sh /tmp/lkp-tests'; do
	b=$(line "$before")
	[ -n "$s" ] && [ -n "$b" ] && [ "$b" -lt "$s" ] && ok || bad "engines.md: '$before' not before split-job"
done
echo "$blocks" | grep -E 'bin/lkp install +(--[a-z-]+ +)*jobs/' && bad "engines.md: lkp install of an unsplit job" || ok
for f in $(echo "$blocks" | grep -oE 'jobs/pcpbench[a-z-]*\.yaml' | sort -u); do
	[ -f "$lkp/$f" ] && ok || bad "engines.md names $f"
done
for f in $(echo "$blocks" | grep -oE 'configs/config-workload-pcpbench-[a-z]+' | sort -u); do
	[ -f "$mm/$f" ] && ok || bad "engines.md names $f"
done
echo "$blocks" | grep -q 'apt-get install .*r-base-core' && ok || bad "engines.md: mmtests' compare without R"

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

# the installers, on trees laid out as the checkouts are: a version
# with "/" and "&" written as it is, an etc/ file without a final line
# break, a symbolic link out of the tree never written through, a tree
# whose name starts with "-", a patch that does not apply leaving the
# tree as it was, and each run twice
lkptree() { # DIR: the parts of an lkp-tests checkout install.sh writes in
	mkdir -p "$1/lib" "$1/programs/ftq" "$1/jobs" "$1/etc"
	touch "$1/lib/stats.rb"
	printf 'ftq\.noise: -1\n' >"$1/etc/index-perf-all.yaml"
	printf 'ftq\.p99: -0.1' >"$1/etc/index-latency-all.yaml"	# no final line break
	printf 'ftq\nfwq\n' >"$1/etc/linux-perf-test-cases"
}
mmtree() { # DIR: the parts of an mmtests checkout install.sh reads and writes
	mkdir -p "$1/shellpack_src/src" "$1/shellpack_src/bin" "$1/drivers" "$1/configs" \
		"$1/shellpacks" "$1/bin/lib/MMTests"
	printf '#!/bin/bash\nexit 0\n' >"$1/run-mmtests.sh"
	cp "$1/run-mmtests.sh" "$1/shellpack_src/src/refresh.sh"
	# a round of macros expanded, as mmtests' rewrite-shellpack does, 1 when none is left
	printf '%s\n' '#!/bin/bash' 'ret=1' 'while IFS= read -r l; do' \
		'	case $l in "###SHELLPACK"*) echo "# ${l#\#\#\#}"; ret=0 ;; *) printf "%s\n" "$l" ;; esac' \
		'done' 'exit $ret' >"$1/shellpack_src/bin/rewrite-shellpack"
	chmod +x "$1/run-mmtests.sh" "$1/shellpack_src/src/refresh.sh" "$1/shellpack_src/bin/rewrite-shellpack"
	# DataTypes.pm as the patch finds it: its context and removed lines
	sed -n '/^@@/,$s/^[ -]//p' "$mm/patches/mmtests-cycles-unit.patch" >"$1/bin/lib/MMTests/DataTypes.pm"
}
# the installers of a git tree tagged rel/1&2, as a checkout with such a tag is
git init -q "$tmp/pcb" && cp -r "$src/integrations" "$tmp/pcb/" &&
	git -C "$tmp/pcb" add -A && git -C "$tmp/pcb" -c user.name=t -c user.email=t@t.example \
		commit -qm t && git -C "$tmp/pcb" tag 'rel/1&2' || bad "cannot make a tagged tree"
ilkp=$tmp/pcb/integrations/lkp/install.sh
imm=$tmp/pcb/integrations/mmtests/install.sh

lkptree "$tmp/-lkp"
(cd "$tmp" && "$ilkp" -lkp >/dev/null && "$ilkp" -lkp >/dev/null) && ok || bad "lkp install.sh -lkp failed"
for j in $(cd "$lkp/jobs" && ls | sed 's/\.yaml$//'); do
	[ "$(grep -c "^  pcpbench_version: 'rel/1&2'\$" "$tmp/-lkp/jobs/$j.yaml")" -eq \
		"$(grep -c '^pcpbench:$' "$lkp/jobs/$j.yaml")" ] && ok ||
		bad "jobs/$j.yaml: $(grep pcpbench_version "$tmp/-lkp/jobs/$j.yaml")"
	diff <(grep -v pcpbench_version "$lkp/jobs/$j.yaml") \
		<(grep -v pcpbench_version "$tmp/-lkp/jobs/$j.yaml") >/dev/null && ok || bad "jobs/$j.yaml changed"
done
printf '%s\n' 'ftq\.p99: -0.1' 'pcpbench\..+\.p99: -0.1' 'pcpbench\..+\.completion_p99: -0.1' |
	cmp -s - "$tmp/-lkp/etc/index-latency-all.yaml" && ok ||
	bad "etc/index-latency-all.yaml: $(cat "$tmp/-lkp/etc/index-latency-all.yaml")"
[ "$(grep -c '^pcpbench$' "$tmp/-lkp/etc/linux-perf-test-cases")" -eq 1 ] && ok || bad "linux-perf-test-cases"
cmp -s "$lkp/programs/pcpbench/run" "$tmp/-lkp/programs/pcpbench/run" && ok || bad "programs/pcpbench/run"
[ -z "$(find "$tmp/-lkp" -name '.*pcpbench*')" ] && ok || bad "lkp: left $(find "$tmp/-lkp" -name '.*pcpbench*')"

# a link out of the tree, at a file or a directory it writes: refused, the tree as it was
for link in etc/index-perf-all.yaml jobs/pcpbench.yaml programs/pcpbench jobs; do
	rm -rf "$tmp/l" "$tmp/outside" && lkptree "$tmp/l" && mkdir "$tmp/outside"
	printf 'outside\n' >"$tmp/outside/file"
	rm -rf "${tmp:?}/l/$link"
	case $link in
	jobs | programs/pcpbench) ln -s "$tmp/outside" "$tmp/l/$link" ;;
	*) ln -s "$tmp/outside/file" "$tmp/l/$link" ;;
	esac
	(cd "$tmp/l" && find . | sort | xargs -d '\n' cat 2>/dev/null | md5sum) >"$tmp/before"
	expect_rc 2 "$ilkp" "$tmp/l"
	grep -q "$tmp/l/$link is a symbolic link" "$tmp/err" && ok || bad "lkp, link at $link: $(cat "$tmp/err")"
	[ "$(ls -A "$tmp/outside")" = file ] && [ "$(cat "$tmp/outside/file")" = outside ] && ok ||
		bad "lkp, link at $link: written through: $(ls -A "$tmp/outside")"
	(cd "$tmp/l" && find . | sort | xargs -d '\n' cat 2>/dev/null | md5sum) | cmp -s - "$tmp/before" &&
		{ [ ! -e "$tmp/l/programs/pcpbench" ] || [ -L "$tmp/l/programs/pcpbench" ]; } && ok ||
		bad "lkp, link at $link: the tree changed"
done

if command -v patch >/dev/null; then
mmtree "$tmp/-mm"
(cd "$tmp" && "$imm" -mm >/dev/null && "$imm" -mm >/dev/null) && ok || bad "mmtests install.sh -mm failed"
[ "$(grep -c LABEL_CYCLES "$tmp/-mm/bin/lib/MMTests/DataTypes.pm")" -eq 2 ] && ok || bad "DataTypes.pm not patched once"
for k in install bench; do
	f=$tmp/-mm/shellpacks/shellpack-$k-pcpbench
	[ -x "$f" ] && ! grep -q '^###SHELLPACK' "$f" && grep -q '^# SHELLPACK preamble' "$f" && ok ||
		bad "shellpacks/shellpack-$k-pcpbench: $(head -3 "$f" 2>&1)"
done
[ -z "$(find "$tmp/-mm" -name '.*pcpbench*' -o -name '*.rej' -o -name '*.orig')" ] && ok ||
	bad "mmtests: left $(find "$tmp/-mm" -name '.*pcpbench*' -o -name '*.rej' -o -name '*.orig')"
# a DataTypes.pm the patch does not fit: nothing installed, no .rej
rm -rf "$tmp/m" && mmtree "$tmp/m" && echo 'package DataTypes;' >"$tmp/m/bin/lib/MMTests/DataTypes.pm"
expect_rc 2 "$imm" "$tmp/m"
grep -q "does not apply to $tmp/m/bin/lib/MMTests/DataTypes.pm: nothing installed" "$tmp/err" && ok ||
	bad "mmtests, a patch that fails: $(cat "$tmp/err")"
[ -z "$(find "$tmp/m" -name '*pcpbench*' -o -name '*.rej' -o -name '*.orig')" ] && ok ||
	bad "mmtests, a patch that fails: left $(find "$tmp/m" -name '*pcpbench*' -o -name '*.rej' -o -name '*.orig')"
for link in drivers/driver-pcpbench.sh shellpacks/shellpack-bench-pcpbench bin/lib/MMTests/DataTypes.pm; do
	rm -rf "$tmp/m" "$tmp/outside" && mmtree "$tmp/m" && mkdir "$tmp/outside"
	cp "$tmp/m/$link" "$tmp/outside/file" 2>/dev/null || printf 'outside\n' >"$tmp/outside/file"
	cp "$tmp/outside/file" "$tmp/want"
	rm -f "$tmp/m/$link" && ln -s "$tmp/outside/file" "$tmp/m/$link"
	expect_rc 2 "$imm" "$tmp/m"
	grep -q "$tmp/m/$link is a symbolic link" "$tmp/err" && ok || bad "mmtests, link at $link: $(cat "$tmp/err")"
	cmp -s "$tmp/outside/file" "$tmp/want" && [ "$(ls -A "$tmp/outside")" = file ] && ok ||
		bad "mmtests, link at $link: written through"
	[ -z "$(find "$tmp/m" -name '*pcpbench*' ! -type l)" ] && ok ||
		bad "mmtests, link at $link: installed $(find "$tmp/m" -name '*pcpbench*' ! -type l)"
done
else
	echo "no patch: mmtests' install.sh not checked"
fi

# LKP's run: the result it reports is the one it wrote, not one an
# earlier run left that sorts after it; LKP's lib/ stood in for by die
# and log_cmd
mkdir -p "$tmp/stub/lib" "$tmp/ps/build" "$tmp/rr/pcpbench-results/zzz-stale"
printf '%s\n' 'die() { echo "$*" >&2; exit 1; }' 'log_cmd() { "$@"; }' >"$tmp/stub/lib/debug.sh"
: >"$tmp/stub/lib/env.sh"
: >"$tmp/stub/lib/reproduce-log.sh"
ln -s "$pcpbench" "$tmp/ps/build/pcpbench"
ln -s "$src/scenarios" "$tmp/ps/scenarios"
cp "$fix" "$tmp/rr/pcpbench-results/zzz-stale/"
env LKP_SRC="$tmp/stub" RESULT_ROOT="$tmp/rr" PCPBENCH_SRC="$tmp/ps" PCPBENCH_LOCK_DIR="$tmp" \
	scenario=default runs=1 quick=1 timing= pcpbench_version= \
	set='run.designs=local_lock run.duration_ms=50 run.warmup_ms=10' \
	bash "$lkp/programs/pcpbench/run" >"$tmp/run.kv" 2>"$tmp/run.err" && ok || bad "run: $(cat "$tmp/run.err")"
new=$(find "$tmp/rr/pcpbench-results" -name result.json ! -path '*zzz-stale*')
[ "$(echo "$new" | wc -l)" -eq 1 ] && "$pcpbench" report --format kv "$(dirname "$new")" >"$tmp/new.kv" &&
	cmp -s "$tmp/run.kv" "$tmp/new.kv" && ok ||
	bad "run reported another result: $(head -2 "$tmp/run.kv") (stale: $(head -1 "$tmp/fix.kv"))"

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
	# docs/engines.md's first try up to the run: wakeup, the testbox,
	# split-job into atomic jobs (what lkp run and lkp install take)
	make -s -C "$tmp/lkp-tests/bin/event" wakeup >"$tmp/out" 2>&1 && ok || bad "wakeup: $(cat "$tmp/out")"
	printf 'nr_cpu: 2\nmemory: 1G\nlocal_run: 1\n' >"$tmp/lkp-tests/hosts/$(hostname)"
	mkdir -p "$tmp/jobs"
	(cd "$tmp/lkp-tests" && LKP_SRC=$PWD bin/lkp split-job -o "$tmp/jobs" jobs/pcpbench-quick.yaml \
		jobs/pcpbench.yaml) >"$tmp/out" 2>&1
	[ "$(ls "$tmp/jobs" | wc -l)" -eq 3 ] && [ "$(grep -l '^arch: ' "$tmp"/jobs/* | wc -l)" -eq 3 ] && ok ||
		bad "split-job: $(grep -v WARN "$tmp/out")"
	grep -q '^  quick: 1$' "$tmp"/jobs/pcpbench-quick-*.yaml && ok || bad "split-job: the quick job lost quick"
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
