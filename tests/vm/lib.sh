# What the vm suite's tests share, after tests/lib.sh: one boot of
# scripts/vm.sh's guest (4 nodes x 2 CPUs, CPUs 6-7 isolated and
# nohz_full) running a script of pcpbench commands, then checks of what
# came back. The guest's clock is emulated: no check reads a figure as a
# timing, only counts, placements and invariants.
#
# Arguments of every test: pcpbench, the source root, and whether the
# build is native (then the guest runs build-vm/pcpbench, which the rig
# builds without -march=native) or portable.
set -u
pcpbench=$(realpath "$1")
src=$2
. "$(dirname "$0")/../lib.sh"
back=$tmp/back
if [ "${3:-native}" = native ]; then
	pcpbench=$("$src/scripts/vm.sh" --build "$src/build-vm") || exit 1
fi

# vm_run SCRIPT [vm.sh option...]: SCRIPT run in the guest's /pcb, whose
# results/ comes back in $back; its status in $vm_rc, its stdout and stderr
# in $tmp/vm.out and $tmp/vm.err, the console in $tmp/console.log. The
# test is skipped (77) where the rig cannot run; the guest is stopped
# after 300 s, before meson's timeout would stop the test.
vm_run() {
	local script=$1 t0=$SECONDS

	shift
	"$src/scripts/vm.sh" --pcpbench "$pcpbench" --out "$back" --log "$tmp/console.log" \
		--timeout 300 --add "$script:/pcb/test.sh" "$@" -- sh test.sh \
		>"$tmp/vm.out" 2>"$tmp/vm.err"
	vm_rc=$?
	if [ "$vm_rc" -eq 77 ]; then
		cat "$tmp/vm.err"
		exit 77
	fi
	echo "guest: exit $vm_rc after $((SECONDS - t0)) s"
	grep '^vm: ' "$tmp/vm.err"
}

# a file the guest wrote under results/ has a line matching the regex
has_line() {	# FILE REGEX WHAT
	grep -Eq -- "$2" "$back/$1" && ok || bad "$3: no line /$2/ in $1:
$(cat "$back/$1" 2>/dev/null)"
}

# python3 over the results that came back: CODE sees results(pattern), a
# list of (path, json); its exit status and its output say what failed
check_py() {	# WHAT CODE
	local out

	if out=$(cd "$back" && python3 -c "
import glob, json, sys
def results(pattern):
    return [(p, json.load(open(p))) for p in sorted(glob.glob(pattern, recursive=True))]
def fail(msg):
    print(msg)
    sys.exit(1)
$2" 2>&1); then ok; else bad "$1: $out"; fi
}

# every design of every result that came back: its invariant held, and
# the notes name no broken one
invariants_hold() {
	check_py "invariants" '
n = 0
for p, r in results("**/result.json"):
    for d in r["designs"]:
        n += 1
        if d.get("invariant") != "ok":
            fail("%s: %s: invariant %s" % (p, d["design"], d.get("invariant")))
    for note in r.get("notes", []):
        if "BROKEN" in note:
            fail("%s: %s" % (p, note))
if n == 0:
    fail("no result came back")'
}
