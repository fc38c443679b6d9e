#!/bin/bash
# pcpbench check on fixture trees (tests/fixtures/machine/: a tuned
# bare-metal box, a laptop with powersave and turbo, a VM without
# cpufreq or PMU, a busy VM), a tree with a broken file and a 128-CPU
# tree made here: the
# settings printed and the exit status. Then a short run on the laptop's
# tree: each bad setting warned once, all of them in result.json's
# context, the tables and the Test System block. PCPBENCH_SYSROOT and
# PCPBENCH_HYPERVISOR keep this machine out of it: nothing depends on
# its own state.
set -u
pcpbench=$(realpath "$1")
src=$2
. "$(dirname "$0")/../lib.sh"
cd "$src" || exit 1

fx=$src/tests/fixtures/machine
check() {	# check WANT FIXTURE-DIR HYPERVISOR TOPOLOGY ARGS...
	local want=$1 root=$2 hv=$3 topo=$4
	shift 4
	expect_rc "$want" env PCPBENCH_SYSROOT="$root" PCPBENCH_HYPERVISOR="$hv" \
		"$pcpbench" --topology "$topo" check "$@"
}
# check's output on one line: a note folded between words reads whole
said() {
	tr -s ' \n' '  ' <"$tmp/out" | grep -qF -- "$1" && ok || bad "check does not say '$1':
$(cat "$tmp/out")"
}
# a line of check's table: setting (or blank), verdict, value
has_row() {
	grep -Eq "^  ${1:-} +$2 +$3\$" "$tmp/out" && ok ||
		bad "check lacks '$1 $2 $3':
$(cat "$tmp/out")"
}

expect_rc 0 "$pcpbench" check --help
grep -q "^usage: pcpbench check" "$tmp/out" && ok || bad "check --help has no usage line"
expect_rc 2 "$pcpbench" check --frobnicate
expect_rc 2 "$pcpbench" check extra
expect_rc 2 "$pcpbench" check --cpus "node:99"
# a set that leaves no CPU is refused, as run refuses it, not taken for all
expect_rc 2 "$pcpbench" --topology "numa:1 core:4 pu:1" check --cpus '1,!1'
grep -q "leaves no CPU" "$tmp/err" && ok || bad "an empty --cpus: $(cat "$tmp/err")"
check 2 /nonexistent/pcpbench-root none "core:2 pu:1" --cpus 0
grep -q "PCPBENCH_SYSROOT /nonexistent/pcpbench-root: not a directory" "$tmp/err" && ok ||
	bad "a missing root is not named: $(cat "$tmp/err")"

# the tuned box: performance, boost off, the isolated pair 2-3 as workers
check 0 "$fx/tuned" none "core:2 pu:2" --cpus 2-3
has_row hypervisor ok none
has_row cpufreq.driver ok "CPU 2-3: acpi-cpufreq"
has_row cpufreq.governor ok "CPU 2-3: performance"
has_row cpufreq.min_max ok "CPU 2-3: 2200000\.\.3000000 kHz"
has_row boost ok off
has_row smt unknown "CPU 2-3: siblings not sampled"
has_row isolation ok "CPU 2-3: isolcpus, nohz_full, rcu_nocbs"
has_row aslr ok "off \(randomize_va_space 0\)"
has_row thp ok never
has_row perf_event_paranoid ok -1
has_row pmu ok cpu
has_row load ok "CPU 2-3: idle"
has_row steal ok "CPU 2-3: 0%"
has_row runnable ok "load average 0.10 on 4 CPUs"
grep -q "^nothing here makes figures untrustworthy" "$tmp/out" && ok || bad "tuned: verdict"
# two workers on one core
check 1 "$fx/tuned" none "core:2 pu:2" --cpus 0,2
has_row smt bad "CPU 0,2: a sibling is a worker"
grep -q "^untrustworthy here: smt a sibling is a worker (CPU 0,2)" "$tmp/out" && ok ||
	bad "tuned 0,2: $(tail -1 "$tmp/out")"

