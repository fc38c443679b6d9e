#!/bin/bash
# The kernel rig end to end (docs/kernel.md): Debian's 6.1 and seed 000's
# 1-4 built by scripts/kernel.sh with the seed's instrument (cold, then
# found in the cache), the instrumented functions' regions read from the
# built code (tests/kernel_regions.py), a user's series from an mbox and
# one that does not apply, pcpbench.ko built against the same tree, then
# each kernel booted in scripts/vm.sh's four-node guest with
# tests/rig/guest.sh: the instrumented backend's functions and drains,
# reproduce --backend instrumented (the series' merged with upstream's),
# and on upstream the kernel backend beside it; then Debian's 7.3 with
# its instrument the same way (its regions, the module against its tree,
# its guest with the model's local_trylock_7_3 beside the kernel's own),
# and 7.3 as User-mode Linux, started with 2 CPUs (host threads) by
# scripts/vm.sh, its instrumented functions and drains natively, without
# and with the project's series (rig/series/spinlock-7.3).
# Functional only: the guest's clock is emulated, no figure's size is
# checked.
#
# usage: rig.sh PCPBENCH SOURCE_ROOT [native|portable]
# Skipped (77) where the kernel's build tools, its source package or the
# guest cannot be had. PCPBENCH_RIG_KEEP=DIR keeps the guests' results.
set -u
. "$(dirname "$0")/lib.sh"
pcpbench=$(realpath "$1")
src=$(realpath "$2")
kernel=$src/scripts/kernel.sh
skip() { echo "rig: skipped: $*"; exit 77; }

for t in make gcc flex bison bc patch objdump python3; do
	command -v "$t" >/dev/null || skip "no $t (scripts/quickstart.sh test installs the kernel's build tools)"
done
[ -f /usr/include/libelf.h ] || skip "no libelf.h (Debian: libelf-dev), which the kernel's objtool needs"
vm=${PCPBENCH_VM_SH:-$src/scripts/vm.sh}
if [ "${3:-native}" = native ]; then
	pcpbench=$("$vm" --build "$src/build-vm") || { bad "build-vm: the guest's pcpbench"; summary rig; exit; }
fi

# ---- the kernels: cold, then from the cache ----

bz=()
for v in 6.1 6.1+seed-000-1-4; do
	start=$SECONDS
	if ! "$kernel" build "$v" >"$tmp/kb.out" 2>"$tmp/kb.err"; then
		grep -q 'cannot download' "$tmp/kb.err" && skip "$(tail -n 1 "$tmp/kb.err")"
		bad "kernel.sh build $v: $(tail -n 20 "$tmp/kb.err")"
		summary rig
		exit
	fi
	b=$(tail -n 1 "$tmp/kb.out")
	echo "rig: $v: $b in $((SECONDS - start)) s"
	[ -f "$b" ] && ok || bad "$v: no bzImage at '$b'"
	bz+=("$b")
	# found again: the same path, said so, nothing built
	start=$SECONDS
	"$kernel" build "$v" >"$tmp/kb2.out" 2>"$tmp/kb2.err"
	echo "rig: $v again in $((SECONDS - start)) s: $(cat "$tmp/kb2.err")"
	[ "$(tail -n 1 "$tmp/kb2.out")" = "$b" ] && grep -q 'built before' "$tmp/kb2.err" &&
		! grep -q 'building' "$tmp/kb2.err" && ok || bad "$v from the cache: $(cat "$tmp/kb2.err")"
	d=$(dirname "$b")
	for f in System.map config Module.symvers memcontrol.o build.txt; do
		[ -s "$d/$f" ] && ok || bad "$v: no $f beside the bzImage"
	done
	grep -qx "variant=$v" "$d/build.txt" && grep -qx 'instrument=cycles' "$d/build.txt" &&
		grep -qx 'release=6.1.192' "$d/build.txt" && ok || bad "$v: build.txt: $(cat "$d/build.txt")"
	grep -qx 'CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE=y' "$d/config" && ok || bad "$v: not -O2"
done
up=$(dirname "${bz[0]}")
ser=$(dirname "${bz[1]}")
"$kernel" list | head -n 3 | cut -d' ' -f1 | tr '\n' ' ' | grep -qx '6.1 6.1+seed-000-1-4 6.1+seed-000-1-5 ' &&
	ok || bad "kernel.sh list: $("$kernel" list)"

# ---- the regions: nothing of a timed function outside its reads ----

