#!/bin/bash
# Set up a Debian machine for pcpbench, build it into build/, then either run
# the default scenario (run) or the tests (test). Installs only what is
# missing, with apt-get, through sudo when not root; run installs and builds
# only what pcpbench run needs (the program), test the rest (the tests, the
# man pages, gnuplot for plot's tests, python3 for theirs, and the vm
# suite's QEMU guest: its packages, its kernel and its pcpbench, and that
# kernel's headers, against which the kmod test builds pcpbench.ko).
set -euo pipefail

usage() {
	echo "usage: scripts/quickstart.sh run [pcpbench run arguments...] | test [meson test arguments...]" >&2
	exit 2
}

[ $# -ge 1 ] || usage
what=$1
shift
case "$what" in run|test) ;; *) usage ;; esac

cd "$(dirname "$0")/.."

packages=(gcc meson ninja-build pkg-config libhwloc-dev libnuma-dev libjansson-dev libinih-dev libck-dev libpfm4-dev liburcu-dev)
[ "$what" = run ] || packages+=(gnuplot-nox scdoc python3)
# the vm suite's guest (scripts/vm.sh): QEMU, a static busybox and cpio;
# where they cannot be had, the suite is skipped, not the tests
vm_packages=(qemu-system-x86 busybox-static cpio)
# the kernel rig's builds (scripts/kernel.sh, the rig test): the kernel's
# own build tools; where they cannot be had, that test is skipped
kernel_packages=(make flex bison bc libelf-dev patch xz-utils)

sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
updated=0
# install those of the packages named that are missing; its status apt-get's
install_missing() {
	local missing=() p

	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -gt 0 ] || return 0
	echo "quickstart: installing ${missing[*]}" >&2
	if [ "$updated" = 0 ]; then
		"${sudo[@]}" apt-get update -qq
		updated=1
	fi
	DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
		"${missing[@]}" >&2
}
install_missing "${packages[@]}"
if [ "$what" = test ] && ! install_missing "${vm_packages[@]}"; then
	echo "quickstart: ${vm_packages[*]} cannot be installed: the vm suite will skip" >&2
fi
if [ "$what" = test ] && ! install_missing "${kernel_packages[@]}"; then
	echo "quickstart: ${kernel_packages[*]} cannot be installed: the rig test will skip" >&2
fi

if [ ! -f build/build.ninja ]; then
	meson setup build >&2
fi

if [ "$what" = run ]; then
	ninja -C build pcpbench >&2
	exec build/pcpbench run "$@"
fi

# scdoc may have come with the test packages since a run set build/ up without it
if command -v scdoc >/dev/null && ! grep -q scdoc build/build.ninja; then
	meson setup --reconfigure build >&2
fi
ninja -C build >&2
# the vm suite's guest runs a copy built without -march=native, on Debian's
# cloud kernel unpacked with dpkg -x (scripts/vm.sh); an apt-get update first
# where apt does not know the kernel yet. Without it the suite skips.
scripts/vm.sh --build build-vm >/dev/null
if ! scripts/vm.sh --fetch 2>/dev/null; then
	[ "$updated" = 1 ] || "${sudo[@]}" apt-get update -qq || true
	scripts/vm.sh --fetch ||
		echo "quickstart: no guest kernel to be had: the vm suite will skip" >&2
fi
# the kernel backend's test (kmod) builds pcpbench.ko against that kernel's headers
if abi=$(scripts/vm.sh --abi 2>/dev/null) &&
	! install_missing make "linux-headers-$abi-cloud-amd64"; then
	echo "quickstart: no linux-headers-$abi-cloud-amd64: the kmod test will skip" >&2
fi

status=0
# the test logs of this invocation, counted at the end
logs=(build/meson-logs/testlog.json)
meson test -C build --print-errorlogs "$@" || status=$?

# the torture tests again, under ThreadSanitizer (PCPBENCH_TSAN=0 skips them)
if [ "${PCPBENCH_TSAN:-1}" != 0 ] && [ $# -eq 0 ]; then
	if [ ! -f build-tsan/build.ninja ]; then
		meson setup build-tsan -Db_sanitize=thread -Dbuildtype=debugoptimized >&2
	fi
	ninja -C build-tsan tests/test_invariant tests/test_pcp tests/test_sheaves >&2
	logs+=(build-tsan/meson-logs/testlog.json)
	# ThreadSanitizer runs the tortures several times slower than their
	# 120 s allow (invariant: 24 s built for figures, 104 s here)
	meson test -C build-tsan --no-rebuild --print-errorlogs --timeout-multiplier 3 \
		invariant pcp sheaves || status=$?
fi

# the tests and a quick run of the default scenario again, under AddressSanitizer
# and UndefinedBehaviorSanitizer, stopped by the first report (PCPBENCH_ASAN=0
# skips it). -O0: with the sanitizers, -O2 takes ten times as long to build.
if [ "${PCPBENCH_ASAN:-1}" != 0 ]; then
	asan_env=(ASAN_OPTIONS=halt_on_error=1:detect_leaks=1
		  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1)
	if [ ! -f build-asan/build.ninja ]; then
		meson setup build-asan -Db_sanitize=address,undefined -Db_lundef=false \
			-Dbuildtype=debug >&2
	fi
	ninja -C build-asan >&2
	logs+=(build-asan/meson-logs/testlog.json)
	# The kmod suite's second pass boots the rig's 7.3 (its module built
	# against that tree), where the rig test built it: the first ran in
	# Debian's 6.1, so the kernel backend is tested on both releases.
	kmod_env=()
	if [ $# -eq 0 ] && b73=$(scripts/kernel.sh build --cached 7.3 2>/dev/null | tail -n 1) &&
		k73=$(scripts/kernel.sh kdir --cached 7.3 2>/dev/null | tail -n 1); then
		kmod_env=(PCPBENCH_KMOD_KERNEL="$b73" PCPBENCH_KDIR="$k73")
		echo "quickstart: the kmod suite's second pass boots the rig's 7.3 ($b73)" >&2
	fi
	# the vm suite and the rig test run their own portable build, not this
	# one; kmod-build builds no program
	env "${asan_env[@]}" "${kmod_env[@]}" meson test -C build-asan --no-rebuild --print-errorlogs \
		--no-suite vm --no-suite rig --no-suite kbuild "$@" || status=$?
	if [ $# -eq 0 ]; then
		quick=$(mktemp -d)
		result=OK
		if ! env "${asan_env[@]}" build-asan/pcpbench run --quick --out "$quick" \
			scenarios/default.scn >build-asan/meson-logs/quick-run.txt 2>&1; then
			result=FAIL
			status=1
			echo "quickstart: the quick run under ASan/UBSan failed:" >&2
			cat build-asan/meson-logs/quick-run.txt >&2
		fi
		rm -rf "$quick"
		# one line in a test log's form, counted with the others
		printf '{"name": "asan quick run", "result": "%s"}\n' "$result" \
			>build-asan/meson-logs/quick-run.json
		logs+=(build-asan/meson-logs/quick-run.json)
	fi
fi

passed=0
failed=0
for log in "${logs[@]}"; do
	[ -f "$log" ] || continue
	passed=$((passed + $(grep -c '"result": "OK"' "$log" || true)))
	failed=$((failed + $(grep -c '"result": "\(FAIL\|TIMEOUT\|ERROR\|UNEXPECTEDPASS\)"' "$log" || true)))
done
echo "tests: $passed passed, $failed failed"
exit $status