# the laptop: powersave with min != max, turbo on
check 1 "$fx/laptop" none "core:1 pu:2" --cpus 1
has_row cpufreq.driver ok "CPU 1: intel_pstate"
has_row cpufreq.governor bad "CPU 1: powersave"
said "min 400000 != max 4700000 kHz"
has_row boost bad on
said "$fx/laptop/sys/devices/system/cpu/intel_pstate/no_turbo = 0"
has_row thp note always
has_row perf_event_paranoid note 4
has_row aslr note "on \(randomize_va_space 2\)"
grep -q "^untrustworthy here: cpufreq.governor powersave (CPU 1), boost on$" "$tmp/out" && ok ||
	bad "laptop: $(tail -1 "$tmp/out")"

# the VM: no cpufreq, no boost; unknown, never an error
check 0 "$fx/vm" KVMKVMKVM "core:2 pu:1" --cpus 0-1
has_row hypervisor note KVMKVMKVM
has_row cpufreq.driver unknown "CPU 0-1: absent"
has_row cpufreq.governor unknown "CPU 0-1: absent"
said "no $fx/vm/sys/devices/system/cpu/cpuN/cpufreq: the host"
has_row boost unknown absent
has_row smt ok "CPU 0-1: no sibling"
has_row isolation ok "CPU 0-1: none"
# no PMU: said so, and what perf_event_paranoid still governs
has_row pmu note none
said "has no CPU PMU: hardware events cannot be counted here"
said "user-mode counting only, of software events: no PMU"
has_row runnable unknown absent
[ "$(grep -c '^ *does: ' "$tmp/out")" -eq 13 ] && ok || bad "vm: not a does: line a setting"

# a busy VM: load average 11 on 2 CPUs, 12 tasks runnable, the worker's CPU busy, steal
check 1 "$fx/busy" KVMKVMKVM "core:2 pu:1" --cpus 1
has_row load bad "CPU 1: 59% busy"
has_row steal bad "CPU 1: 4%"
has_row runnable bad "11 task\(s\) runnable beside pcpbench, load average 11.02 on 2 CPUs"
said "other tasks ran 59% of its ticks since boot"
grep -q "^untrustworthy here: load 59% busy (CPU 1), steal 4% (CPU 1), runnable 11 task" \
	"$tmp/out" && ok || bad "busy: $(tail -1 "$tmp/out")"

# the same VM emulated (QEMU's TCG): untrustworthy for timing, and info and cpus say so
check 1 "$fx/vm" TCGTCGTCGTCG "core:2 pu:1" --cpus 0-1
has_row hypervisor bad "TCGTCGTCGTCG, emulated"
said "its TSC counts the host's time, not this CPU's cycles: figures are functional, never timings"
grep -q "^untrustworthy here: hypervisor TCGTCGTCGTCG, emulated$" "$tmp/out" && ok ||
	bad "emulated: $(tail -1 "$tmp/out")"
expect_rc 0 env PCPBENCH_HYPERVISOR=TCGTCGTCGTCG "$pcpbench" info
grep -q "^  hypervisor: *TCGTCGTCGTCG: emulated, its figures are functional, never timings$" \
	"$tmp/out" && ok || bad "info: $(grep hypervisor "$tmp/out")"
expect_rc 0 env PCPBENCH_HYPERVISOR=none "$pcpbench" info
grep -q "^  hypervisor: *none$" "$tmp/out" && ok || bad "info, bare: $(grep hypervisor "$tmp/out")"
expect_rc 0 env PCPBENCH_HYPERVISOR=TCGTCGTCGTCG "$pcpbench" cpus all
grep -q "note: these CPUs are emulated (TCGTCGTCGTCG)" "$tmp/err" && ok || bad "cpus: $(cat "$tmp/err")"
expect_rc 0 env PCPBENCH_HYPERVISOR=KVMKVMKVM "$pcpbench" cpus all
[ ! -s "$tmp/err" ] && ok || bad "cpus under KVM: $(cat "$tmp/err")"

