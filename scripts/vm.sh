#!/bin/bash
# A machine this one is not: boot Debian's cloud kernel, or one the
# kernel rig built (scripts/kernel.sh), under QEMU with a chosen NUMA
# topology, or a User-mode Linux kernel the rig built as a host process,
# run one command in it with pcpbench on its PATH, bring its results/
# back and exit with the command's status. Everything the guest runs is
# packed into an initramfs (the cloud kernel has no 9p); results come
# back as a tar written to a virtio disk (UML: a ubd disk over a host
# file). Under QEMU's software emulation (TCG) the guest's clock is
# emulated: its figures are functional, never timings (docs/machines.md);
# under KVM, where this machine's /dev/kvm boots the kernel, they are a
# VM's; under UML the kernel's own code runs natively, at the host CPU's
# speed, with what UML is not (docs/rig.md, "User-mode Linux").
set -euo pipefail

usage() {
	cat <<'EOF'
usage: scripts/vm.sh [OPTION...] -- COMMAND [ARG...]
       scripts/vm.sh --abi | --fetch | --build DIR

Boot a guest of NODES nodes and CPUS CPUs (TCG), run COMMAND in /pcb
(pcpbench, scenarios/ and results/ there), copy the guest's results/ into
OUT and exit with COMMAND's status; its stdout and stderr are printed
once the guest is off.

  --nodes N         NUMA nodes (default 4)
  --cpus N          CPUs, the same number on each node (default 8)
  --mem MIB         guest memory, split evenly over the nodes (default 2048)
  --isolate LIST    isolcpus= and nohz_full= (default: the last node's CPUs;
                    none: no isolated CPU)
  --pcpbench PATH   the binary to run (default: build-vm/pcpbench, which
                    --build makes and keeps up to date)
  --kernel BZIMAGE  boot this kernel (scripts/kernel.sh build prints one)
                    instead of Debian's; it needs virtio_pci and
                    virtio_blk built in, which a config file beside it
                    (the rig's) shows. A User-mode Linux 'linux' (the
                    rig's 7.3-um) is started as a host process instead:
                    one node, --cpus CPUs (default: as many as
                    --host-cpus), the initramfs and a ubd results disk
  --host-cpus LIST  UML: the host CPUs its threads run on (taskset; default
                    those this shell may run on), recorded on its command
                    line (pcb.host_cpus=, pcb.pinning=process) for results
  --accel A         kvm, tcg or auto (default): KVM where /dev/kvm boots
                    the kernel (tried once a kernel and kept), else TCG
  --add SRC[:DEST]  a file or folder put in the guest at DEST, an absolute
                    path without '..' (default /pcb/NAME); may be repeated
  --out DIR         where the guest's results/ goes (default results)
  --log FILE        keep the guest's console there
  --console         print the guest's console as it boots and runs
  --timeout SEC     the guest is stopped after this long (default 900); the
                    command, 30 s before, with its threads' states printed
                    and what it wrote brought back
  --abi             print the guest kernel's ABI (linux-image-ABI) and exit
  --fetch           download and unpack the guest kernel, then exit
  --build DIR       build a pcpbench the guest can run in DIR (meson
                    -Dnative=false: QEMU does not emulate every instruction
                    -march=native may use, AVX-512 for one), print its path

The guest kernel is Debian's linux-image-ABI-cloud-amd64, where ABI is
PCPBENCH_VM_ABI or what linux-image-cloud-amd64 depends on; it is unpacked
under PCPBENCH_VM_CACHE (default ~/.cache/pcpbench/vm). A module built for
it needs linux-headers-ABI-cloud-amd64 of the same ABI. PCPBENCH_VM_QEMU
names another qemu-system-x86_64.

A guest whose init is not up after 120 s (with --timeout 240 or more;
PCPBENCH_VM_BOOT_LIMIT sets the seconds) is stuck in its boot: it is
stopped, its console's last lines printed, and booted once more. So is
one whose kernel panicked before its init ran: under QEMU's TCG a vCPU
can run code another is patching (text_poke_bp()'s int3, met after the
patch is done), which hardware makes safe. Twice is a failure.
PCPBENCH_VM_APPEND adds to the kernel's command line (the tests').

The guest's kernel command line says how it was booted (pcb.accel=kvm or
tcg), as pcpbench's results record it.