for d in "$up" "$ser"; do
	if python3 "$src/tests/kernel_regions.py" --calls "$d/memcontrol.o" >"$tmp/regions" 2>&1; then
		ok
	else
		bad "kernel_regions.py $d/memcontrol.o: $(grep -v ': ok' "$tmp/regions")"
	fi
	sed 's|^.*/memcontrol.o: |  |' "$tmp/regions"
	cp "$tmp/regions" "$d.regions"
done
# the series' consume_stock() takes the stock's spinlock inside its region, upstream's no lock call
grep -q 'consume_stock: ok.*calls inside: _raw_spin_lock_irqsave, _raw_spin_unlock_irqrestore$' \
	"$ser.regions" && ok || bad "the series' consume_stock(): $(grep consume_stock: "$ser.regions")"
grep -q 'consume_stock: ok.*calls inside: none$' "$up.regions" && ok ||
	bad "upstream's consume_stock(): $(grep consume_stock: "$up.regions")"

# ---- a user's series: an mbox of the seed's 1-4, and one that does not apply ----

for p in $(head -n 4 "$src/rig/series/seed-000/series"); do
	printf 'From pcpbench Mon Sep 17 00:00:00 2001\n'
	cat "$src/rig/series/seed-000/$p"
	printf '\n'
done >"$tmp/seed.mbox"
if "$kernel" build --series "$tmp/seed.mbox" 6.1 >"$tmp/kb.out" 2>"$tmp/kb.err" &&
	grep -qx 'variant=6.1+seed' "$(dirname "$(tail -n 1 "$tmp/kb.out")")/build.txt"; then
	ok
else
	bad "--series seed.mbox: $(tail -n 5 "$tmp/kb.err")"
fi
mkdir -p "$tmp/broken"
sed 's/^-\tlocal_lock_t stock_lock;/-\tint no_such_line;/' \
	"$src/rig/series/seed-000/0002-change-stock-lock-type-from-local-lock-t-to-spinlock.patch" \
	>"$tmp/broken/0001-broken.patch"
"$kernel" build --series "$tmp/broken" 6.1 >"$tmp/kb.out" 2>"$tmp/kb.err"
[ $? -eq 1 ] && grep -q '0001-broken.patch does not apply' "$tmp/kb.err" && ok ||
	bad "a series that does not apply: $(tail -n 3 "$tmp/kb.err")"

# ---- pcpbench.ko against the same tree ----

kdir=$("$kernel" kdir 6.1 2>"$tmp/kdir.err" | tail -n 1)
if make -C "$src/kmod" OUT="$tmp/kmod" KDIR="$kdir" >"$tmp/make.log" 2>&1; then
	ok
else
	bad "the module does not build against $kdir: $(tail -n 20 "$tmp/make.log")"
fi
grep -i 'warning:' "$tmp/make.log" && bad "the module's build warns" || ok

# ---- each kernel in the guest ----

# One guest of a role: a kernel that panics in its boot (a TCG hazard) is
# booted once more by scripts/vm.sh itself, and said so in its stderr
guest() {
	local role=$1 image=$2 out=$3
	shift 3
	rm -rf "$out"
	mkdir -p "$out"
	"$vm" --kernel "$image" --pcpbench "$pcpbench" --out "$out" --timeout 1500 \
		--add "$src/tests/rig/guest.sh:/pcb/guest.sh" "$@" \
		-- env ROLE="$role" sh guest.sh >"$out.out" 2>"$out.err"
	local rc=$?
	grep -q "booting the guest once more" "$out.err" &&
		echo "  rig: the $role guest booted once more: $(grep -m1 'RIP:' "$out.err")"
	return $rc
}
guest upstream "${bz[0]}" "$tmp/up" --add "$tmp/kmod/pcpbench.ko:/pcb/pcpbench.ko"
rc=$?
[ $rc -eq 77 ] && skip "the guest: $(tail -n 3 "$tmp/up.err")"
[ $rc -eq 0 ] && ok || bad "the upstream guest: exit $rc: $(tail -n 30 "$tmp/up.err")"
guest series "${bz[1]}" "$tmp/ser" --add "$tmp/up/repro:/pcb/up/repro"
rc=$?
[ $rc -eq 0 ] && ok || bad "the series' guest: exit $rc: $(tail -n 30 "$tmp/ser.err")"
grep -h '^vm: ' "$tmp/up.err" "$tmp/ser.err" | sed 's/^/  /'

