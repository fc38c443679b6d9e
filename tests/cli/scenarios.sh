#!/bin/bash
# Every shipped scenario parses; every malformed one in tests/scenarios/ is
# rejected with exit 2 and the FILE:LINE: section.key message its first line
# names (# expect: ...). --set overrides get the same checks.
set -u
pcpbench=$(realpath "$1")
src=$2
pass=0
fail=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAILED: $*" >&2; }

cd "$src" || exit 1

for f in scenarios/*.scn; do
	if out=$("$pcpbench" run --dry-run "$f" 2>&1); then
		ok
	elif [[ "$out" == *"run.designs: "*": not on this machine: "* ]]; then
		# a design this machine cannot run (rseq): refused with the reason, as it should be
		echo "note: $out"
		ok
	elif [[ "$out" == *"run.backend: instrumented: this kernel has no instrument: "* ]]; then
		# the kernel's own functions, where the booted kernel has no instrument: refused so
		echo "note: $out"
		ok
	else
		bad "$f is rejected: $out"
	fi
done

for f in tests/scenarios/*.scn; do
	expect=$(sed -n '1s/^# expect: //p' "$f")
	[ -n "$expect" ] || { bad "$f has no '# expect:' line"; continue; }
	out=$("$pcpbench" run --dry-run "$f" 2>&1)
	rc=$?
	if [ "$rc" -ne 2 ]; then
		bad "$f: exit $rc, expected 2 ($out)"
	elif [[ "$out" != *"tests/scenarios/$expect"* ]]; then
		bad "$f: got '$out', expected '$expect'"
	else
		ok
	fi
done

# --set: the same checks, named by the option
check_set() {
	local want=$1
	shift
	out=$("$pcpbench" run --dry-run "$@" 2>&1)
	rc=$?
	if [ "$rc" -eq 2 ] && [[ "$out" == *"$want"* ]]; then ok; else bad "$* -> $rc '$out', expected '$want'"; fi
}
check_set "--set run.runs: 0 is out of range (1..1000)" --set run.runs=0
check_set "--set nosuch.key: unknown key" --set nosuch.key=1
check_set "--set runs=3: expected section.key=value" --set runs=3
check_set "--runs: run.runs: 'many' is not an integer" --runs many
check_set "--set run.max_runs: 2 is out of range (3..1000)" --set run.runs=auto --set run.max_runs=2
check_set "--set run.ci_target: '0' is not a number in 0.01..100" --set run.ci_target=0
check_set "--set run.max_cv: 'lots' is not a number in 0..1000" --set run.max_cv=lots
out=$("$pcpbench" run --dry-run --runs auto --set run.max_runs=9 --set run.ci_target=0.5 2>&1)
[[ "$out" == *"3 runs of"*"runs auto: up to 9, until every row's 95% interval is within 0.5% of its mean"* ]] &&
	ok || bad "--runs auto: $out"
check_set "--set cpus.workers: 'node:99': no NUMA node 99" --set cpus.workers=node:99
check_set "scenarios/nope.scn: No such file or directory" scenarios/nope.scn

# an override that is fine changes the plan
out=$("$pcpbench" run --dry-run --set run.timing=call --runs 3 2>&1)
if [[ "$out" == *"timing call, 3 runs"* ]]; then ok; else bad "overrides not applied: $out"; fi

# the plan on seed 000's kind of machine: 8 nodes, isolated CPUs from the scenario
out=$("$pcpbench" --topology "numa:8 core:16 pu:1" run --dry-run \
	--set cpus.isolated=16-31 --set 'cpus.workers=node:1,node:3' 2>&1)
if [[ "$out" == *"workers: 32 on CPUs 16-31,48-63"* && "$out" == *"cpu 16    node 1"*"isolated"* &&
      "$out" == *"cpu 48    node 3"* ]]; then ok; else bad "synthetic plan: $out"; fi

# --set of a swept key replaces the sweep, and the plan says so
out=$("$pcpbench" run --dry-run scenarios/static-key.scn --set run.accounting=none 2>&1)
n=$(grep -c '^scenario static-key' <<<"$out")
if [ "$n" -eq 1 ] && [[ "$out" != *"accounting=always"* ]]; then ok; else bad "--set over a sweep: $out"; fi

# calibrate runs a count: auto, run's stopping rule, is refused before anything runs
out=$(timeout 60 "$pcpbench" calibrate --runs auto 2>&1)
rc=$?
if [ "$rc" -eq 2 ] && [[ "$out" == *"calibrate: --runs auto: a count of runs (1..1000)"* ]]; then ok; else
	bad "calibrate --runs auto -> $rc '$out'"; fi

# --runs and --events replace a [sweep] of their key, as --set does: one configuration
swept=$(mktemp)
printf '%s\n' '[sweep]' 'run.runs = auto, 2' 'counters.events = cycles, instructions' >"$swept"
out=$("$pcpbench" run --dry-run --runs 3 --events task-clock "$swept" 2>&1)
n=$(grep -c '^scenario ' <<<"$out")
if [ "$n" -eq 1 ] && [[ "$out" == *"3 runs of"* && "$out" != *"runs="* ]]; then ok; else
	bad "--runs over a swept run.runs: $out"; fi
rm -f "$swept"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
