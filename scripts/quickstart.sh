#!/bin/bash
# Set up a Debian machine for pcpbench, build it into build/, then either run
# the default scenario (run) or the tests (test). Installs only what is
# missing, with apt-get, through sudo when not root.
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
missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "quickstart: installing ${missing[*]}" >&2
	sudo=()
	[ "$(id -u)" -eq 0 ] || sudo=(sudo)
	"${sudo[@]}" apt-get update -qq
	DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

if [ ! -f build/build.ninja ]; then
	meson setup build >&2
fi
ninja -C build >&2

if [ "$what" = run ]; then
	exec build/pcpbench run "$@"
fi

status=0
meson test -C build --print-errorlogs "$@" || status=$?

# the torture test again, under ThreadSanitizer (PCPBENCH_TSAN=0 skips it)
if [ "${PCPBENCH_TSAN:-1}" != 0 ] && [ $# -eq 0 ]; then
	if [ ! -f build-tsan/build.ninja ]; then
		meson setup build-tsan -Db_sanitize=thread -Dbuildtype=debugoptimized >&2
	fi
	ninja -C build-tsan tests/test_invariant >&2
	meson test -C build-tsan --no-rebuild --print-errorlogs invariant || status=$?
fi

passed=0
failed=0
for log in build/meson-logs/testlog.json build-tsan/meson-logs/testlog.json; do
	[ -f "$log" ] || continue
	passed=$((passed + $(grep -c '"result": "OK"' "$log" || true)))
	failed=$((failed + $(grep -c '"result": "\(FAIL\|TIMEOUT\|ERROR\|UNEXPECTEDPASS\)"' "$log" || true)))
done
echo "tests: $passed passed, $failed failed"
exit $status