for r in up ser; do
	for t in fn drain repro; do
		[ "$(cat "$tmp/$r/$t.rc" 2>/dev/null)" = 0 ] && ok ||
			bad "$r $t: exit $(cat "$tmp/$r/$t.rc" 2>/dev/null): $(tail -n 20 "$tmp/$r/$t.err" 2>/dev/null)"
	done
	[ "$(cat "$tmp/$r/refuse-model.rc" 2>/dev/null)" = 2 ] &&
		grep -q 'run.model = memcg' "$tmp/$r/refuse-model.txt" && ok ||
		bad "$r: run.model = pcp: $(cat "$tmp/$r/refuse-model.txt" 2>/dev/null)"
	sed 's/^/  /' "$tmp/$r/build.txt"
	for f in "$tmp/$r"/instr/*/result.json; do
		[ -f "$f" ] && expect_rc 0 "$pcpbench" report "$(dirname "$f")"
	done
done
for t in cover-letter-2.2 drain-scaling; do
	[ "$(cat "$tmp/up/kb-$t.rc" 2>/dev/null)" = 0 ] && ok ||
		bad "kernel backend $t: exit $(cat "$tmp/up/kb-$t.rc" 2>/dev/null): $(tail -n 20 "$tmp/up/kb-$t.err" 2>/dev/null)"
done
[ "$(cat "$tmp/up/loaded.txt" 2>/dev/null)" = 0 ] && ok || bad "pcpbench.ko still loaded"

# the results: the kernel's own, every timed function called, the lock the instrument saw
python3 "$src/tests/rig/results.py" "$tmp/up/instr" 6.1 local_lock_t local_lock '6\.1\.192$' &&
	ok || bad "upstream's instrumented results (above)"
python3 "$src/tests/rig/results.py" "$tmp/ser/instr" 6.1+seed-000-1-4 spinlock_t spinlock \
	'6\.1\.192$' && ok || bad "the series' instrumented results (above)"

# the seed's table: upstream's and the series' kernels reported as one
up_fn=$(ls -d "$tmp"/up/instr/seed-000-kernel-2*/ | head -n 1)
ser_fn=$(ls -d "$tmp"/ser/instr/seed-000-kernel-2*/ | head -n 1)
expect_rc 0 "$pcpbench" report "$up_fn" "$ser_fn"
grep -q '^spinlock - local_lock ' "$tmp/out" && grep -q '^consume_stock:' "$tmp/out" && ok ||
	bad "report of both kernels: $(cat "$tmp/out" "$tmp/err")"
sed -n '/Raw cycles/,/^geomean/p' "$tmp/out" | sed 's/^/  /'
# compare: the kernel's own functions against the model in the same kernel
expect_rc 0 "$pcpbench" compare "$up_fn" "$tmp"/up/kb/cover-letter-2.2-*/
grep -q 'run.backend: instrumented | kernel' "$tmp/out" && grep -q '^local_lock: B - A' "$tmp/out" &&
	ok || bad "compare instrumented | kernel: $(cat "$tmp/out" "$tmp/err")"
sed -n '/^local_lock  /,/^geomean/p' "$tmp/out" | sed 's/^/  /'
# reproduce on the series' kernel with upstream's results: every claim has a figure
grep -q 'merged up/repro/seed-000-kernel-2' "$tmp/ser/repro.err" && ok ||
	bad "reproduce --with: $(tail -n 5 "$tmp/ser/repro.err")"
csv=$(ls "$tmp"/ser/repro/reproduce-*/reproduce.csv 2>/dev/null | head -n 1)
python3 - "$csv" <<'EOF' && ok || bad "reproduce.csv of the series' kernel (above)"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print("  reproduce --with: %d claims, here = %s" % (len(rows), [r["here"] for r in rows]))
sys.exit(0 if len(rows) == 13 and all(r["here"] for r in rows) else 1)
EOF
if grep -E 'BUG|WARNING|Oops|soft lockup|stall' "$tmp"/up/dmesg.txt "$tmp"/ser/dmesg.txt; then
	bad "the guests' kernel logs (above)"
else
	ok
fi

# the guest's kernel log (DIR/dmesg.txt) without a splat
clean_log() {
	if grep -E 'BUG|WARNING|Oops|soft lockup|stall' "$2/dmesg.txt"; then
		bad "the $1 guest's kernel log (above)"
	else
		ok
	fi
}
# kernel.sh build VARIANT failed: said and left where its source cannot
# be downloaded (the checks before stand alone), else a failure
build_failed() {
	if grep -q 'cannot download' "$tmp/kb.err"; then
		echo "rig: $1 not checked: $(tail -n 1 "$tmp/kb.err")"
	else
		bad "kernel.sh build $1: $(tail -n 20 "$tmp/kb.err")"
	fi
}

