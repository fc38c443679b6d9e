#!/bin/bash
# pcpbench plot on the fixtures of tests/fixtures/plots/ and the reference
# result: every kind of figure as a valid SVG and PNG, the indexes listing
# them, and bad input refused with exit 2 before anything is written.
set -u
pcpbench=$(realpath "$1")
src=$(realpath "$2")
. "$(dirname "$0")/../lib.sh"

# NAME.svg and NAME.png in DIR, each what its name says
valid_images() {
	local dir=$1 name=$2
	if [ "$(head -c 5 "$dir/$name.svg" 2>/dev/null)" = "<?xml" ] ||
	   [ "$(head -c 4 "$dir/$name.svg" 2>/dev/null)" = "<svg" ]; then ok
	else bad "$dir/$name.svg does not start as an SVG"; fi
	if [ "$(tr -d ' \n' < "$dir/$name.svg" 2>/dev/null | tail -c 6)" = "</svg>" ]; then ok
	else bad "$dir/$name.svg does not end with </svg>"; fi
	if [ "$(od -An -tx1 -N8 "$dir/$name.png" 2>/dev/null | tr -d ' \n')" = "89504e470d0a1a0a" ]; then ok
	else bad "$dir/$name.png has no PNG signature"; fi
}

expect_rc 0 "$pcpbench" plot --help
grep -q "^usage: pcpbench plot" "$tmp/out" && ok || bad "plot --help has no usage line"
"$pcpbench" --help | grep -q "^  plot " && ok || bad "pcpbench --help does not list plot"

if ! command -v gnuplot >/dev/null; then
	echo "SKIP: gnuplot is not installed (Debian: apt-get install gnuplot-nox); $pass checks passed"
	exit 77
fi

r=$tmp/results
cp -r "$src/tests/fixtures/plots" "$r"
mv "$r/compare.csv" "$tmp/compare.csv"
for n in 0 1; do
	mkdir "$r/per-node/node$n"
	cp "$r/drain-scaling/result.json" "$r/per-node/node$n/"
done
mkdir "$r/reference"
cp "$src/results/reference/default-kvm-2cpu/result.json" "$r/reference/"

expect_rc 0 "$pcpbench" plot "$r"
for f in contention:functions contention:contention-rate_hz contention:contention-think_ns \
	 contention:interruptions drain-scaling:functions drain-scaling:drains \
	 multi-memcg:functions multi-memcg:multi-memcg per-node:heatmap-consume_stock \
	 per-node:heatmap-refill_stock per-node/node0:drains per-node/node1:functions \
	 reference:functions reference:interruptions; do
	valid_images "$r/${f%%:*}/plots" "${f#*:}"
	grep -q "src=\"${f#*:}.svg\"" "$r/${f%%:*}/plots/index.html" && ok ||
		bad "${f%%:*}/plots/index.html lacks ${f#*:}"
	grep -q "${f%%:*}/plots/${f#*:}.svg" "$r/index.html" && ok || bad "index.html lacks $f"
done
grep -q "^$r/index.html$" "$tmp/out" && ok || bad "plot did not print the index: $(cat "$tmp/out")"
# the index's temporary file is plot's own: links planted at the names a PID would give
# (the next few hundred PIDs) are not written through
echo precious > "$tmp/precious"
python3 -c 'import os, sys
for p in range(os.getpid() + 1, os.getpid() + 400):
    os.symlink(sys.argv[1], "%s/.index.html-%d" % (sys.argv[2], p))' "$tmp/precious" "$r"
expect_rc 0 "$pcpbench" plot "$r"
[ "$(cat "$tmp/precious")" = precious ] && [ -f "$r/index.html" ] && [ ! -L "$r/index.html" ] &&
	ok || bad "plot wrote through a planted link"
