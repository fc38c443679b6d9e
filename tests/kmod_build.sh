#!/bin/bash
# pcpbench.ko built against the other Debian release bookworm can use,
# 6.12 (tests/kmod.sh builds against the guest's 6.1 and runs it there,
# the rig test against its 7.3 tree): no warning, and the module's
# vermagic that release's. The headers are the release
# linux-headers-6.12-cloud-amd64 names, downloaded (apt-get download)
# with their common part and kbuild tools and unpacked with dpkg -x into
# PCPBENCH_KERNEL_CACHE's headers/ (default ~/.cache/pcpbench/kernel),
# not installed: Debian's 6.12 headers package depends on its kernel
# image. Without pahole (which that package pulls in), the module's BTF,
# BPF's description of its types, is left out
# (CONFIG_DEBUG_INFO_BTF_MODULES= on make's command line): nothing of the
# build's C is. Then the tests' module of the throwaway vmstat model alone
# (PCB_TESTS_MK, BUILD/kmod-tests.mk, PCB_MODELS=vmstat): declared by its
# folder, it builds against the same headers without a warning, its
# registration and designs linked in. Skipped (77) where apt does not
# know them or cannot download them, or make is missing.
#
# usage: kmod_build.sh SOURCE_ROOT
set -u
. "$(dirname "$0")/lib.sh"
src=$(realpath "$1")
skip() { echo "kmod-build: skipped: $*"; exit 77; }
cache=${PCPBENCH_KERNEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pcpbench/kernel}/headers

command -v make >/dev/null || skip "no make"
command -v apt-cache >/dev/null && command -v dpkg >/dev/null || skip "no apt-cache or dpkg"
rel=$(apt-cache depends linux-headers-6.12-cloud-amd64 2>/dev/null |
	sed -n 's/^ *Depends: linux-headers-\(6\.12\.[^ ]*\)-cloud-amd64$/\1/p' | head -n 1)
[ -n "$rel" ] || skip "apt knows no linux-headers-6.12-cloud-amd64 (bookworm's sources, apt-get update)"
kdir=$cache/$rel/usr/src/linux-headers-$rel-cloud-amd64
if [ ! -f "$cache/$rel/.unpacked" ]; then
	rm -rf "$cache/$rel" "$cache/$rel.dl"
	mkdir -p "$cache/$rel.dl"
	(cd "$cache/$rel.dl" && apt-get -q download "linux-headers-$rel-cloud-amd64" \
		"linux-headers-$rel-common" "linux-kbuild-$rel") >"$tmp/dl.log" 2>&1 ||
		skip "cannot download $rel's headers: $(tail -n 2 "$tmp/dl.log")"
	for deb in "$cache/$rel.dl"/*.deb; do
		dpkg -x "$deb" "$cache/$rel" || { bad "dpkg -x $deb"; summary kmod-build; exit; }
	done
	rm -rf "$cache/$rel.dl"
	# the arch part includes the common part by its installed path
	sed -i "s|^include /usr/src/|include $cache/$rel/usr/src/|" "$kdir/Makefile"
	touch "$cache/$rel/.unpacked"
fi
[ -f "$kdir/Makefile" ] && ok || { bad "no $kdir/Makefile in what was unpacked"; summary kmod-build; exit; }

nobtf=()
command -v pahole >/dev/null || nobtf=(CONFIG_DEBUG_INFO_BTF_MODULES=)
start=$SECONDS
if make -C "$src/kmod" OUT="$tmp/kmod" KDIR="$kdir" "${nobtf[@]}" >"$tmp/make.log" 2>&1; then
	ok
	echo "kmod-build: $rel-cloud-amd64: built in $((SECONDS - start)) s${nobtf:+ (no pahole: without BTF)}"
else
	bad "the module does not build against $kdir: $(tail -n 20 "$tmp/make.log")"
	summary kmod-build
	exit
fi
if grep -i 'warning:' "$tmp/make.log"; then bad "the module's build against $rel warns"; else ok; fi
vm=$(strings "$tmp/kmod/pcpbench.ko" | sed -n 's/^vermagic=//p' | head -n 1)
[ "${vm%% *}" = "$rel-cloud-amd64" ] && ok || bad "the module's vermagic is '$vm', not $rel-cloud-amd64's"

tests_mk=${PCB_TESTS_MK:-$src/build/kmod-tests.mk}
if make -C "$src/kmod" OUT="$tmp/kmod-vmstat" KDIR="$kdir" PCB_MK="$tests_mk" PCB_MODELS=vmstat \
	"${nobtf[@]}" >"$tmp/make-vmstat.log" 2>&1; then
	ok
else
	bad "the vmstat module does not build: $(tail -n 20 "$tmp/make-vmstat.log")"
fi
if grep -i 'warning:' "$tmp/make-vmstat.log"; then bad "the vmstat module's build warns"; else ok; fi
syms=$(nm "$tmp/kmod-vmstat/pcpbench.ko" 2>/dev/null |
	grep -cE ' R (vmstat_model_run|vmstat_design_local_lock|vmstat_design_spinlock)$')
[ "$syms" = 3 ] && ok || bad "the vmstat module has $syms of vmstat_model_run and its two designs"
summary kmod-build
