#!/bin/bash
# An installed pcpbench needs no source tree. meson install puts it into a
# DESTDIR; then, in a mount namespace of its own (unshare -rm) where the
# checkout and the build directory are empty tmpfs mounts, the installed
# binary runs the default scenario (quick, no argument), reproduce --quick
# --dry-run and plot on the result, from a directory with no scenarios/
# of its own. Whatever it read of the checkout would be gone: it must
# find scenarios/, seeds.ini and plots/ in DESTDIR's data directory.
# Skipped (77) where meson is not found or no mount namespace can be made.
set -u
pcpbench=$(realpath "$1")
src=$(realpath "$2")
build=$(realpath "$3")
meson=$4
bindir=$5	# prefix/bindir, as installed
datadir=$6	# prefix/datadir/pcpbench, as installed
. "$(dirname "$0")/../lib.sh"

skip() {
	echo "SKIP: $*; $pass checks passed"
	exit 77
}

[ -n "$meson" ] || skip "meson not found"
case "$tmp/" in
"$src/"* | "$build/"*) skip "the scratch directory $tmp is inside the tree it hides" ;;
esac

# the installed tree: the binary, and every scenario and gnuplot script as the checkout has it
dest=$tmp/dest
bin=$dest$bindir/pcpbench
data=$dest$datadir
expect_rc 0 "$meson" install -C "$build" --no-rebuild --quiet --destdir "$dest"
[ -x "$bin" ] && [ "$("$bin" --version)" = "$("$pcpbench" --version)" ] && ok ||
	bad "no installed binary of this build at $bin"
for f in "$src"/scenarios/* "$src"/plots/*.gp; do
	cmp -s "$f" "$data/${f#"$src"/}" && ok || bad "${f#"$src"/} is not installed as $data/${f#"$src"/}"
done

unshare -rm true 2>"$tmp/err" || skip "no user and mount namespace here (unshare -rm: $(cat "$tmp/err"))"

# in the namespace: the build directory and the checkout hidden, then the commands
cat >"$tmp/hidden.sh" <<'HIDDEN'
set -u
src=$1 build=$2 tmp=$3 bin=$4
# the build directory first: it may be inside the checkout
for d in "$build" "$src"; do
	mount -t tmpfs -o ro,mode=0755 hidden "$d" || exit 3
done
ls -A "$src" >"$tmp/hidden.ls"
[ ! -d "$build" ] || ls -A "$build" >>"$tmp/hidden.ls"
run() {
	local name=$1
	shift
	"$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
	echo $? >"$tmp/$name.rc"
}
cd "$tmp/work" || exit 4
export PCPBENCH_LOCK_DIR=$tmp/locks
run plan "$bin" run --dry-run
run run "$bin" run --quick --out "$tmp/results"
run reproduce "$bin" reproduce --quick --dry-run
run plot "$bin" plot "$tmp/results"
HIDDEN
mkdir -p "$tmp/work" "$tmp/locks"
unshare -rm bash "$tmp/hidden.sh" "$src" "$build" "$tmp" "$bin" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 3 ] && skip "cannot mount a tmpfs in the namespace: $(cat "$tmp/err")"
[ "$rc" -eq 0 ] && ok || bad "the namespace's script exited $rc: $(cat "$tmp/err")"

# the hiding is real: nothing of either tree could be seen
[ -f "$tmp/hidden.ls" ] && [ ! -s "$tmp/hidden.ls" ] && ok ||
	bad "the checkout or the build directory was still visible: $(cat "$tmp/hidden.ls" 2>&1)"

# each command's exit status, and what it says it read
ran() {
	local name=$1 want=$2
	[ "$(cat "$tmp/$name.rc" 2>/dev/null)" = "$want" ] && ok ||
		bad "$name exited $(cat "$tmp/$name.rc" 2>/dev/null), expected $want: $(cat "$tmp/$name.err" 2>/dev/null)"
}
ran plan 0
head -1 "$tmp/plan.out" | grep -qF "scenario default ($data/scenarios/default.scn)" && ok ||
	bad "run --dry-run did not plan the installed default.scn: $(head -1 "$tmp/plan.out")"
ran run 0
result=$(ls -d "$tmp"/results/default-* 2>/dev/null | head -1)
[ -n "$result" ] && [ -f "$result/result.json" ] && ok || bad "run wrote no result under $tmp/results"
ran reproduce 0
head -1 "$tmp/reproduce.out" | grep -qF "claims from $data/scenarios/seeds.ini" && ok ||
	bad "reproduce did not read the installed seeds.ini: $(head -1 "$tmp/reproduce.out")"
grep -q "^scenario .* configuration" "$tmp/reproduce.out" && ok || bad "reproduce planned no scenario"
if command -v gnuplot >/dev/null; then
	ran plot 0
	[ -n "$result" ] && [ -f "$result/plots/index.html" ] && [ -f "$result/plots/functions.svg" ] &&
		ok || bad "plot drew no figure of $result"
else
	echo "note: gnuplot is not installed: plot's figures not drawn, only its run"
	grep -q "gnuplot not found" "$tmp/plot.err" && ok || bad "plot: $(cat "$tmp/plot.err")"
fi
# nothing written names the checkout
if grep -rlF "$src/" "$tmp/results" >"$tmp/named" 2>/dev/null; then
	bad "the results name the checkout $src: $(cat "$tmp/named")"
else
	ok
fi
summary install
