#!/bin/bash
# The kernel rig: kernels built from Debian's linux-source packages with a
# series of patches and seed 000's instrument (rig/, docs/kernel.md), for
# scripts/vm.sh's guest, a KVM guest or bare metal. A series is data: the
# project's (rig/series/), or a directory or mbox of the user's, applied
# with patch(1), never edited in a tree. Each variant's bzImage (a
# User-mode Linux variant's linux executable), System.map, .config,
# Module.symvers and mm/memcontrol.o are kept in a cache outside the
# checkout, keyed by everything that went into them.
set -euo pipefail

usage() {
	cat <<'EOF'
usage: scripts/kernel.sh list
       scripts/kernel.sh build [OPTION...] VARIANT
       scripts/kernel.sh kdir [OPTION...] VARIANT
       scripts/kernel.sh info [OPTION...] VARIANT

  list      the variants it builds, a name per line first (rig/variants)
  build     build VARIANT, or find it in the cache, and print its bzImage's
            path on the last line (a User-mode Linux variant's, *-um: its
            linux executable's); the folder beside it holds System.map,
            config, Module.symvers (not UML's), memcontrol.o and build.txt
  kdir      build VARIANT, leave its tree holding it and print the tree's
            path: the KDIR a module is built against (make -C kmod KDIR=...)
  info      print build.txt of VARIANT's build, building it first

  --bare         without the instrument (rig/instrument/BASE/instrument.patch)
  --contention   with the instrument's contention count too (seed 000,
                 2.3.1), for variants whose stock lock is a spinlock
  --series PATH  a series of the user's on the base VARIANT names (6.1): a
                 directory (its `series` file in order, else its *.patch
                 and *.diff by name) or an mbox (git format-patch, a
                 thread saved from a mail client); the variant is then
                 BASE+NAME
  --name NAME    NAME of that variant (default: PATH's name less .mbox)
  --config FILE  start from FILE (a distribution's /boot/config-*, for a
                 kernel that boots on real hardware) instead of
                 tinyconfig; rig/config/BASE.config still applies over it
  --cached       only a variant the cache holds: nothing is downloaded,
                 unpacked or built but its tree brought back to it (kdir);
                 exit 1 where the cache does not hold it

The sources, one tree a base and configuration, and the builds are kept
under PCPBENCH_KERNEL_CACHE (default ~/.cache/pcpbench/kernel); the tree
is rebuilt incrementally from one variant to the next. make runs with
PCPBENCH_KERNEL_JOBS jobs (default: the CPUs). PCPBENCH_KERNEL_DEB names
a downloaded linux-source .deb to use instead of apt-get download. A base
whose package is in another suite (7.3: trixie-backports) is downloaded
with a sources list of that suite alone, from PCPBENCH_DEBIAN_MIRROR
(default http://deb.debian.org/debian); the machine's sources are left
as they are.

Exit status: 0; 1 when a step fails (the download, a patch, the build;
its log's end is printed); 2 for a usage error.
EOF
}

top=$(cd "$(dirname "$0")/.." && pwd)
rig=$top/rig
cache=${PCPBENCH_KERNEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pcpbench/kernel}
jobs=${PCPBENCH_KERNEL_JOBS:-$(nproc)}
# bumped when what the rig does to a tree changes, so that no older build is found
rig_format=1

say() { echo "kernel: $*" >&2; }
fail() { say "$*"; exit 1; }
usage_error() { echo "kernel: $* (see scripts/kernel.sh --help)" >&2; exit 2; }

# ---- the arguments ----

action=
instrument=cycles
series_path=
series_name=
config_base=
variant=
cached_only=0
[ $# -gt 0 ] || { usage >&2; exit 2; }
case "$1" in
list|build|kdir|info) action=$1; shift ;;
-h|--help) usage; exit 0 ;;
*) usage_error "unknown command '$1'" ;;
esac
while [ $# -gt 0 ]; do
	case "$1" in
	--bare) instrument=none; shift ;;
	--contention) instrument=contention; shift ;;
	--cached) cached_only=1; shift ;;
	--series|--name|--config)
		[ $# -ge 2 ] || usage_error "$1 needs a value"
		case $1 in
		--series) series_path=$2 ;;
		--name) series_name=$2 ;;
		--config)
			[ -f "$2" ] || usage_error "--config $2: no such file"
			config_base=$(realpath "$2") ;;
		esac
		shift 2 ;;
	-h|--help) usage; exit 0 ;;
	-*) usage_error "unknown option '$1'" ;;
	*)
		[ -z "$variant" ] || usage_error "one variant at a time ('$variant', '$1')"
		variant=$1
		shift ;;
	esac
