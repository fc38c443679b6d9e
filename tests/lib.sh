# What the shell tests share: pass and fail counts, a private scratch
# directory ($tmp, removed at exit), and expect_rc, which runs a command
# with its stdout and stderr in $tmp/out and $tmp/err and checks its exit
# status. Sourced after `set -u`; summary ends a test. The python the tests
# run finds tests/'s modules (kvname.py).
pass=0
fail=0
# Run from a git hook or `git rebase --exec`, the caller's GIT_DIR,
# GIT_WORK_TREE, GIT_INDEX_FILE and the like are in the environment, and
# every git command of a test (and of what it runs) would act on the
# caller's repository instead of the test's own: none of them reach a test.
for v in $(compgen -e GIT_); do
	unset "$v"
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PYTHONPATH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)${PYTHONPATH:+:$PYTHONPATH}"

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAILED: $*" >&2; }
expect_rc() {
	local want=$1
	shift
	"$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ "$rc" -eq "$want" ]; then ok; else bad "$* -> exit $rc, expected $want: $(cat "$tmp/err")"; fi
}
# the counts, and the test's exit status
summary() {
	echo "${1:+$1: }$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}