# a broken file is named, and its setting unknown
cp -r "$fx/vm" "$tmp/broken"
d=$tmp/broken/sys/devices/system/cpu/cpu1/cpufreq
mkdir -p "$d"
echo acpi-cpufreq >"$d/scaling_driver"
echo schedutil >"$d/scaling_governor"
echo fast >"$d/scaling_min_freq"
echo 3000000 >"$d/scaling_max_freq"
check 1 "$tmp/broken" none "core:2 pu:1" --cpus 1
has_row cpufreq.min_max unknown "CPU 1: unreadable"
said "cpu1/cpufreq/scaling_min_freq: 'fast' is not a number"
has_row cpufreq.governor bad "CPU 1: schedutil"

# 128 CPUs, the two threads of each core numbered 2k and 2k+1 as hwloc's
# synthetic topology numbers them: one line a setting, whatever the count
big=$tmp/big
for c in $(seq 0 127); do
	d=$big/sys/devices/system/cpu/cpu$c
	mkdir -p "$d/cpufreq" "$d/topology"
	echo amd-pstate-epp >"$d/cpufreq/scaling_driver"
	echo performance >"$d/cpufreq/scaling_governor"
	echo 1500000 >"$d/cpufreq/scaling_min_freq"
	echo 3700000 >"$d/cpufreq/scaling_max_freq"
	echo 0 >"$d/cpufreq/boost"
	echo "$((c / 2 * 2))-$((c / 2 * 2 + 1))" >"$d/topology/thread_siblings_list"
done
mkdir -p "$big/proc/sys/kernel"
echo "root=/dev/nvme0n1p2 nohz_full=64-127" >"$big/proc/cmdline"
echo 0 >"$big/proc/sys/kernel/randomize_va_space"
check 1 "$big" none "numa:2 core:32 pu:2" --cpus node:1
has_row cpufreq.governor ok "CPU 64-127: performance"
has_row boost ok "CPU 64-127: off"
has_row smt bad "CPU 64-127: a sibling is a worker"
has_row isolation ok "CPU 64-127: nohz_full"
has_row thp unknown absent
has_row perf_event_paranoid unknown absent
[ "$(grep -c "^  [a-z].*CPU 64-127: " "$tmp/out")" -eq 6 ] && ok || bad "big: a line a CPU?"
# one thread of each core: the others are not workers, and a tree is not sampled
check 0 "$big" none "numa:2 core:32 pu:2" --cpus "$(seq -s, 64 2 126)"
has_row smt unknown "CPU 64,66,68,70,.*: siblings not sampled"

# a FIFO or a directory at proc/cmdline (and no sysfs list): not waited
# on, not read as an empty command line, but no file
for kind in fifo dir; do
	r=$tmp/$kind
	cp -r "$fx/laptop" "$r" && rm "$r/proc/cmdline" "$r/sys/devices/system/cpu/isolated"
	if [ $kind = fifo ]; then mkfifo "$r/proc/cmdline"; else mkdir "$r/proc/cmdline"; fi
	expect_rc 1 timeout 60 env PCPBENCH_SYSROOT="$r" PCPBENCH_HYPERVISOR=none \
		"$pcpbench" --topology "core:1 pu:2" check --cpus 1
	has_row isolation unknown absent
done

# every other CPU of 600: the lists, longer than any line's buffer, whole
huge=$tmp/huge
for c in $(seq 0 599); do
	d=$huge/sys/devices/system/cpu/cpu$c
	mkdir -p "$d/cpufreq"
	echo performance >"$d/cpufreq/scaling_governor"
	echo 1 >"$d/cpufreq/boost"
done
mkdir -p "$huge/proc"
echo "root=/dev/sda1" >"$huge/proc/cmdline"
even=$(seq -s, 0 2 598)
check 1 "$huge" none "numa:2 core:300 pu:1" --cpus "$even"
grep -Eqx "Machine state for workers on CPU $even, read under $huge/?" "$tmp/out" && ok ||
	bad "huge: the workers' list cut: $(head -1 "$tmp/out")"
