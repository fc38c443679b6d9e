#!/bin/bash
# The instrumented backend as far as a machine without the instrument
# goes (docs/rig.md), on fixtures (tests/fixtures/instrumented/): its
# instrument found under PCPBENCH_SYSROOT or refused with a sentence, the
# booted kernel's design made the scenario's, each refusal (model,
# per-call counters, Poisson arrivals, a build file not the instrument's),
# reproduce --backend instrumented's plan and --with's refusal, report of
# two kernels' results as one (the seed's table) and the merges it
# refuses, compare against the kernel backend on the same kernel, and
# scripts/kernel.sh's and scripts/vm.sh's usage errors (no network).
#
# usage: instrumented.sh PCPBENCH SOURCE_ROOT
set -u
. "$(dirname "$0")/../lib.sh"
pcpbench=$(realpath "$1")
src=$(realpath "$2")
fx=$src/tests/fixtures/instrumented
cd "$src" || exit 1
scn=scenarios/seed-000-kernel.scn

# no instrument: a sentence, exit 2
expect_rc 2 env PCPBENCH_SYSROOT="$tmp" "$pcpbench" run --dry-run "$scn"
grep -q "$scn:.*: run.backend: instrumented: this kernel has no instrument: .*/sys/kernel/debug/pcpbench/build" \
	"$tmp/err" && ok || bad "no instrument: $(cat "$tmp/err")"

# each kernel's own design, as its instrument says: 7.3's stocks apart are
# local_trylock_7_3, under rig/series/spinlock-7.3's spinlock_t spinlock_7_3
for v in 6.1:local_lock:local_lock_t:6.1.192:stock_lock 6.1+seed-000-1-4:spinlock:spinlock_t:6.1.192:stock_lock \
	 7.3:local_trylock_7_3:local_trylock_t:7.3.4:lock 7.3-um+spinlock:spinlock_7_3:spinlock_t:7.3.4:lock; do
	IFS=: read -r variant design lock release field <<<"$v"
	expect_rc 0 env PCPBENCH_SYSROOT="$fx/root-$variant" "$pcpbench" run --dry-run "$scn"
	grep -qx "  design $(printf '%-14s' "$design") the booted kernel's own mm/memcontrol.c: $variant ($release), memcg_stock.$field a $lock" \
		"$tmp/out" && ok || bad "$variant: $(cat "$tmp/out")"
done

# refusals, each naming its key
root=$fx/root-6.1
refused() {
	local want=$1
	shift
	expect_rc 2 env PCPBENCH_SYSROOT="$root" "$pcpbench" run --dry-run "$@"
	grep -q -- "$want" "$tmp/err" && ok || bad "$*: no '$want': $(cat "$tmp/err")"
}
refused "run.model: pcp: the instrumented kernel times mm/memcontrol.c's stock functions (run.model = memcg)" \
	--set run.model=pcp --set run.backend=instrumented --set run.designs=local_lock scenarios/pcp-designs.scn
refused "counters.per_call: per-call counter reads are not in the instrumented backend" \
	--set counters.events=cycles --set counters.per_call=on "$scn"
refused "drain.arrivals: poisson: the instrumented backend drains by restarting the memory cgroup" \
	--set drain.arrivals=poisson --set drain.rate_hz=10 "$scn"
mkdir -p "$tmp/root/sys/kernel/debug/pcpbench"
printf 'variant 6.1\nstock_lock local_lock_t\nstock_size eighty\n' >"$tmp/root/sys/kernel/debug/pcpbench/build"
root=$tmp/root
refused "build:3: not the instrument's: 'stock_size'" "$scn"
printf 'variant x\ninstrument cycles\nstock_lock mutex\nstock_size 8\n' >"$tmp/root/sys/kernel/debug/pcpbench/build"
refused "the booted kernel's memcg_stock.stock_lock is a mutex, which no design of model memcg takes" "$scn"
printf 'variant x\ninstrument cycles\nstock_lock local_lock_t\nstock_size 112\nobj_stock_size 112\n' \
	>"$tmp/root/sys/kernel/debug/pcpbench/build"
refused "memcg_stock.lock is a local_lock_t (obj_stock apart), which no design of model memcg takes" "$scn"