done

# the non-comment lines of a rig table
table() { sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$1"; }

if [ "$action" = list ]; then
	[ -z "$variant$series_path" ] || usage_error "list takes no variant"
	table "$rig/variants" | while read -r name _ _ _ what; do
		printf '%-20s %s\n' "$name" "$what"
	done
	exit 0
fi
[ -n "$variant" ] || usage_error "no variant (scripts/kernel.sh list names them)"
[ -z "$series_name" ] || [ -n "$series_path" ] || usage_error "--name without --series"

# ---- the variant: its base, and the patches of its series in order ----

base=
patches=()	# absolute paths, applied in this order before the instrument
series_label=-
if [ -n "$series_path" ]; then
	base=$variant
	table "$rig/bases" | awk -v b="$base" '$1 == b { f = 1 } END { exit !f }' ||
		usage_error "--series applies to a base ($(table "$rig/bases" | awk '{print $1}' | xargs)), not '$variant'"
	[ -e "$series_path" ] || usage_error "--series $series_path: no such file or directory"
	series_path=$(realpath "$series_path")
	[ -n "$series_name" ] || series_name=$(basename "$series_path" .mbox)
	[[ $series_name =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] ||
		usage_error "--name '$series_name': letters, digits, '.', '_' and '-'"
	variant=$base+$series_name
	series_label=$series_name
else
	line=$(table "$rig/variants" | awk -v v="$variant" '$1 == v' | head -n 1)
	[ -n "$line" ] || usage_error "no variant '$variant' (scripts/kernel.sh list names them)"
	read -r _ base sname range _ <<<"$line"
	if [ "$sname" != - ]; then
		sdir=$rig/series/$sname
		first=${range%-*}
		last=${range#*-}
		i=0
		while read -r p; do
			i=$((i + 1))
			[ "$i" -ge "$first" ] && [ "$i" -le "$last" ] && patches+=("$sdir/$p")
		done < <(table "$sdir/series")
		[ ${#patches[@]} -eq $((last - first + 1)) ] ||
			fail "rig/variants: $variant names patches $range of $sname, which has $i"
		series_label="$sname $range"
	fi
fi
read -r _ package arch suite < <(table "$rig/bases" | awk -v b="$base" '$1 == b')
[ -n "${package:-}" ] || fail "rig/bases has no base '$base'"
# x86_64: a bzImage and its modules; um: User-mode Linux for an x86_64
# host (ARCH=um), its linux executable, no modules
case $arch in
x86_64) karch=(); image=bzImage; built_image=arch/x86/boot/bzImage; targets=(bzImage modules) ;;
um) karch=(ARCH=um SUBARCH=x86_64); image=linux; built_image=linux; targets=(linux) ;;
*) fail "base $base: the rig builds x86_64 and um, not $arch" ;;
esac
fragment=$rig/config/$base.config
# a base's own change to the source, made as the tree is unpacked (7.3-um's:
# x86-64's SMP barriers in UML's asm/barrier.h); part of the tree's name
base_patch=$rig/config/$base.patch
[ -f "$base_patch" ] || base_patch=
# a UML base takes its x86 base's instrument: 7.3-um, 7.3's
instr_dir=$rig/instrument/${base%-um}
[ -f "$fragment" ] || fail "no configuration $fragment"

work=$(mktemp -d "${TMPDIR:-/tmp}/pcpbench-kernel.XXXXXX")
trap 'rm -rf "$work"' EXIT

# An mbox's patches into patches, in order: a message a patch, each from
# its "From " line. Where messages are "[PATCH ... N/M]" (git format-patch,
# a thread saved from a mail client), those alone, by N: replies ("Re:")
# and their quoted or pasted diffs are not the series. Else every message
# with a diff, in the mbox's order. A message without a diff is left out.
mbox_series() {
	local src=$1 out=$2 f

	awk -v out="$out" '/^From / { if (f) close(f); n++; f = sprintf("%s/%04d.mbox", out, n) }
		f { print > f }' "$src"
	for f in "$out"/*.mbox; do
		[ -e "$f" ] || break
		grep -q '^--- ' "$f" && grep -q '^+++ ' "$f" || continue
		# the subject's patch number, 0 where it has none; replies marked
		awk '/^Subject:/ && !kind { kind = "none 0"
			 if ($0 ~ /^Subject: *([Rr][Ee]|[Aa][Ww]|[Ff][Ww][Dd]?):/) kind = "reply 0"
			 else if (match($0, /\[[^]]*PATCH[^]]*\]/)) { t = substr($0, RSTART, RLENGTH)
				 n = 1; if (match(t, /[0-9]+\/[0-9]+/)) n = substr(t, RSTART, RLENGTH) + 0
				 kind = "patch " n } }
		     /^$/ && kind { exit }
		     END { print (kind ? kind : "none 0") }' "$f" | {
			read -r kind num
			echo "$kind $num $f"
		}
	done >"$out/list"
	if grep -q '^patch ' "$out/list"; then
		while read -r _ _ f; do
			patches+=("$f")
		done < <(grep '^patch ' "$out/list" | sort -k2,2n -s)
	else
		while read -r _ _ f; do
			patches+=("$f")
		done < <(grep -v '^reply ' "$out/list")
	fi
}

# a user's series as patch files in $work/series, in order
user_series() {
	local src=$1 out=$work/series n=0 f

	mkdir -p "$out"
	if [ -d "$src" ]; then
		if [ -f "$src/series" ]; then
			while read -r f; do
				[ -f "$src/$f" ] || fail "$src/series names $f, which is not there"
				patches+=("$src/$f")
			done < <(table "$src/series" | awk '{print $1}')
		else
			while IFS= read -r f; do
				patches+=("$f")
			done < <(find "$src" -maxdepth 1 -type f \( -name '*.patch' -o -name '*.diff' \) | LC_ALL=C sort)
		fi
	else
		mbox_series "$src" "$out"
	fi
	[ ${#patches[@]} -gt 0 ] || fail "--series $src: no patch in it"
}
[ -z "$series_path" ] || user_series "$series_path"
[ "$instrument" = none ] || [ -f "$instr_dir/instrument.patch" ] ||
	usage_error "base $base has no instrument yet ($instr_dir/instrument.patch): build $variant --bare"
[ "$instrument" != contention ] || [ -f "$instr_dir/contention.patch" ] ||
	usage_error "base $base has no contention instrument ($instr_dir/contention.patch): its stocks take no spinlock"
case $instrument in
cycles) patches+=("$instr_dir/instrument.patch") ;;
contention) patches+=("$instr_dir/instrument.patch" "$instr_dir/contention.patch") ;;
esac
for p in "${patches[@]}"; do
	[ -f "$p" ] || fail "no patch $p"
done

# ---- the source: Debian's package, unpacked once ----

# the package's version, downloading it into $cache/deb once
# apt-get download of $package: from the machine's sources, or (a suite
# in rig/bases) from a sources list of that suite alone, in $work, whose
# package lists are kept there too: the machine's own are left as they are
apt_download() {
	local mirror=${PCPBENCH_DEBIAN_MIRROR:-http://deb.debian.org/debian}
	local -a opts=()

	if [ "${suite:--}" != - ]; then
		mkdir -p "$work/apt/lists/partial"
		echo "deb $mirror $suite main" >"$work/apt/sources.list"
		opts=(-o "Dir::Etc::SourceList=$work/apt/sources.list"
		      -o Dir::Etc::SourceParts=/dev/null
		      -o "Dir::State::Lists=$work/apt/lists")
		apt-get -q "${opts[@]}" update || return 1
	fi
	apt-get -q "${opts[@]}" download "$package"
}

fetch_source() {
	local deb dl

	mkdir -p "$cache/deb"
	if [ -n "${PCPBENCH_KERNEL_DEB:-}" ]; then
		deb=$(realpath "$PCPBENCH_KERNEL_DEB")
	else
		deb=$(ls "$cache/deb/${package}_"*_all.deb 2>/dev/null | tail -n 1 || true)
	fi
	if [ -z "$deb" ]; then
		[ "$cached_only" = 0 ] || fail "--cached: $package is not in the cache ($cache/deb)"
		command -v apt-get >/dev/null || fail "no apt-get to download $package (or set PCPBENCH_KERNEL_DEB)"
		dl=$(mktemp -d "$cache/deb/.dl.XXXXXX")
		say "downloading $package${suite:+ from $suite}"
		if ! (cd "$dl" && apt_download) >"$work/apt.log" 2>&1; then
			cat "$work/apt.log" >&2
			rm -rf "$dl"
			fail "cannot download $package (a Debian apt source that has it, then apt-get update)"
		fi
		mv "$dl"/*.deb "$cache/deb/"
		rm -rf "$dl"
		deb=$(ls "$cache/deb/${package}_"*_all.deb | tail -n 1)
	fi
	echo "$deb"
}
deb=$(fetch_source)
pkgver=$(dpkg-deb -f "$deb" Version)
# the configuration the tree is made with: the fragment, over tinyconfig or --config's file
frag_sum=$(cat "$fragment" ${config_base:+"$config_base"} ${base_patch:+"$base_patch"} | sha256sum | cut -c1-64)
tree=$cache/trees/$base-$pkgver-${frag_sum:0:12}

# the fragment's options, as they must read in .config
frag_lines() {
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$fragment"
}

# unpack the tarball and configure it: tinyconfig, the fragment, olddefconfig
make_tree() {
	local tmp l missing=()

	say "unpacking $package $pkgver into $tree"
	mkdir -p "$cache/trees"
	tmp=$(mktemp -d "$cache/trees/.new.XXXXXX")
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" --wildcards '*/linux-source-*.tar.xz' ||
		fail "cannot unpack $deb"
	tar -x -C "$tmp" -f "$tmp"/usr/src/linux-source-*.tar.xz || fail "cannot unpack the kernel's tarball"
	rm -rf "$tmp/usr"
	mv "$tmp"/linux-source-* "$tmp/src"
	if [ -n "$base_patch" ] &&
	   ! patch -d "$tmp/src" -p1 --fuzz=0 --batch --no-backup-if-mismatch -r - \
		<"$base_patch" >"$work/patch.log" 2>&1; then
		cat "$work/patch.log" >&2
		rm -rf "$tmp"
		fail "$(basename "$base_patch") does not apply to $package $pkgver"
	fi
	(
		cd "$tmp/src"
		if [ -n "$config_base" ]; then
			cp "$config_base" .config
		else
			make -s "${karch[@]}" tinyconfig >"$work/config.log" 2>&1
		fi
		frag_lines >"$work/fragment"
		env "${karch[@]}" scripts/kconfig/merge_config.sh -m .config "$work/fragment" \
			>>"$work/config.log" 2>&1
		make -s "${karch[@]}" olddefconfig >>"$work/config.log" 2>&1
		# .config as the build leaves it, so that its hash is the build's
		make -s "${karch[@]}" syncconfig >>"$work/config.log" 2>&1
	) || { tail -n 20 "$work/config.log" >&2; rm -rf "$tmp"; fail "cannot configure $package"; }
	while read -r l; do
		case $l in
		*=n) grep -qx "# ${l%=n} is not set" "$tmp/src/.config" || missing+=("$l") ;;
		*) grep -qx "$l" "$tmp/src/.config" || missing+=("$l") ;;
		esac
	done < <(frag_lines)
	if [ ${#missing[@]} -gt 0 ]; then
		rm -rf "$tmp"
		fail "$fragment: olddefconfig did not keep ${missing[*]} (a dependency is off)"
	fi
	rm -rf "$tree"
	mv "$tmp/src" "$tree"
	rmdir "$tmp"
}

# one rig at a time on a tree
mkdir -p "$cache"
exec 9>"$cache/.lock-$(basename "$tree")"
flock 9
if [ ! -f "$tree/.config" ]; then
	[ "$cached_only" = 0 ] || fail "--cached: no tree of $base in the cache ($tree)"
	make_tree
fi

# ---- the build's key: everything that goes into it ----

series_sum=$(for p in "${patches[@]}"; do cat "$p"; done | sha256sum | cut -c1-64)
case $instrument in
cycles) suffix= ;;
none) suffix=-bare ;;
*) suffix=-$instrument ;;
esac