rm -f "$r"/.index.html-[0-9]*
[ -z "$(find "$r" -maxdepth 1 -name '.index.html-*')" ] && ok || bad "index temporary left"
[ -z "$(find "$r" -name '.plots-*')" ] && ok || bad "temporary directories left: $(find "$r" -name '.plots-*')"

# the data behind them: a block a design, the isolated CPU alone, a sweep's labels
d=$r/drain-scaling/plots/drains.dat
[ "$(grep -c '^local_lock$' "$d")" -eq 1 ] && [ "$(grep -c '^spinlock$' "$d")" -eq 1 ] && ok ||
	bad "drains.dat blocks: $(cat "$d")"
[ "$(grep -c $'^128\t' "$d")" -eq 2 ] && ok || bad "drains.dat rows: $(cat "$d")"
d=$r/contention/plots/interruptions.dat
grep -q "CPU 3 (isolated)" "$d" && ! grep -q "CPU 2" "$d" && ok ||
	bad "interruptions.dat is not the isolated CPU's: $(head -3 "$d")"
grep -q "rate_hz=10 think_ns=0" "$r/contention/plots/functions.dat" && ok || bad "functions.dat header"

# plots/ has a result directory's mode (0777 less the umask), not mkdtemp's 0700
(umask 022 && "$pcpbench" plot "$r/drain-scaling" >/dev/null 2>&1)
[ "$(stat -c %a "$r/drain-scaling/plots")" = 755 ] && ok ||
	bad "plots/ mode $(stat -c %a "$r/drain-scaling/plots") under umask 022"

# re-plotting replaces plots/ whole
touch "$r/drain-scaling/plots/stale"
expect_rc 0 "$pcpbench" plot "$r/drain-scaling/result.json"
[ ! -e "$r/drain-scaling/plots/stale" ] && [ -f "$r/drain-scaling/plots/drains.svg" ] && ok ||
	bad "re-plot did not replace plots/"

# the old plots/ goes whole, a directory in it too, and nothing is left beside it
mkdir "$r/drain-scaling/plots/sub"
touch "$r/drain-scaling/plots/sub/file"
expect_rc 0 "$pcpbench" plot "$r/drain-scaling"
[ -z "$(find "$r/drain-scaling" -name '.plots-*')" ] && [ ! -e "$r/drain-scaling/plots/sub" ] && ok ||
	bad "old plots/ left: $(find "$r/drain-scaling" -name '.plots-*')"
# an old plots/ that cannot be emptied (not for root, whom permissions do not stop) is named
if [ "$(id -u)" != 0 ]; then
	chmod 555 "$r/drain-scaling/plots"
	expect_rc 0 "$pcpbench" plot "$r/drain-scaling"
	left=$(find "$r/drain-scaling" -maxdepth 1 -name '.plots-*-old')
	[ -n "$left" ] && grep -qF "$left is left" "$tmp/err" && ok ||
		bad "leftover old plots/ not named: $left: $(cat "$tmp/err")"
	find "$r/drain-scaling" -maxdepth 1 -name '.plots-*' -exec chmod 755 {} + -exec rm -rf {} +
fi

# compare's CSV
expect_rc 0 "$pcpbench" plot --compare "$tmp/compare.csv" --out "$tmp/cmp"
for ext in svg png; do
	[ -s "$tmp/cmp/compare.$ext" ] && ok || bad "compare.$ext not written"
done
valid_images "$tmp/cmp" compare
# each bar its Diff %, mark and interval (the whiskers); "?" where the interval is none
grep -q $'^consume_stock\t10.00\t1\t6.50\t13.60\t-20.00\t1\t-21.20\t-18.75$' "$tmp/cmp/compare.dat" &&
	grep -q $'^refill_stock\t-1.00\t0\t-3.10\t1.15\t1.00\t0\t?\t?$' "$tmp/cmp/compare.dat" && ok ||
	bad "compare.dat: $(cat "$tmp/cmp/compare.dat")"