# ---- 7.3: its instrument on the split stocks, pcpbench.ko against its tree ----

# Debian's 7.3 (trixie-backports), the object rows timed as the pieces of
# the slab hooks' hold (rig/instrument/7.3); the module built against the
# same tree and the model's local_trylock_7_3 run beside the kernel's own
# in its guest. Where 7.3's source cannot be downloaded, said, and the
# 6.1 checks above stand alone.
start=$SECONDS
if "$kernel" build 7.3 >"$tmp/kb.out" 2>"$tmp/kb.err"; then
	b73=$(tail -n 1 "$tmp/kb.out")
	d73=$(dirname "$b73")
	echo "rig: 7.3: $b73 in $((SECONDS - start)) s"
	grep -qx 'variant=7.3' "$d73/build.txt" && grep -qx 'instrument=cycles' "$d73/build.txt" &&
		grep -q '^release=7\.3\.' "$d73/build.txt" && ok || bad "7.3: build.txt: $(cat "$d73/build.txt")"
	# its regions, the object rows' pieces among them
	if python3 "$src/tests/kernel_regions.py" --calls "$d73/memcontrol.o" >"$tmp/regions" 2>&1; then
		ok
	else
		bad "kernel_regions.py 7.3: $(grep -v ': ok' "$tmp/regions")"
	fi
	sed 's|^.*/memcontrol.o: |  |' "$tmp/regions"
	grep -q '^.*: consume_obj_stock (pcb_consume_obj_stock): ok.*calls inside: .*trylock_stock' \
		"$tmp/regions" && grep -q ': mod_objcg_state (pcb_account_obj_stock): ok' "$tmp/regions" &&
		ok || bad "7.3's object rows are not the hooks' pieces: $(cat "$tmp/regions")"
	kdir=$("$kernel" kdir 7.3 2>"$tmp/kdir.err" | tail -n 1)
	if make -C "$src/kmod" OUT="$tmp/kmod73" KDIR="$kdir" >"$tmp/make.log" 2>&1; then
		ok
	else
		bad "the module does not build against $kdir: $(tail -n 20 "$tmp/make.log")"
	fi
	grep -i 'warning:' "$tmp/make.log" && bad "the module's build against 7.3 warns" || ok
	guest 7.3 "$b73" "$tmp/k73" --add "$tmp/kmod73/pcpbench.ko:/pcb/pcpbench.ko"
	rc=$?
	[ $rc -eq 0 ] && ok || bad "the 7.3 guest: exit $rc: $(tail -n 30 "$tmp/k73.err")"
	grep -h '^vm: ' "$tmp/k73.err" | sed 's/^/  /'
	for t in fn drain kb-cover-letter-2.2; do
		[ "$(cat "$tmp/k73/$t.rc" 2>/dev/null)" = 0 ] && ok ||
			bad "7.3 $t: exit $(cat "$tmp/k73/$t.rc" 2>/dev/null): $(tail -n 20 "$tmp/k73/$t.err" 2>/dev/null)"
	done
	[ "$(cat "$tmp/k73/loaded.txt" 2>/dev/null)" = 0 ] && ok || bad "7.3: pcpbench.ko still loaded"
	sed 's/^/  /' "$tmp/k73/build.txt"
	python3 "$src/tests/rig/results.py" "$tmp/k73/instr" 7.3 local_trylock_t local_trylock_7_3 \
		'7\.3\.' && ok || bad "the 7.3 instrumented results (above)"
	k73_fn=$(ls -d "$tmp"/k73/instr/seed-000-kernel-2*/ | head -n 1)
	expect_rc 0 "$pcpbench" compare "$k73_fn" "$tmp"/k73/kb/cover-letter-2.2-*/
	grep -q 'run.backend: instrumented | kernel' "$tmp/out" &&
		grep -q '^local_trylock_7_3: B - A' "$tmp/out" && ok ||
		bad "compare 7.3 instrumented | kernel: $(cat "$tmp/out" "$tmp/err")"
	sed -n '/^local_trylock_7_3  /,/^geomean/p' "$tmp/out" | sed 's/^/  /'
	clean_log 7.3 "$tmp/k73"
else
	build_failed 7.3
fi

# ---- 7.3 as User-mode Linux: the kernel's own code run natively ----