has_row cpufreq.governor ok "CPU $even: performance"
has_row boost bad "CPU $even: on"
grep -q "^untrustworthy here: boost on (CPU $even)\$" "$tmp/out" && ok ||
	bad "huge: the untrustworthy line cut: $(grep untrustworthy "$tmp/out")"

# under a root, "isolated" is the root's list (sysfs's isolated), on any
# topology, never this machine's: as --cpus, in cpus and in info
check 0 "$fx/tuned" none "core:2 pu:2" --cpus isolated
grep -Eq "^Machine state for workers on CPU 2-3, read under $fx/tuned/?\$" "$tmp/out" && ok ||
	bad "check --cpus isolated under tuned: $(head -1 "$tmp/out")"
expect_rc 0 env PCPBENCH_SYSROOT="$fx/tuned" "$pcpbench" --topology "core:2 pu:2" \
	cpus isolated housekeeping
grep -Eq "^isolated[[:space:]]+2-3[[:space:]]" "$tmp/out" && ok || bad "cpus isolated: $(cat "$tmp/out")"
grep -Eq "^housekeeping[[:space:]]+0-1[[:space:]]" "$tmp/out" && ok ||
	bad "cpus housekeeping: $(cat "$tmp/out")"
expect_rc 0 env PCPBENCH_SYSROOT="$fx/tuned" PCPBENCH_HYPERVISOR=none "$pcpbench" \
	--topology "core:2 pu:2" info
grep -q "^  isolated CPUs: *2-3 ($fx/tuned/sys/devices/system/cpu/isolated)\$" "$tmp/out" && ok ||
	bad "info's isolated CPUs: $(grep isolated "$tmp/out")"
grep -q "^  nohz_full CPUs: *2-3\$" "$tmp/out" && ok || bad "info's nohz_full: $(grep nohz "$tmp/out")"
expect_rc 0 env PCPBENCH_SYSROOT="$fx/tuned" "$pcpbench" --topology "core:2 pu:2" run \
	--dry-run --set cpus.workers=isolated scenarios/default.scn
grep -q "workers: 2 on CPUs 2-3" "$tmp/out" && ok || bad "run's plan on isolated: $(cat "$tmp/out")"

# a CPU list past what a kernel can have (NR_CPUS): refused with a note,
# not a bitmap of a quarter GiB a worker
wide=$tmp/wide
cp -r "$fx/tuned" "$wide"
for c in 2 3; do
	mkdir -p "$wide/sys/devices/system/cpu/cpu$c/topology"
	echo 0-2147483647 >"$wide/sys/devices/system/cpu/cpu$c/topology/thread_siblings_list"