# a series with no Diff % (no row in common with the baseline) is left out
awk -F, -v OFS=, '$1 == "spinlock" && $4 == 1 { $9 = ""; $10 = ""; $11 = ""; $12 = "" } 1' \
	"$tmp/compare.csv" > "$tmp/partial.csv"
expect_rc 0 "$pcpbench" plot --compare "$tmp/partial.csv" --out "$tmp/cmp"
head -1 "$tmp/cmp/partial.dat" | grep -q "local_lock" && ! head -1 "$tmp/cmp/partial.dat" | grep -q spinlock &&
	ok || bad "partial.dat columns: $(head -1 "$tmp/cmp/partial.dat")"

# bad input: exit 2, nothing written
b=$tmp/bad
mkdir -p "$b/empty" "$b/trunc" "$b/mixed/good" "$b/mixed/cut" "$b/nodes/node0"
head -c 200 "$r/drain-scaling/result.json" > "$b/trunc/result.json"
cp "$r/drain-scaling/result.json" "$b/mixed/good/"
cp "$b/trunc/result.json" "$b/mixed/cut/"
printf 'node,design,config,function,timing,avg_cycles,stddev,calls\n0,a,,f,call,fast,1,1\n' \
	> "$b/nodes/nodes.csv"
cp "$r/drain-scaling/result.json" "$b/nodes/node0/"
sed 's/-20.00/lots/' "$tmp/compare.csv" > "$b/compare.csv"
echo '{"format": "pcpbench-result-1"}' > "$b/notresult.json"
expect_rc 2 "$pcpbench" plot "$b/empty"
grep -q "no result" "$tmp/err" && ok || bad "empty directory message: $(cat "$tmp/err")"
expect_rc 2 "$pcpbench" plot "$b/trunc"
grep -q "trunc/result.json" "$tmp/err" && ok || bad "truncated result message: $(cat "$tmp/err")"
expect_rc 2 "$pcpbench" plot "$b/mixed"
expect_rc 2 "$pcpbench" plot "$b/nodes"
grep -q "nodes.csv:2: avg_cycles" "$tmp/err" && ok || bad "nodes.csv message: $(cat "$tmp/err")"
expect_rc 2 "$pcpbench" plot "$b/notresult.json"
expect_rc 2 "$pcpbench" plot "$b/no-such-dir"
expect_rc 2 "$pcpbench" plot --compare "$b/compare.csv"
grep -q "compare.csv:8: diff_pct" "$tmp/err" && ok || bad "compare message: $(cat "$tmp/err")"
expect_rc 2 "$pcpbench" plot --compare "$b/mixed/good/result.json"
# two results with no row in common: nothing to compare, said once, not gnuplot's failure
mkdir "$b/a" "$b/b"
cp "$r/reference/result.json" "$b/a/"
sed 's/local_lock/local_lockx/g; s/"spinlock"/"spinlockx"/g' "$b/a/result.json" > "$b/b/result.json"
"$pcpbench" compare "$b/a" "$b/b" --format csv > "$b/none.csv"
expect_rc 2 "$pcpbench" plot --compare "$b/none.csv" --out "$b/none"
grep -q "none.csv: no result to compare with the baseline" "$tmp/err" && ! grep -q gnuplot "$tmp/err" &&
	ok || bad "no comparable row message: $(cat "$tmp/err")"
[ ! -e "$b/none" ] && ok || bad "--out made for a CSV with nothing to compare"
expect_rc 2 "$pcpbench" plot --out "$tmp"
# --out a file: a usage error as run's and reproduce's, not a runtime failure
touch "$b/file"
expect_rc 2 "$pcpbench" plot --compare "$tmp/compare.csv" --out "$b/file"
grep -qF -- "--out $b/file: not a directory" "$tmp/err" && ok || bad "--out FILE message: $(cat "$tmp/err")"
rm "$b/file"
expect_rc 2 "$pcpbench" plot --frobnicate
[ -z "$(find "$b" -name plots -o -name '.plots-*' -o -name '*.svg' -o -name '*.png' -o -name index.html)" ] &&
	ok || bad "bad input left files: $(find "$b" -name plots -o -name '*.svg' -o -name index.html)"

