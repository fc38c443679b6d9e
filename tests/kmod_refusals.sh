#!/bin/bash
# The kernel backend's refusals where they can be made without a kernel
# to load into: a design with no kernel meaning, not root, a kernel
# release older than 6.1, no headers and no module, a run.module
# built for no kernel, or not pcpbench.ko, or speaking another plan
# version, an unsigned one under lockdown or enforced module signatures
# (with the steps that sign it). Each exits 2
# with its sentence, writes no result and loads nothing. PCPBENCH_SYSROOT
# gives the kernel's files (its release, lockdown, sig_enforce) from a
# tree made here.
set -u
pcpbench=$(realpath "$1")
src=$(realpath "$2")
. "$(dirname "$0")/lib.sh"
cd "$src" || exit 1

root=$tmp/root
mkdir -p "$root/proc/sys/kernel" "$root/sys/kernel/security" \
	"$root/sys/module/module/parameters"
short="--quick --out $tmp/res scenarios/default.scn"
refused() {	# refused WHAT SENTENCE ARGS...: exit 2, the sentence, nothing written or loaded
	local what=$1 want=$2
	shift 2
	expect_rc 2 env PCPBENCH_SYSROOT="$root" "$@"
	grep -qF -- "$want" "$tmp/err" && ok || bad "$what: not '$want': $(cat "$tmp/err")"
	[ ! -e "$tmp/res" ] && ok || bad "$what: a result was written"
	[ ! -e /sys/module/pcpbench ] && ok || bad "$what: pcpbench.ko is loaded"
}

echo 6.1.0-57-cloud-amd64 >"$root/proc/sys/kernel/osrelease"
refused rseq "rseq: not in the kernel backend: restartable sequences" \
	"$pcpbench" run --backend kernel --set run.designs=local_lock,rseq $short
refused ck "spinlock_cas: not in the kernel backend: Concurrency Kit's CAS lock" \
	"$pcpbench" run --set run.backend=kernel --set run.designs=spinlock_cas $short
refused per-call "counters.per_call: per-call counter reads are not in the kernel backend" \
	"$pcpbench" run --backend kernel --set run.timing=call --set counters.per_call=on $short
refused backend "'gpu' is not one of: userspace, kernel" \
	"$pcpbench" run --backend gpu $short
# as uid 65534, the scenario from a folder it may read (a checkout made in
# a mktemp -d folder is its owner's alone); said where it cannot run pcpbench
nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	pub=$(mktemp -d)
	chmod 755 "$pub"
	cp scenarios/default.scn "$pub/"
	if "${nobody[@]}" test -x "$pcpbench"; then
		refused "not root" "run pcpbench as root (uid 65534)" \
			"${nobody[@]}" "$pcpbench" run --backend kernel --quick --out "$tmp/res" \
			"$pub/default.scn"
	else
		echo "kmod-refusals: not root: not checked: uid 65534 cannot run $pcpbench (its folders are their owner's)"
	fi
	rm -rf "$pub"