done
echo 0-2147483647 >"$wide/sys/devices/system/cpu/nohz_full"
maxrss() {	# maxrss COMMAND...: the command's status, its peak RSS in KiB in $tmp/rss
	python3 -c 'import resource, subprocess, sys
rc = subprocess.run(sys.argv[2:]).returncode
open(sys.argv[1], "w").write("%d\n" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.exit(rc)' "$tmp/rss" "$@"
}
# the same command on the root before it was widened: the bound is over
# what it takes (a sanitizer's shadow memory is in both)
expect_rc 0 maxrss env PCPBENCH_SYSROOT="$fx/tuned" PCPBENCH_HYPERVISOR=none "$pcpbench" \
	--topology "core:2 pu:2" check --cpus 2-3
base=$(($(cat "$tmp/rss") + 65536))
expect_rc 0 maxrss env PCPBENCH_SYSROOT="$wide" PCPBENCH_HYPERVISOR=none "$pcpbench" \
	--topology "core:2 pu:2" check --cpus 2-3
has_row smt unknown "CPU 2-3: absent"
said "cpuN/topology/thread_siblings_list: CPU 2147483647 is past the 8192 a kernel can have"
said "sys/devices/system/cpu/nohz_full: CPU 2147483647 is past the 8192"
[ "$(cat "$tmp/rss")" -lt "$base" ] && ok || bad "a wide CPU list took $(cat "$tmp/rss") KiB (under $base)"
echo 0-2147483647 >"$wide/sys/devices/system/cpu/isolated"
expect_rc 0 maxrss env PCPBENCH_SYSROOT="$wide" PCPBENCH_HYPERVISOR=none "$pcpbench" \
	--topology "core:2 pu:2" info
grep -q "^  isolated CPUs: *none (none taken: $wide/sys/devices/system/cpu/isolated: CPU 2147483647 is past" \
	"$tmp/out" && ok || bad "info on a wide isolated list: $(grep isolated "$tmp/out")"
[ "$(cat "$tmp/rss")" -lt "$base" ] && ok || bad "a wide isolated list took $(cat "$tmp/rss") KiB (under $base)"

# what a root's files and PCPBENCH_HYPERVISOR hold reaches the terminal
# escaped, each value on its own line: no escape sequence, no line of its
# own that could pass for the verdict
esc=$tmp/esc
cp -r "$fx/tuned" "$esc"
printf 'performance\n\nnothing here makes figures untrustworthy\033[2J\n' \
	>"$esc/sys/devices/system/cpu/cpu2/cpufreq/scaling_governor"
raw() {	# raw FILE: the file holds an escape, a BEL or a C1 CSI
	grep -q "$(printf '[\033\007]')" "$1" || LC_ALL=C grep -q "$(printf '\302\233')" "$1"
}
hv=$(printf 'KVM\033]0;owned\007\302\233\nnothing here makes figures untrustworthy')
check 1 "$esc" "$hv" "core:2 pu:2" --cpus 2-3
raw "$tmp/out" && bad "check prints a root's escape raw: $(cat -A "$tmp/out")" || ok
[ "$(grep -c "^nothing here makes figures untrustworthy" "$tmp/out")" -eq 0 ] && ok ||
	bad "a value forges the verdict: $(cat -A "$tmp/out")"
has_row cpufreq.governor bad 'CPU 2: performance\\n\\nnothing here makes figures untrustworthy\\x1b\[2J'
has_row hypervisor note 'KVM\\x1b]0;owned\\x07\\xc2\\x9b\\nnothing here makes figures untrustworthy'
grep -q "^untrustworthy here: cpufreq.governor performance.n.nnothing here makes figures untrustworthy.x1b\[2J (CPU 2)\$" \
	"$tmp/out" && ok || bad "the verdict: $(tail -1 "$tmp/out")"
expect_rc 0 env PCPBENCH_SYSROOT="$esc" PCPBENCH_HYPERVISOR="$hv" "$pcpbench" info
raw "$tmp/out" && bad "info prints PCPBENCH_HYPERVISOR raw: $(cat -A "$tmp/out")" || ok
grep -q '^  hypervisor: *KVM\\x1b]0;owned\\x07\\xc2\\x9b\\nnothing here' "$tmp/out" && ok ||
	bad "info's hypervisor: $(grep -A1 hypervisor "$tmp/out" | cat -A)"

# a carriage return is a control byte: the stream writes it \x0d, as it
# does one in a result, on the value's row
check 0 "$fx/tuned" "$(printf 'KVM\rnothing here')" "core:2 pu:2" --cpus 2-3
has_row hypervisor note 'KVM\\x0dnothing here'
! grep -q "$(printf '\r')" "$tmp/out" && ok ||
	bad "a carriage return printed raw: $(cat -A "$tmp/out")"

# a value longer than its field is refused, not cut inside a word
head -c 200 /dev/zero | tr '\0' p >"$esc/sys/devices/system/cpu/cpu3/cpufreq/scaling_governor"
check 0 "$esc" none "core:2 pu:2" --cpus 3
has_row cpufreq.governor unknown "CPU 3: unreadable"
said "cpuN/cpufreq/scaling_governor: longer than 63 bytes"

# a run's warnings and its result, under a root whose governor holds
# them: warned escaped, recorded on one line, and read back by report
cp -r "$fx/laptop" "$tmp/laptop-esc"
for g in "$tmp"/laptop-esc/sys/devices/system/cpu/cpu*/cpufreq/scaling_governor; do
	printf 'powersave\n\nTo reproduce:\033[2J\n' >"$g"
done
expect_rc 0 env PCPBENCH_SYSROOT="$tmp/laptop-esc" PCPBENCH_HYPERVISOR=none \
	PCPBENCH_LOCK_DIR="$tmp" "$pcpbench" run --quick --runs 1 --set run.duration_ms=50 \
	--set run.warmup_ms=10 --set run.designs=local_lock --out "$tmp/res-esc" \
	scenarios/default.scn
raw "$tmp/err" && bad "run warns a root's escape raw: $(cat -A "$tmp/err")" || ok
grep -q 'warning: cpufreq.governor on CPU [0-9].*: powersave\\n\\nTo reproduce:\\x1b\[2J (' \
	"$tmp/err" && ok || bad "the governor's warning: $(cat -A "$tmp/err")"
expect_rc 0 "$pcpbench" report --format email "$tmp"/res-esc/default-*
[ "$(grep -c '^To reproduce:' "$tmp/out")" -eq 1 ] && ok ||
	bad "a governor's line break in the letter: $(cat -A "$tmp/out")"

# a run on the laptop's tree: each bad setting warned once, over two
# scenarios; recorded in the context, the tables and the Test System
export PCPBENCH_LOCK_DIR=$tmp
expect_rc 0 env PCPBENCH_SYSROOT="$fx/laptop" PCPBENCH_HYPERVISOR=none "$pcpbench" run \
	--quick --runs 1 --set run.duration_ms=50 --set run.warmup_ms=10 \
	--set run.designs=local_lock --out "$tmp/res" scenarios/default.scn scenarios/default.scn
[ "$(grep -c "warning: boost: on" "$tmp/err")" -eq 1 ] && ok || bad "boost not warned once: $(cat "$tmp/err")"
grep -q "warning: cpufreq.governor on CPU [0-9].*: powersave" "$tmp/err" && ok ||
	bad "governor not warned: $(cat "$tmp/err")"
grep -q "^untrustworthy: .*boost on" "$tmp/out" && ok || bad "the tables do not say: $(head -4 "$tmp/out")"
result=$(ls -d "$tmp"/res/default-* | head -1)
python3 - "$result/result.json" <<'PY' && ok || bad "result.json's machine state"
import json, sys
r = json.load(open(sys.argv[1]))
c = r['context']
rows = {m['setting']: m for m in c['machine_state']}
assert rows['boost']['verdict'] == 'bad' and rows['boost']['value'] == 'on', rows['boost']
assert rows['hypervisor']['value'] == 'none', rows['hypervisor']
assert rows['thp']['value'] == 'always' and rows['thp']['verdict'] == 'note'
assert all(m['effect'] for m in c['machine_state'])
assert c['machine_root'].endswith('/tests/fixtures/machine/laptop/'), c['machine_root']
# re-executed without randomization, or kept with the reason
assert c['aslr'] == 'disabled by re-exec' or c['aslr'].startswith('kept: '), c['aslr']
assert any(n.startswith('machine state: boost: on') for n in r['notes']), r['notes']
PY
expect_rc 0 "$pcpbench" report --format email "$result"
grep -q "^    bad      boost  *on$" "$tmp/out" && ok || bad "Test System lacks boost"
grep -q "^  ASLR: " "$tmp/out" && ok || bad "Test System lacks ASLR"

# --keep-aslr keeps it, and says so
expect_rc 0 env PCPBENCH_SYSROOT="$fx/vm" PCPBENCH_HYPERVISOR=none "$pcpbench" run --keep-aslr \
	--quick --runs 1 --set run.duration_ms=50 --set run.warmup_ms=10 \
	--set run.designs=local_lock --out "$tmp/keep" scenarios/default.scn
grep -q "warning: aslr: on (randomize_va_space 2) (this process: kept (--keep-aslr))" \
	"$tmp/err" && ok || bad "--keep-aslr not warned: $(cat "$tmp/err")"
grep -q '"aslr": "kept (--keep-aslr)"' "$tmp"/keep/default-*/result.json && ok ||
	bad "--keep-aslr not recorded"

summary check