# no gnuplot or no scripts: a runtime failure that says so, nothing written
expect_rc 1 env PCPBENCH_GNUPLOT=/nonexistent/gnuplot "$pcpbench" plot "$b/mixed/good"
grep -q "gnuplot not found" "$tmp/err" && ok || bad "missing gnuplot message: $(cat "$tmp/err")"
expect_rc 1 env PCPBENCH_PLOTS="$b" "$pcpbench" plot "$b/mixed/good"
[ ! -e "$b/mixed/good/plots" ] && ok || bad "plots/ written without gnuplot"
# gnuplot failing: the --out directory plot made for the figure goes too
expect_rc 1 env PCPBENCH_GNUPLOT=/bin/false "$pcpbench" plot --compare "$tmp/compare.csv" --out "$b/made"
[ ! -e "$b/made" ] && ok || bad "--out directory left after gnuplot failed: $(ls -a "$b/made")"
mkdir "$b/there"
expect_rc 1 env PCPBENCH_GNUPLOT=/bin/false "$pcpbench" plot --compare "$tmp/compare.csv" --out "$b/there"
[ -d "$b/there" ] && [ -z "$(ls -A "$b/there")" ] && ok || bad "an existing --out directory was not left as it was"

# Ctrl-C (here from a gnuplot that signals plot) leaves no temporary directory: exit 130,
# the old plots/ as it was, no --out directory made
printf '#!/bin/sh\nkill -INT $PPID\nexit 1\n' > "$tmp/sigint-gnuplot"
chmod +x "$tmp/sigint-gnuplot"
before=$(ls "$r/drain-scaling/plots")
expect_rc 130 env PCPBENCH_GNUPLOT="$tmp/sigint-gnuplot" "$pcpbench" plot "$r"
[ -z "$(find "$r" -name '.plots-*')" ] && ok || bad "interrupted plot left: $(find "$r" -name '.plots-*')"
[ "$(ls "$r/drain-scaling/plots")" = "$before" ] && ok || bad "interrupted plot changed plots/"
grep -q "interrupted" "$tmp/err" && ! grep -q "gnuplot failed" "$tmp/err" && ok ||
	bad "interrupted plot message: $(cat "$tmp/err")"
expect_rc 130 env PCPBENCH_GNUPLOT="$tmp/sigint-gnuplot" "$pcpbench" plot --compare "$tmp/compare.csv" \
	--out "$b/interrupted"
[ ! -e "$b/interrupted" ] && ok || bad "interrupted plot --compare left: $(ls -a "$b/interrupted")"

# a result directory whose name has a line break and a quote: gnuplot runs inside it
odd="$tmp/odd/it's a
result"
mkdir -p "$odd" && cp "$src/tests/fixtures/plots/drain-scaling/result.json" "$odd/"
expect_rc 0 "$pcpbench" plot "$odd"
valid_images "$odd/plots" drains
[ -z "$(find "$tmp/odd" -maxdepth 1 -newer "$odd/result.json" ! -path "$tmp/odd" ! -path "$odd")" ] &&
	ok || bad "plot wrote beside the odd directory: $(ls -a "$tmp/odd")"

# a tree is walked once: links back up (loop -> .) draw no result twice
mkdir -p "$tmp/loops" && cp -r "$src/tests/fixtures/plots/drain-scaling" "$tmp/loops/"
ln -s . "$tmp/loops/loop" && ln -s .. "$tmp/loops/drain-scaling/up"
expect_rc 0 "$pcpbench" plot "$tmp/loops"
[ "$(grep -c 'plots/index.html:' "$tmp/out")" = 1 ] && ok || bad "a loop drew a result twice: $(cat "$tmp/out")"

summary plots