# reproduce: the kernel's claims, planned; --with wants the instrumented backend
expect_rc 0 env PCPBENCH_SYSROOT="$fx/root-6.1" "$pcpbench" reproduce --backend instrumented --dry-run
grep -qxF "13 claims from $src/scenarios/seeds-kernel.ini, 2 scenarios, run.backend=instrumented" "$tmp/out" &&
	grep -q '000-kernel-consume_stock  *functions:spinlock:consume_stock:raw_avg_cycles against functions:local_lock' \
	"$tmp/out" && ok || bad "reproduce --dry-run: $(cat "$tmp/out" "$tmp/err")"
expect_rc 2 "$pcpbench" reproduce --with "$tmp" --dry-run
grep -q 'reproduce: --with merges the instrumented backend' "$tmp/err" && ok || bad "--with: $(cat "$tmp/err")"

# report: two kernels' results as one, the first's design the baseline
up=$fx/6.1/seed-000-kernel
ser=$fx/6.1+seed-000-1-4/seed-000-kernel
expect_rc 0 "$pcpbench" report "$up" "$ser"
grep -q '^local_lock  *Raw cycles  *STDDEV  *Call Count$' "$tmp/out" &&
	grep -q '^spinlock  *Raw cycles' "$tmp/out" && grep -q '^spinlock - local_lock  *Diff (cycles)' "$tmp/out" &&
	grep -q '^note: merged from .*: spinlock: the booted kernel 6.1+seed-000-1-4 (6.1.192, build id [0-9a-f]\{40\}' \
	"$tmp/out" && ok || bad "report of both kernels: $(cat "$tmp/out")"
expect_rc 0 "$pcpbench" report "$fx/6.1/seed-000-kernel-drain" "$fx/6.1+seed-000-1-4/seed-000-kernel-drain"
grep -q '^cpus  *local_lock  *spinlock  *Diff (cycles)' "$tmp/out" && ok || bad "the drain table: $(cat "$tmp/out")"
expect_rc 2 "$pcpbench" report "$up" "$up"
grep -q 'has design local_lock too: results of different designs merge' "$tmp/err" && ok || bad "$(cat "$tmp/err")"
expect_rc 2 "$pcpbench" report "$up" "$fx/6.1+seed-000-1-4/seed-000-kernel-drain"
grep -q 'is a result of seed-000-kernel-drain, not seed-000-kernel' "$tmp/err" && ok || bad "$(cat "$tmp/err")"
# the series' result with one field changed (a path of keys, its value) is not merged
mkdir -p "$tmp/other"
merge_refused() {
	python3 - "$ser/result.json" "$tmp/other/result.json" "$1" "$2" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
*path, last = sys.argv[3].split("/")
o = r
for k in path:
    o = o[k]
o[last] = sys.argv[4]
json.dump(r, open(sys.argv[2], "w"))
EOF
	expect_rc 2 "$pcpbench" report "$up" "$tmp/other"
	grep -q "$3" "$tmp/err" && ok || bad "$1 = $2: no '$3': $(cat "$tmp/err")"
}
merge_refused scenario/settings/run.ops 7 'ran run.ops otherwise: results of the same settings merge'
merge_refused context/instrumented/instrument contention \
	'was taken with another instrument: results of one machine, instrument and way of booting merge'
python3 - "$ser/result.json" "$tmp/other/result.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
r["context"]["instrumented"]["instrument"] = "contention"
json.dump(r, open(sys.argv[2], "w"))
EOF
expect_rc 2 "$pcpbench" report "$up" "$tmp/other"
grep -q 'was taken with another instrument: results of one machine, instrument and way of booting merge' \
	"$tmp/err" && ok || bad "$(cat "$tmp/err")"

# compare: the kernel's own functions against the model in the same booted kernel
expect_rc 0 "$pcpbench" compare "$up" "$fx/6.1/kernel-cover-letter-2.2"
grep -q 'context differs: run.backend: instrumented | kernel' "$tmp/out" &&
	grep -q '^local_lock: B - A' "$tmp/out" && grep -q '^consume_stock: ' "$tmp/out" && ok ||
	bad "compare: $(cat "$tmp/out" "$tmp/err")"