{
	echo "rig $rig_format"
	echo "source $package $pkgver"
	echo "fragment $frag_sum${config_base:+ over $config_base}"
	echo "instrument $instrument"
	# the names the instrument's build header carries, and the compiler
	# kbuild runs (its Makefile sets CC=gcc whatever the environment says)
	echo "variant $variant$suffix"
	echo "series $series_label"
	gcc --version | head -n 1
	for p in "${patches[@]}"; do
		sha256sum <"$p" | cut -c1-64
	done
} >"$work/key"
key=$(sha256sum <"$work/key" | cut -c1-64)
out=$cache/builds/$variant$suffix-${key:0:12}

# ---- the tree holding the variant's patches ----

# The files patches touch, each once, as patch -p1 names them: both sides
# of every "--- X/PATH" and "+++ Y/PATH" (a deleted file's, a created
# one's), and git's renames and copies; a path that leaves the tree fails
touched() {
	awk '/^(---|\+\+\+) / { p = $2; sub(/\t.*/, "", p); if (p == "/dev/null") next
			if (!sub(/^[^\/]*\//, "", p)) next; print p }
	     /^(rename|copy) (from|to) / { print $3 }' "$@" | sort -u
}

# every file the last series touched as it was unpacked, and nothing applied
restore_tree() {
	local f

	[ -f "$tree/.pcb-pristine/files" ] || return 0
	while read -r f; do
		if [ -e "$tree/.pcb-pristine/tree/$f" ]; then
			cp -p "$tree/.pcb-pristine/tree/$f" "$tree/$f"
			touch "$tree/$f"
		else
			rm -f "$tree/$f"
		fi
	done <"$tree/.pcb-pristine/files"
	rm -f "$tree/.pcb-applied" "$tree/.pcb-built"
}

# the variant's patches applied to the tree, and its build header written
apply_series() {
	local p f

	[ "$(cat "$tree/.pcb-applied" 2>/dev/null)" != "$key" ] || return 0
	# the tree holds no built variant from here until make has finished
	rm -f "$tree/.pcb-built"
	restore_tree
	mkdir -p "$tree/.pcb-pristine/tree"
	touch "$tree/.pcb-pristine/files"
	for f in $(touched "${patches[@]}") mm/pcb_instrument_build.h; do
		case $f in /*|*..*) fail "a patch touches $f, outside the tree" ;; esac
		grep -qxF "$f" "$tree/.pcb-pristine/files" && continue
		if [ -e "$tree/$f" ]; then
			mkdir -p "$(dirname "$tree/.pcb-pristine/tree/$f")"
			cp -p "$tree/$f" "$tree/.pcb-pristine/tree/$f"
		fi
		echo "$f" >>"$tree/.pcb-pristine/files"
	done
	for p in "${patches[@]}"; do
		if ! patch -d "$tree" -p1 --fuzz=0 --batch --no-backup-if-mismatch -r - \
			<"$p" >"$work/patch.log" 2>&1; then
			case $p in
			*/contention.patch)
				grep -q 'spinlock_t stock_lock' "$tree/mm/memcontrol.c" || {
					restore_tree
					fail "$variant: the contention instrument does not apply: its stock lock is not a spinlock_t (seed 000's 1-4 and 1-5 have one)"
				} ;;
			esac
			restore_tree
			cat "$work/patch.log" >&2
			fail "$variant: $(basename "$p") does not apply to $package $pkgver (the tree is left as unpacked)"
		fi
	done
	if [ "$instrument" != none ]; then
		{
			echo "/* scripts/kernel.sh: what this tree was built as, for pcpbench's instrument */"
			echo "#define PCB_INSTR_VARIANT \"$variant$suffix\""
			echo "#define PCB_INSTR_SERIES \"$series_label sha256:$series_sum\""
			echo "#define PCB_INSTR_CONFIG \"sha256:$(sha256sum <"$tree/.config" | cut -c1-64)\""
		} >"$tree/mm/pcb_instrument_build.h"
	fi
	echo "$key" >"$tree/.pcb-applied"
}

# the tree built: the kernel and what modules are built against
build_tree() {
	local start=$SECONDS stamp

	# the build's time is the source's: the same tree builds the same kernel
	stamp=$(date -u -d "@$(stat -c %Y "$tree/Makefile")" '+%Y-%m-%d %H:%M:%S UTC')
	say "building $variant$suffix in $tree (make -j$jobs; log: $tree/.pcb-build.log)"
	if ! make -C "$tree" -j"$jobs" KBUILD_BUILD_TIMESTAMP="$stamp" KBUILD_BUILD_USER=pcpbench \
		KBUILD_BUILD_HOST=rig KBUILD_BUILD_VERSION=1 "${karch[@]}" "${targets[@]}" \
		>"$tree/.pcb-build.log" 2>&1; then
		grep -E 'error|Error' "$tree/.pcb-build.log" | head -n 20 >&2 || true
		tail -n 20 "$tree/.pcb-build.log" >&2
		rm -f "$tree/.pcb-applied" "$tree/.pcb-built"
		fail "$variant$suffix does not build"
	fi
	echo "$key" >"$tree/.pcb-built"
	build_seconds=$((SECONDS - start))
}

# the build's files into the cache, whole or not at all
keep_build() {
	local tmp

	mkdir -p "$cache/builds"
	tmp=$(mktemp -d "$cache/builds/.new.XXXXXX")
	cp "$tree/$built_image" "$tree/System.map" "$tmp/"
	[ "$arch" = um ] || cp "$tree/Module.symvers" "$tmp/"
	cp "$tree/.config" "$tmp/config"
	cp "$tree/mm/memcontrol.o" "$tmp/memcontrol.o"
	{
		echo "variant=$variant$suffix"
		echo "base=$base"
		echo "source=$package $pkgver"
		echo "release=$(make -s -C "$tree" "${karch[@]}" kernelrelease)"
		echo "arch=$arch"
		echo "series=$series_label"
		echo "series_sha256=$series_sum"
		echo "instrument=$instrument"
		echo "config_sha256=$(sha256sum <"$tree/.config" | cut -c1-64)"
		echo "fragment_sha256=$frag_sum"
		echo "config_base=${config_base:-tinyconfig}"
		echo "base_patch=${base_patch:+$(basename "$base_patch") sha256:$(sha256sum <"$base_patch" | cut -c1-64)}"
		echo "key=$key"
		echo "compiler=$(gcc --version | head -n 1)"
		echo "build_seconds=$build_seconds"
		echo "${image,,}_sha256=$(sha256sum <"$tmp/$image" | cut -c1-64)"
	} >"$tmp/build.txt"
	rm -rf "$out"
	mv "$tmp" "$out"
}

hit=0
[ -f "$out/$image" ] && [ -f "$out/build.txt" ] && hit=1
[ "$hit" = 1 ] || [ "$cached_only" = 0 ] || fail "--cached: $variant$suffix is not in the cache ($out)"
# kdir wants the tree built as the variant: one an interrupted make left half-built is not
if [ "$hit" = 0 ] || { [ "$action" = kdir ] && [ "$(cat "$tree/.pcb-built" 2>/dev/null)" != "$key" ]; }; then
	apply_series
	build_tree
	[ "$hit" = 1 ] || keep_build
fi

case $action in
build)
	[ "$hit" = 0 ] || say "$variant$suffix: built before ($out)"
	echo "$out/$image" ;;
kdir) echo "$tree" ;;
info) cat "$out/build.txt" ;;
esac