What the guest hands back is taken as untrusted: its regular files and
folders alone (a link, a device node, a FIFO is named and left), no
compressed stream, at most 256 MiB in 20000 files (else rig/'s own files
alone), each readable by the user (folders 0755, files 0644), its stdout
and stderr at most 16 MiB each.

Exit status: COMMAND's; 77 where qemu, busybox-static, cpio or the
kernel cannot be had, or KVM is asked for and does not boot it; 124 when the guest ran past --timeout; 125 when
it did not boot or did not say how COMMAND ended; 2 for a usage error.
EOF
}

die() { echo "vm: $*" >&2; exit "${rc:-125}"; }
usage_error() { echo "vm: $* (see scripts/vm.sh --help)" >&2; exit 2; }
unavailable() { echo "vm: $*" >&2; exit 77; }

top=$(cd "$(dirname "$0")/.." && pwd)
nodes=4
cpus=8
mem=2048
isolate=last
pcpbench=
out=results
log=
console=0
timeout=900
adds=()
action=run
kernel=
accel=auto
host_cpus=
nodes_given=0
cpus_given=0

positive() {
	[[ $2 =~ ^[1-9][0-9]*$ ]] || usage_error "$1 $2: not a positive integer"
}

while [ $# -gt 0 ]; do
	case "$1" in
	--nodes|--cpus|--mem|--timeout|--isolate|--pcpbench|--add|--out|--log|--build|--kernel|--accel|--host-cpus)
		[ $# -ge 2 ] || usage_error "$1 needs a value"
		case "$1" in
		--nodes) positive "$1" "$2"; nodes=$2; nodes_given=1 ;;
		--cpus) positive "$1" "$2"; cpus=$2; cpus_given=1 ;;
		--host-cpus) host_cpus=$2 ;;
		--mem) positive "$1" "$2"; mem=$2 ;;
		--timeout) positive "$1" "$2"; timeout=$2 ;;
		--isolate) isolate=$2 ;;
		--pcpbench) pcpbench=$2 ;;
		--add) adds+=("$2") ;;
		--out) out=$2 ;;
		--log) log=$2 ;;
		--build) action=build; builddir=$2 ;;
		--kernel) kernel=$2 ;;
		--accel)
			case $2 in kvm|tcg|auto) accel=$2 ;;
			*) usage_error "--accel $2: kvm, tcg or auto" ;;
			esac ;;
		esac
		shift 2 ;;
	--console) console=1; shift ;;
	--abi) action=abi; shift ;;
	--fetch) action=fetch; shift ;;
	-h|--help) usage; exit 0 ;;
	--) shift; break ;;
	*) usage_error "unknown option '$1'" ;;
	esac
done