# the rig's and the guest's usage errors: exit 2, a sentence, nothing built
kernel=$src/scripts/kernel.sh
expect_rc 0 "$kernel" list
[ "$(cut -d' ' -f1 "$tmp/out" | tr '\n' ' ')" = "6.1 6.1+seed-000-1-4 6.1+seed-000-1-5 7.3 7.3-um 7.3-um+spinlock " ] && ok ||
	bad "kernel.sh list: $(cat "$tmp/out")"
while IFS='|' read -r want args; do
	# shellcheck disable=SC2086
	expect_rc 2 env PCPBENCH_KERNEL_CACHE="$tmp/cache" "$kernel" $args
	grep -q -- "$want" "$tmp/err" && ok || bad "kernel.sh $args: no '$want': $(cat "$tmp/err")"
done <<'LIST'
no variant 'nope'|build nope
no variant (scripts/kernel.sh list names them)|build
--series applies to a base (6.1 7.3 7.3-um), not '6.1+seed-000-1-4'|build --series /tmp 6.1+seed-000-1-4
base 7.3 has no contention instrument (.*rig/instrument/7.3/contention.patch): its stocks take no spinlock|build --contention 7.3
--name without --series|build --name x 6.1
--config /nonexistent: no such file|build --config /nonexistent 6.1
unknown option '--fast'|build --fast 6.1
one variant at a time|build 6.1 6.1+seed-000-1-5
unknown command 'boot'|boot 6.1
LIST
[ ! -e "$tmp/cache/trees" ] && ok || bad "kernel.sh made a tree on a usage error"
expect_rc 2 "$src/scripts/vm.sh" --accel xen -- true
grep -q -- '--accel xen: kvm, tcg or auto' "$tmp/err" && ok || bad "vm.sh --accel: $(cat "$tmp/err")"
expect_rc 2 "$src/scripts/vm.sh" --kernel "$tmp/none" -- true
grep -q -- "--kernel $tmp/none: no such file" "$tmp/err" && ok || bad "vm.sh --kernel: $(cat "$tmp/err")"
# a User-mode Linux kernel (an ELF executable) is started, not booted: what
# it needs built in, one node, its host CPUs, no accelerator; a bzImage
# takes no --host-cpus. Each refused before anything is built or run
mkdir -p "$tmp/um" "$tmp/bz"
cp "$(type -P true)" "$tmp/um/linux"
printf 'CONFIG_BLK_DEV_INITRD=y\nCONFIG_DEVTMPFS=y\n' >"$tmp/um/config"
expect_rc 2 "$src/scripts/vm.sh" --kernel "$tmp/um/linux" -- true
grep -q 'has no CONFIG_BLK_DEV_UBD=y' "$tmp/err" && ok || bad "vm.sh UML config: $(cat "$tmp/err")"
echo CONFIG_BLK_DEV_UBD=y >>"$tmp/um/config"
while IFS='|' read -r want args; do
	# shellcheck disable=SC2086
	expect_rc 2 "$src/scripts/vm.sh" --kernel "$tmp/um/linux" $args -- true
	grep -q -- "$want" "$tmp/err" && ok || bad "vm.sh UML $args: $(cat "$tmp/err")"
done <<'LIST'
--nodes 2: User-mode Linux has no NUMA, one node alone|--nodes 2
--accel tcg: a User-mode Linux kernel runs as a host process|--accel tcg
--host-cpus 4096: not CPUs this machine runs on|--host-cpus 4096
--host-cpus 0-x: a CPU list|--host-cpus 0-x
--cpus 65: UML has at most 64|--cpus 65
LIST
printf 'not an ELF file' >"$tmp/bz/bzImage"
printf 'CONFIG_%s=y\n' VIRTIO_PCI VIRTIO_BLK BLK_DEV_INITRD DEVTMPFS >"$tmp/bz/config"
expect_rc 2 "$src/scripts/vm.sh" --kernel "$tmp/bz/bzImage" --host-cpus 0 -- true
grep -q -- '--host-cpus: for a User-mode Linux kernel' "$tmp/err" && ok || bad "vm.sh --host-cpus on a bzImage: $(cat "$tmp/err")"
summary instrumented