fi
if [ "$(id -u)" = 0 ]; then
	echo 5.10.0-test >"$root/proc/sys/kernel/osrelease"
	refused release "kernel 5.10.0-test: the kernel backend's module is written for Linux 6.1 and later (its build refuses an older tree), not 5.10" \
		"$pcpbench" run --backend kernel $short
	echo 6.1.0-pcb-test >"$root/proc/sys/kernel/osrelease"
	refused headers "no headers for this kernel: /lib/modules/6.1.0-pcb-test/build is missing" \
		"$pcpbench" run --backend kernel $short
	# a newer release is no refusal of its own: the next check's, the module's build
	for rel in 6.12.117-pcb-test 7.3.4-pcb-test; do
		echo $rel >"$root/proc/sys/kernel/osrelease"
		refused headers-$rel "no headers for this kernel: /lib/modules/$rel/build is missing" \
			"$pcpbench" run --backend kernel $short
	done
	echo 6.1.0-pcb-test >"$root/proc/sys/kernel/osrelease"
	refused module "run.module: $src/README.md: not a kernel module (no vermagic)" \
		"$pcpbench" run --backend kernel --set run.module="$src/README.md" $short
	# a module that fits the kernel but is not pcpbench.ko, or speaks another
	# plan version: its modinfo says so, and it is not loaded
	fake() {	# fake FILE NAME PLAN: an object whose .modinfo is a module's
		{
			echo '#define INFO(n, s) __attribute__((section(".modinfo"), used, aligned(1))) static const char n[] = s;'
			echo 'INFO(v, "vermagic=6.1.0-pcb-test SMP mod_unload modversions ")'
			echo "INFO(n, \"name=$2\")"
			[ -z "$3" ] || echo "INFO(p, \"pcpbench_plan=$3\")"
		} >"$tmp/fake.c"
		cc -c -o "$1" "$tmp/fake.c"
	}
	fake "$tmp/dummy.ko" dummy 2
	refused not-pcpbench "run.module: $tmp/dummy.ko is the module 'dummy', not pcpbench" \
		"$pcpbench" run --backend kernel --set run.module="$tmp/dummy.ko" $short
	fake "$tmp/old.ko" pcpbench 1
	plan=$(sed -n 's/^#define PCB_PLAN_VERSION[[:space:]]*\([0-9]*\)$/\1/p' \
		"$src/harness/seam/pcb/plan.h")
	refused old-plan "run.module: $tmp/old.ko speaks plan version 1, this pcpbench $plan" \
		"$pcpbench" run --backend kernel --set run.module="$tmp/old.ko" $short
	fake "$tmp/none.ko" pcpbench ""
	refused no-plan "run.module: $tmp/none.ko speaks plan version none" \
		"$pcpbench" run --backend kernel --set run.module="$tmp/none.ko" $short
	# lockdown and enforced signatures refuse an unsigned module that fits
	# (this plan's), naming the steps that sign it
	fake "$tmp/cur.ko" pcpbench "$plan"
	steps="sign it with a machine owner key the kernel trusts (mokutil --import, then scripts/sign-file sha256 of the kernel's headers): docs/kernel.md, \"Secure Boot and lockdown\""
	echo "none [integrity] confidentiality" >"$root/sys/kernel/security/lockdown"
	refused lockdown "the kernel is locked down (none [integrity] confidentiality, /sys/kernel/security/lockdown): it loads no unsigned module, and $tmp/cur.ko is unsigned: $steps" \
		"$pcpbench" run --backend kernel --set run.module="$tmp/cur.ko" $short
	echo "[none] integrity confidentiality" >"$root/sys/kernel/security/lockdown"
	echo Y >"$root/sys/module/module/parameters/sig_enforce"
	refused signatures "the kernel enforces module signatures (/sys/module/module/parameters/sig_enforce is Y) and $tmp/cur.ko is unsigned: $steps, or boot without module.sig_enforce" \
		"$pcpbench" run --backend kernel --set run.module="$tmp/cur.ko" $short
	# a FIFO where lockdown is (no writer) is not read, not waited on
	rm "$root/sys/kernel/security/lockdown"
	mkfifo "$root/sys/kernel/security/lockdown"
	refused lockdown-fifo "the kernel enforces module signatures" \
		timeout 60 "$pcpbench" run --backend kernel --set run.module="$tmp/cur.ko" $short
	rm "$root/sys/kernel/security/lockdown"
	echo N >"$root/sys/module/module/parameters/sig_enforce"
fi
# a dry run plans without a module
expect_rc 0 "$pcpbench" run --dry-run --backend kernel scenarios/default.scn

# reproduce --backend kernel: a claim naming a design the kernel backend
# refuses, or of a scenario it refuses whole (per-call counters, set on
# every scenario), is skipped with the refusal as run prints it; the others
# run, Poisson arrivals' too (tests/claims/kernel.ini)
kclaims=tests/claims/kernel.ini
expect_rc 0 "$pcpbench" reproduce --dry-run --quick --backend kernel --claims $kclaims
for want in "beyond-qsbr +functions:qsbr rate_hz=0:consume_stock against" \
	"beyond-rseq +skipped: rseq: not in the kernel backend: restartable sequences" \
	"000-contention +contention:spinlock_cc:\\* against drains:spinlock_cc:count" \
	"beyond-spinlock +functions:spinlock rate_hz=0:consume_stock against"; do
	grep -qE -- "^ *$want" "$tmp/out" && ok || bad "reproduce --dry-run: no '$want': $(cat "$tmp/out")"
done
expect_rc 0 "$pcpbench" reproduce --dry-run --quick --backend kernel --claims $kclaims \
	--set counters.events=cycles --set counters.per_call=on
per_call="skipped: --set counters.per_call: per-call counter reads are not in the kernel backend"
for want in "scenario beyond: not run" "scenario contention-seed: not run" \
	"beyond-spinlock +$per_call" "000-contention +$per_call"; do
	grep -qE -- "^ *$want" "$tmp/out" && ok || bad "reproduce --dry-run, per-call: no '$want': $(cat "$tmp/out")"
done
expect_rc 0 "$pcpbench" reproduce --dry-run --quick --claims $kclaims
grep -q skipped "$tmp/out" && bad "reproduce, userspace: a claim skipped: $(cat "$tmp/out")" || ok
if [ "$(id -u)" = 0 ]; then
	echo 5.10.0-test >"$root/proc/sys/kernel/osrelease"
	refused reproduce-release "reproduce: $src/scenarios/beyond.scn: run.backend = kernel: kernel 5.10.0-test" \
		"$pcpbench" reproduce --backend kernel --quick --out "$tmp/res" --claims $kclaims
fi
summary kmod-refusals