# --add SRC[:DEST]: DEST an absolute path in the guest, no '..' in it,
# normalised (// and /./ gone), so that it lands in the guest's root and
# nowhere else; SRC there
add_src=()
add_dest=()
for a in "${adds[@]}"; do
	src=${a%%:*}
	dest=/pcb/$(basename "$src")
	[ "$src" = "$a" ] || dest=${a#*:}
	[ -e "$src" ] || usage_error "--add $a: no such file"
	[[ $dest == /* ]] || usage_error "--add $a: '$dest' is not an absolute path in the guest"
	[[ /$dest/ != */../* ]] || usage_error "--add $a: '$dest' has a '..' in it"
	dest=$(realpath -m -s "$dest")
	[ "$dest" != / ] || usage_error "--add $a: not the guest's root itself"
	add_src+=("$src")
	add_dest+=("$dest")
done

# ---- a pcpbench the guest can run ----

# configured once, then brought up to date by ninja; its log shown on failure
build_portable() {
	local dir=$1

	mkdir -p "$(dirname "$dir")"
	if [ ! -f "$dir/build.ninja" ]; then
		echo "vm: configuring $dir for the guest (-Dnative=false)" >&2
		meson setup "$dir" "$top" -Dnative=false -Dman=disabled >"$dir.log" 2>&1 ||
			{ cat "$dir.log" >&2; rc=2 die "meson setup $dir failed"; }
	fi
	ninja -C "$dir" -n pcpbench 2>/dev/null | grep -q "no work to do" ||
		echo "vm: building pcpbench for the guest in $dir" >&2
	ninja -C "$dir" pcpbench >"$dir.log" 2>&1 ||
		{ cat "$dir.log" >&2; rc=2 die "the guest's pcpbench does not build in $dir"; }
	rm -f "$dir.log"
}

if [ "$action" = build ]; then
	build_portable "$builddir"
	realpath "$builddir/pcpbench"
	exit 0
fi

# ---- the guest kernel: its ABI is chosen here and nowhere else ----

cache=${PCPBENCH_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pcpbench/vm}

kernel_abi() {
	local dep

	if [ -n "${PCPBENCH_VM_ABI:-}" ]; then
		echo "$PCPBENCH_VM_ABI"
		return
	fi
	command -v apt-cache >/dev/null ||
		unavailable "no apt-cache to find the kernel's ABI: set PCPBENCH_VM_ABI"
	dep=$(apt-cache depends linux-image-cloud-amd64 2>/dev/null |
		sed -n 's/^ *Depends: linux-image-\(.*\)-cloud-amd64$/\1/p' | head -n 1)
	[ -n "$dep" ] ||
		unavailable "apt-cache knows no linux-image-cloud-amd64 (a Debian apt source, then apt-get update; or set PCPBENCH_VM_ABI)"
	echo "$dep"
}

# the kernel and its modules unpacked into $cache/ABI, once
fetch_kernel() {
	local abi=$1 dir=$cache/$1 dl

	[ -f "$dir/boot/vmlinuz-$abi-cloud-amd64" ] && return 0
	if ! command -v apt-get >/dev/null || ! command -v dpkg >/dev/null; then
		unavailable "no apt-get and dpkg to fetch linux-image-$abi-cloud-amd64"
	fi
	mkdir -p "$cache"
	dl=$(mktemp -d "$cache/.fetch.XXXXXX")
	echo "vm: fetching linux-image-$abi-cloud-amd64 into $dir" >&2
	if ! (cd "$dl" && apt-get download -q "linux-image-$abi-cloud-amd64") >"$dl/log" 2>&1; then
		cat "$dl/log" >&2
		rm -rf "$dl"
		unavailable "cannot download linux-image-$abi-cloud-amd64"
	fi
	dpkg -x "$dl"/linux-image-*.deb "$dl/root" || { rm -rf "$dl"; die "cannot unpack the kernel"; }
	rm -rf "$dir"
	mv "$dl/root" "$dir"
	rm -rf "$dl"
}

if [ "$action" = abi ]; then
	kernel_abi
	exit 0
fi
uml=0
if [ -n "$kernel" ] && [ "$action" = run ]; then
	# a kernel of the rig's, or the user's: everything the guest needs built in
	[ -f "$kernel" ] || usage_error "--kernel $kernel: no such file"
	kernel=$(realpath "$kernel")
	kconfig=$(dirname "$kernel")/config
	# an ELF executable is a User-mode Linux kernel (a bzImage is not ELF)
	if [ "$(od -An -tx1 -N4 "$kernel" | tr -d ' ')" = 7f454c46 ]; then
		uml=1
		[ -x "$kernel" ] || usage_error "--kernel $kernel: a UML kernel that is not executable"
		needed=(BLK_DEV_INITRD BLK_DEV_UBD DEVTMPFS)
	else
		needed=(VIRTIO_PCI VIRTIO_BLK BLK_DEV_INITRD DEVTMPFS)
	fi
	if [ -f "$kconfig" ]; then
		for o in "${needed[@]}"; do
			grep -qx "CONFIG_$o=y" "$kconfig" ||
				usage_error "--kernel $kernel: $kconfig has no CONFIG_$o=y (the guest needs it built in)"
		done
	else
		echo "vm: warning: no config beside $kernel: the guest needs ${needed[*]} built in" >&2
	fi
	abi=$(basename "$(dirname "$kernel")")
	kdir=
else
	abi=$(kernel_abi)
	kdir=$cache/$abi
	fetch_kernel "$abi"
	kernel=$kdir/boot/vmlinuz-$abi-cloud-amd64
fi
[ "$action" = fetch ] && exit 0

# ---- what the guest is made of ----

[ $# -gt 0 ] || usage_error "no command to run (scripts/vm.sh [OPTION...] -- COMMAND)"
[ "$uml" = 1 ] || [ -z "$host_cpus" ] || usage_error "--host-cpus: for a User-mode Linux kernel (--kernel .../linux)"
if [ "$uml" = 1 ]; then
	# one node (UML has no NUMA); its CPUs host threads on host_cpus
	[ "$nodes_given" = 0 ] || [ "$nodes" = 1 ] ||
		usage_error "--nodes $nodes: User-mode Linux has no NUMA, one node alone"
	nodes=1
	[ "$accel" = auto ] || usage_error "--accel $accel: a User-mode Linux kernel runs as a host process"
	accel=uml
	[ -n "$host_cpus" ] || host_cpus=$(taskset -pc $$ | sed 's/.*: *//')
	[[ $host_cpus =~ ^[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*$ ]] ||
		usage_error "--host-cpus $host_cpus: a CPU list (0-3,5)"
	taskset -c "$host_cpus" true 2>/dev/null ||
		usage_error "--host-cpus $host_cpus: not CPUs this machine runs on"
	[ "$cpus_given" = 1 ] || cpus=$(taskset -c "$host_cpus" nproc)
	[ "$cpus" -le 64 ] || usage_error "--cpus $cpus: UML has at most 64 (its NR_CPUS)"
fi
[ $((cpus % nodes)) -eq 0 ] || usage_error "--cpus $cpus does not split evenly over $nodes nodes"
[ $((mem % nodes)) -eq 0 ] || usage_error "--mem $mem does not split evenly over $nodes nodes"
if [ "$isolate" = last ]; then
	isolate=$((cpus - cpus / nodes))-$((cpus - 1))
	[ "$nodes" -gt 1 ] || isolate=none
fi
[ "$isolate" = none ] || [[ $isolate =~ ^[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*$ ]] ||
	usage_error "--isolate $isolate: a CPU list (2-3,5) or none"

if [ "$uml" = 0 ]; then
	qemu=$(command -v "${PCPBENCH_VM_QEMU:-qemu-system-x86_64}") ||
		unavailable "no ${PCPBENCH_VM_QEMU:-qemu-system-x86_64} (Debian: qemu-system-x86)"
fi
command -v cpio >/dev/null || unavailable "no cpio (Debian: cpio): an initramfs made without it is empty"
busybox=$(command -v busybox) || unavailable "no busybox (Debian: busybox-static)"
if ldd "$busybox" >/dev/null 2>&1; then
	unavailable "$busybox is linked dynamically: the guest needs busybox-static"
fi
if [ -z "$pcpbench" ]; then
	build_portable "$top/build-vm"
	pcpbench=$top/build-vm/pcpbench
fi
[ -x "$pcpbench" ] || usage_error "--pcpbench $pcpbench: no such program"
pcpbench=$(realpath "$pcpbench")

work=$(mktemp -d "${TMPDIR:-/tmp}/pcpbench-vm.XXXXXX")
# qemu's pid, and its watcher's (--timeout); both stay in this process
# group, which a test harness or a terminal's Ctrl-C signals whole
guest=
watch=
stop_guest() {
	[ -z "$watch" ] || kill "$watch" 2>/dev/null || true
	if [ -n "$guest" ]; then
		kill -TERM "$guest" 2>/dev/null || true
		wait "$guest" 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap stop_guest EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

root=$work/root
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,rig,lib/modules} \
	"$root"/pcb/{bin,results}
cp "$busybox" "$root/bin/busybox"

# pcpbench and every library it loads, at the paths the loader looks;
# the program without its debug information (the build's -g, for the
# regions' check), which the guest does not read and TCG would unpack
strip --strip-debug -o "$root/pcb/bin/pcpbench" "$pcpbench" 2>/dev/null ||
	cp "$pcpbench" "$root/pcb/bin/pcpbench"
for lib in $(ldd "$pcpbench" | grep -o '/[^ ]*'); do
	mkdir -p "$root$(dirname "$lib")"
	cp -L "$lib" "$root$lib"
done
cp -r "$top/scenarios" "$root/pcb/scenarios"

# the holder of perf's static keys (scripts/vm-perf-hold.c), static where
# the C library allows, else with the libraries it loads
hold=$root/rig/perf-hold
cc=${CC:-cc}
if ! "$cc" -O2 -static -o "$hold" "$top/scripts/vm-perf-hold.c" 2>/dev/null &&
	"$cc" -O2 -o "$hold" "$top/scripts/vm-perf-hold.c" 2>/dev/null; then
	for lib in $(ldd "$hold" | grep -o '/[^ ]*'); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
fi
[ -x "$hold" ] ||
	echo "vm: warning: $cc cannot build scripts/vm-perf-hold.c: perf's static keys flip while the command runs, which can hang the guest (docs/machines.md)" >&2

# the virtio disk the results come back on: its modules, each after those
# its depends= names (the package has no modules.dep: depmod makes it);
# one built in (modules.builtin) needs nothing, one compressed (Debian's
# 6.12 and later: .ko.xz) goes in unpacked, for busybox's insmod
loaded=()
add_module() {
	local f d name=$1 alt=${1//_/-}

	[[ " ${loaded[*]} " != *" $1 "* ]] || return 0
	if cat "$kdir"/lib/modules/*/modules.builtin 2>/dev/null |
		grep -qE "/($name|$alt)\.ko\$"; then
		return 0
	fi
	f=$(find "$kdir/lib/modules" \( -name "$name.ko*" -o -name "$alt.ko*" \) | head -n 1)
	[ -n "$f" ] || die "the kernel $abi has no module $1"
	case $f in
	*.ko) cp "$f" "$root/lib/modules/$1.ko" ;;
	*.ko.xz) xz -dc "$f" >"$root/lib/modules/$1.ko" ||
		die "cannot unpack $f (Debian: xz-utils)" ;;
	*.ko.zst) zstd -qdc "$f" >"$root/lib/modules/$1.ko" ||
		die "cannot unpack $f (Debian: zstd)" ;;
	*) die "$f: a module compressed in a way the rig does not unpack" ;;
	esac
	for d in $(grep -a -o 'depends=[a-z0-9_,-]*' "$root/lib/modules/$1.ko" | head -n 1 |
		cut -d= -f2 | tr , ' '); do
		add_module "$d"
	done
	loaded+=("$1")
}
if [ -n "$kdir" ]; then
	for m in virtio_pci virtio_blk; do
		add_module "$m"
	done
fi
echo "${loaded[*]}" >"$root/rig/modules"

for i in "${!add_src[@]}"; do
	mkdir -p "$root$(dirname "${add_dest[$i]}")"
	cp -r "${add_src[$i]}" "$root${add_dest[$i]}"
done

# the command, each word quoted for the guest's sh
{
	printf '#!/bin/sh\n'
	for w in "$@"; do
		printf "'%s' " "${w//\'/\'\\\'\'}"
	done
	printf '\n'
} >"$root/rig/cmd"
cp "$top/scripts/vm-init.sh" "$root/init"
chmod +x "$root/init" "$root/rig/cmd"

(cd "$root" && find . | cpio -o -H newc --quiet) >"$work/initrd"
[ -s "$work/initrd" ] || die "cpio made an empty initramfs"

# the results disk: the guest writes a tar to it, from its first sector
truncate -s 512M "$work/out.img"

# ---- KVM or TCG ----

# Whether this machine's /dev/kvm boots a kernel: a one-CPU guest whose
# /init says so on the console and powers off, given 20 s (a guest that
# does not boot under KVM stops after the BIOS, silent). The answer is
# kept for this host's boot, QEMU and kernel.
kvm_boots() {
	local key probe=$work/kvm-probe ok=1

	[ -r /dev/kvm ] && [ -w /dev/kvm ] || return 1
	key=$( { cat /proc/sys/kernel/random/boot_id; "$qemu" --version | head -n 1
		 sha256sum <"$kernel"; } | sha256sum | cut -c1-16)
	if [ -f "$cache/kvm/$key" ]; then
		[ "$(cat "$cache/kvm/$key")" = kvm ]
		return
	fi
	mkdir -p "$probe/root/bin" "$cache/kvm"
	cp "$busybox" "$probe/root/bin/busybox"
	printf '#!/bin/busybox sh\n/bin/busybox echo pcpbench-kvm-probe: up\n/bin/busybox poweroff -f\n' \
		>"$probe/root/init"
	chmod +x "$probe/root/init"
	(cd "$probe/root" && find . | cpio -o -H newc --quiet) >"$probe/initrd"
	timeout -k 2 20 "$qemu" -nodefaults -display none -no-reboot -accel kvm -cpu host \
		-smp 1 -m 256 -kernel "$kernel" -initrd "$probe/initrd" \
		-append "console=ttyS0 panic=-1 quiet" -serial "file:$probe/console.log" \
		</dev/null >/dev/null 2>&1 || true
	grep -q 'pcpbench-kvm-probe: up' "$probe/console.log" 2>/dev/null || ok=0
	[ "$ok" = 1 ] && echo kvm >"$cache/kvm/$key" || echo tcg >"$cache/kvm/$key"
	[ "$ok" = 1 ]
}
case $accel in
auto)
	if kvm_boots; then accel=kvm; else accel=tcg; fi ;;
kvm)
	kvm_boots || unavailable "--accel kvm: this machine's /dev/kvm does not boot $kernel" ;;
esac
if [ "$accel" = uml ]; then
	said="User-mode Linux on host CPUs $host_cpus: the kernel's code natively, a host process"
elif [ "$accel" = kvm ]; then
	accel_args=(-accel kvm -cpu host)
	said="KVM: a VM's figures"
else
	accel_args=(-accel tcg,thread=multi -cpu max)
	said="TCG: figures are not timings"
fi

# ---- the machine ----

percpu=$((cpus / nodes))
numa=()
for ((n = 0; n < nodes; n++)); do
	numa+=(-object "memory-backend-ram,id=m$n,size=$((mem / nodes))M"
	       -numa "node,nodeid=$n,cpus=$((n * percpu))-$((n * percpu + percpu - 1)),memdev=m$n")
done
# the guest stops the command first, so that what it did still comes back;
# no crypto self-tests at boot (cryptomgr_test, minutes under TCG, where
# one was seen stuck), which nothing pcpbench measures needs
append="console=ttyS0 panic=-1 quiet cryptomgr.notests pcb.accel=$accel pcb.timeout=$((timeout > 60 ? timeout - 30 : timeout / 2))"
[ "$isolate" = none ] || append+=" isolcpus=$isolate nohz_full=$isolate"
[ -z "${PCPBENCH_VM_APPEND:-}" ] || append+=" $PCPBENCH_VM_APPEND"
if [ "$uml" = 1 ]; then
	# UML's console on the host's stdout (the console log), its initramfs
	# and results disk host files, its own files (uml_dir) in the work
	# directory; SMP needs seccomp mode (arch/um/Kconfig). A panic ends
	# the process, without a core file
	append="seccomp=on ncpus=$cpus mem=${mem}M initrd=$work/initrd ubd0=$work/out.img"
	append+=" uml_dir=$work/uml con=null con0=null,fd:1 quiet pcb.accel=uml"
	append+=" pcb.host_cpus=$host_cpus pcb.pinning=process"
	append+=" pcb.timeout=$((timeout > 60 ? timeout - 30 : timeout / 2))"
	[ "$isolate" = none ] || append+=" isolcpus=$isolate"
	mkdir -p "$work/uml"
fi

echo "vm: $nodes nodes x $percpu CPUs, $mem MiB, isolated ${isolate}; kernel $abi ($said)" >&2
# a guest whose init has not said it is up after 120 s (where --timeout
# leaves room for a second boot: 240 s or more) is stuck in its boot (under
# TCG a vCPU has been seen spinning in a kernel thread there for minutes):
# it is stopped and booted once more. PCPBENCH_VM_BOOT_LIMIT sets the
# seconds, for the tests.
boot_limit=${PCPBENCH_VM_BOOT_LIMIT:-$((timeout >= 240 ? 120 : timeout))}
[[ $boot_limit =~ ^[0-9]+$ ]] || usage_error "PCPBENCH_VM_BOOT_LIMIT=$boot_limit: not a number of seconds"
# boot_guest: the guest booted and waited for; its exit status in qrc
boot_guest() {
	rm -f "$work/timed_out" "$work/stuck_boot"
	: >"$work/console.log"
	if [ "$uml" = 1 ]; then
		# shellcheck disable=SC2086 # the command line, word by word
		(cd "$work/uml" && ulimit -c 0 &&
			exec taskset -c "$host_cpus" "$kernel" $append) \
			</dev/null >"$work/console.log" 2>&1 &
	else
		"$qemu" -nodefaults -display none -no-reboot \
			"${accel_args[@]}" -smp "$cpus,sockets=$nodes,cores=$percpu" \
			-m "$mem" "${numa[@]}" \
			-kernel "$kernel" -initrd "$work/initrd" -append "$append" \
			-serial "file:$work/console.log" \
			-drive "file=$work/out.img,format=raw,if=virtio" </dev/null &
	fi
	guest=$!
	if [ "$console" = 1 ]; then
		tail -n +1 -f --pid="$guest" "$work/console.log" >&2 &
	fi
	# past --timeout, or past boot_limit before the init is up: what the
	# console last said, then the guest stopped (TERM, KILL 5 s later); a
	# second's poll, so that nothing of it outlives qemu
	(
		why=
		for ((i = 0; i < timeout; i++)); do
			sleep 1
			kill -0 "$guest" 2>/dev/null || exit 0
			if [ "$i" -eq "$boot_limit" ] &&
			   ! grep -q 'pcpbench-vm: up after' "$work/console.log"; then
				touch "$work/stuck_boot"
				why="did not reach its init in $boot_limit s"
				break
			fi
		done
		[ -n "$why" ] || { touch "$work/timed_out"; why="runs past --timeout $timeout s"; }
		echo "vm: the guest $why; its console's last lines:" >&2
		tail -n 40 "$work/console.log" >&2
		kill -TERM "$guest" 2>/dev/null
		for ((i = 0; i < 5; i++)); do
			sleep 1
			kill -0 "$guest" 2>/dev/null || exit 0
		done
		kill -KILL "$guest" 2>/dev/null
	) &
	watch=$!
	qrc=0
	wait "$guest" || qrc=$?
	guest=
	wait "$watch" 2>/dev/null || true
	watch=
	[ ! -e "$work/timed_out" ] || qrc=124
}
# boot_died: the guest's kernel panicked before its init was up
boot_died() {
	[ "$qrc" -ne 124 ] && ! grep -q 'pcpbench-vm: up after' "$work/console.log" &&
		grep -q 'Kernel panic' "$work/console.log"
}
start=$(date +%s)
boot_guest
again=0
[ ! -e "$work/stuck_boot" ] || again=1
if [ "$again" = 0 ] && boot_died; then
	echo "vm: the guest's kernel panicked before its init ran; its console's last lines:" >&2
	tail -n 40 "$work/console.log" >&2
	again=1
fi
if [ "$again" = 1 ]; then
	echo "vm: booting the guest once more" >&2
	truncate -s 0 "$work/out.img"
	truncate -s 512M "$work/out.img"
	boot_guest
fi
elapsed=$(($(date +%s) - start))
[ -z "$log" ] || cp "$work/console.log" "$log"

# ---- what the guest hands back: untrusted ----

# The results disk's tar, taken back into $work/back as regular files and
# directories alone: a link, a device node, a FIFO or a socket is named in
# a warning and left there; a compressed stream is refused (tar reads it
# from a pipe, where it decompresses nothing); past the bounds, rig/'s own
# files alone are taken (tar matches each member against every name it is
# given: the names stay few). Nothing is written outside $work/back, and
# what is taken is the user's to read: folders 0755, files 0644.
max_bytes=$((256 << 20))
max_files=20000
take_back() {
	local img=$1 back=$2 listing=$work/listing names=$work/names left=$work/left

	mkdir -p "$back"
	if ! tar -t -v --numeric-owner --quoting-style=escape -f - <"$img" >"$listing" 2>"$work/tar.err"; then
		grep -q 'compressed' "$work/tar.err" &&
			echo "vm: warning: the guest's results disk holds a compressed stream: not taken back" >&2
		[ -s "$listing" ] || return 0
	fi
	# type, size and name of each member (the name from the sixth field on,
	# escaped by tar: no line break in it); the regular files and directories kept
	awk -v names="$names" -v left="$left" -v max_bytes="$max_bytes" -v max_files="$max_files" '
		{ t = substr($1, 1, 1); n = $0
		  for (i = 1; i <= 5; i++) sub(/^[^ ]+ +/, "", n)
		  if (t != "-" && t != "d") { print substr($1, 1, 1) " " n > left; next }
		  bytes += $3; files++
		  keep[files] = n; rig[files] = n ~ /^(\.\/)?rig(\/(status|boot_s|stdout|stderr|timed_out))?$/ }
		END { over = bytes > max_bytes || files > max_files
		      for (i = 1; i <= files; i++) if (!over || rig[i]) print keep[i] > names
		      if (over) printf "%d bytes in %d members\n", bytes, files > "/dev/stderr" }
	' "$listing" 2>"$work/over"
	if [ -s "$left" ]; then
		echo "vm: warning: the guest's results hold what is not a file or a folder, not taken back:" >&2
		head -n 20 "$left" | sed 's/^/vm:   /' >&2
	fi
	[ ! -s "$work/over" ] || echo "vm: warning: the guest's results are $(cat "$work/over"), past $max_bytes bytes or $max_files files: rig/'s own files alone taken back" >&2
	[ -s "$names" ] || return 0
	tar -x --no-recursion --no-same-owner --no-same-permissions --quoting-style=escape \
		-C "$back" -f - -T "$names" <"$img" 2>"$work/tar.err" || true
	# and nothing else, whatever tar made; each folder opened before it is
	# walked (a guest's 0000 folder would stop the walk and the copy)
	find "$back" -type d -exec chmod 0755 {} \; 2>/dev/null || true
	find "$back" -mindepth 1 ! -type f ! -type d -delete 2>/dev/null || true
	find "$back" -type f -exec chmod 0644 {} + 2>/dev/null || true
}
# a file of the guest's rig/: a regular one, at most len bytes of it
rig_file() {
	local f=$work/back/rig/$1

	if [ -f "$f" ] && [ ! -L "$f" ]; then
		head -c "$2" "$f"
	fi
}

take_back "$work/out.img" "$work/back"
if [ ! -f "$work/back/rig/status" ]; then
	[ "$qrc" -ne 124 ] || rc=124 die "the guest ran past --timeout $timeout s (console above)"
	tail -n 40 "$work/console.log" >&2
	grep -q 'pcpbench-vm: up after' "$work/console.log" ||
		die "the guest did not boot: qemu exit $qrc after $elapsed s, before its init ran (console and qemu's words above)"
	die "the guest did not say how the command ended (qemu exit $qrc after $elapsed s; console above)"
fi
status=$(rig_file status 16 | head -n 1)
[[ $status =~ ^[0-9]{1,3}$ ]] && [ "$status" -le 255 ] ||
	die "the guest's status is not an exit status ('$(printf '%q' "$status")')"
if [ -e "$work/back/rig/timed_out" ]; then
	sed -n '/the command runs past/,$p' "$work/console.log" >&2
	echo "vm: the command ran past its time in the guest and was stopped (its threads above)" >&2
fi
boot_s=$(rig_file boot_s 16 | head -n 1)
[[ $boot_s =~ ^[0-9.]+$ ]] || boot_s=?
echo "vm: guest up $boot_s s after start; command exit $status; $elapsed s in all" >&2
mkdir -p "$out"
[ ! -d "$work/back/pcb/results" ] || cp -r "$work/back/pcb/results/." "$out/"
rig_file stdout $((16 << 20))
rig_file stderr $((16 << 20)) >&2
exit "$status"