# The same source, series and instrument, ARCH=um with SMP
# (rig/config/7.3-um.config), started by scripts/vm.sh as a host process
# with 2 CPUs: the instrumented functions and drains, result.json's
# platform uml; then the project's series (rig/series/spinlock-7.3) on
# it, whose stocks' spinlock_t the instrumented backend takes as
# spinlock_7_3. No figure's size is checked here either.
# um_guest VARIANT DIR LOCK DESIGN: build VARIANT, start it, check its results
um_guest() {
	local variant=$1 out=$2 lock=$3 design=$4 um dum rc t start=$SECONDS

	if ! "$kernel" build "$variant" >"$tmp/kb.out" 2>"$tmp/kb.err"; then
		build_failed "$variant"
		return
	fi
	um=$(tail -n 1 "$tmp/kb.out")
	dum=$(dirname "$um")
	echo "rig: $variant: $um in $((SECONDS - start)) s"
	[ "$(basename "$um")" = linux ] && [ -x "$um" ] && grep -qx 'arch=um' "$dum/build.txt" &&
		grep -qx 'instrument=cycles' "$dum/build.txt" && grep -q '^linux_sha256=' "$dum/build.txt" &&
		ok || bad "$variant: $um, build.txt: $(cat "$dum/build.txt")"
	grep -qx 'CONFIG_SMP=y' "$dum/config" && grep -qx 'CONFIG_MEMCG=y' "$dum/config" &&
		! grep -q '^CONFIG_HOSTFS=' "$dum/config" && ok ||
		bad "$variant's config: SMP and MEMCG on, no hostfs"
	# x86's SMP barriers (rig/config/7.3-um.patch): the instrument's
	# spin_trylock() primitive releases the lock with a plain store, no mfence
	prim=$(objdump -d --no-show-raw-insn "$dum/memcontrol.o" |
		awk '/<pcb_instr_prim_spin_trylock>:/,/^$/')
	grep -q '^base_patch=7.3-um.patch sha256:' "$dum/build.txt" &&
		grep -q 'movb *\$0x0,(%' <<<"$prim" && ! grep -q mfence <<<"$prim" && ok ||
		bad "$variant: spin_unlock() not x86's: $(grep -m1 '^base_patch=' "$dum/build.txt"), $(grep -c mfence <<<"$prim") mfence"
	guest "$variant" "$um" "$out" --cpus 2 --mem 1024
	rc=$?
	[ $rc -eq 0 ] && ok || bad "the $variant guest: exit $rc: $(tail -n 30 "$out.err")"
	grep -h '^vm: ' "$out.err" | sed 's/^/  /'
	for t in fn drain; do
		[ "$(cat "$out/$t.rc" 2>/dev/null)" = 0 ] && ok ||
			bad "$variant $t: exit $(cat "$out/$t.rc" 2>/dev/null): $(tail -n 20 "$out/$t.err" 2>/dev/null)"
	done
	python3 "$src/tests/rig/results.py" "$out/instr" "$variant" "$lock" "$design" \
		'7\.3\.' uml && ok || bad "the $variant instrumented results (above)"
	grep '^primitives: ' "$out/fn.txt" | sed 's/^/  /'
	grep -q '^primitives: cycles each .*: call [0-9.-]*, this_cpu_add' "$out/fn.txt" &&
		ok || bad "$variant's table has no primitives' line: $(head -n 12 "$out/fn.txt")"
	clean_log "$variant" "$out"
}
um_guest 7.3-um "$tmp/um" local_trylock_t local_trylock_7_3
um_guest 7.3-um+spinlock "$tmp/umsp" spinlock_t spinlock_7_3
# the two kernels' results reported as one: the series against 7.3, as
# seed 000's Patched - Upstream
pair=("$tmp"/um/instr/seed-000-kernel-2*/ "$tmp"/umsp/instr/seed-000-kernel-2*/)
if [ -d "${pair[0]}" ] && [ -d "${pair[1]}" ]; then
	expect_rc 0 "$pcpbench" report "${pair[@]}"
	grep -q '^spinlock_7_3 - local_trylock_7_3 *Diff (cycles)' "$tmp/out" && ok ||
		bad "report of 7.3-um and 7.3-um+spinlock: no Diff block: $(head -n 30 "$tmp/out")"
fi
[ -z "${PCPBENCH_RIG_KEEP:-}" ] || cp -r "$tmp/." "$PCPBENCH_RIG_KEEP/"
summary rig
