#!/bin/bash
# pcpbench reproduce: the seeds' data file parses, every figure in it is on
# the seed line it cites (when the seeds are beside the checkout), a bad
# data file stops at its FILE:LINE with exit 2 and writes nothing, and one
# claim runs quick on scenarios/default.scn into its table.
set -u
pcpbench=$(realpath "$1")
src=$2
. "$(dirname "$0")/../lib.sh"

cd "$src" || exit 1

expect_rc 0 "$pcpbench" reproduce --help
grep -q "^usage: pcpbench reproduce" "$tmp/out" && ok || bad "reproduce --help"
expect_rc 2 "$pcpbench" reproduce --no-such-option
expect_rc 2 "$pcpbench" reproduce extra-argument

# the data file parses, and every scenario and design it names is there
expect_rc 0 "$pcpbench" reproduce --dry-run
claims=$(grep -c '^\[' scenarios/seeds.ini)
grep -qF "$claims claims from $src/scenarios/seeds.ini, " "$tmp/out" && ok || bad "dry-run: $(head -1 "$tmp/out")"
grep -q "^estimated time: [0-9]* s$" "$tmp/out" && ok || bad "dry-run has no estimate"
for id in $(sed -n 's/^\[\(.*\)\]$/\1/p' scenarios/seeds.ini); do
	grep -q "^  $id " "$tmp/out" && ok || bad "dry-run does not list $id"
done
expect_rc 0 "$pcpbench" reproduce --dry-run --quick
grep -q "(quick)" "$tmp/out" && ok || bad "--quick dry-run"

# each figure is on the seed's line it cites
seeds=$src/../shared/seeds
if [ -d "$seeds" ]; then
	awk -F' *= *' '
		/^\[/ { id = $0 }
		$1 == "seed" { seed[id] = $2 }
		$1 == "line" { line[id] = $2 }
		$1 == "figure" { fig[id] = $2 }
		$1 == "base_line" { bline[id] = $2 }
		$1 == "base_figure" { bfig[id] = $2 }
		END {
			for (i in seed) {
				print i "\t" seed[i] "\t" line[i] "\t" fig[i]
				if (i in bline)
					print i "\t" seed[i] "\t" bline[i] "\t" bfig[i]
			}
		}' scenarios/seeds.ini > "$tmp/cites"
	[ "$(wc -l < "$tmp/cites")" -ge "$claims" ] && ok || bad "fewer citations than claims"
	while IFS=$'\t' read -r id seed line fig; do
		[ -f "$seeds/$seed" ] || { bad "$id: no seed $seed"; continue; }
		sed -n "${line}p" "$seeds/$seed" | grep -qF -- "$fig" && ok ||
			bad "$id: $seed line $line has no '$fig': $(sed -n "${line}p" "$seeds/$seed")"
	done < "$tmp/cites"
else
	echo "note: $seeds is not here: the figures' seed lines are not checked"
fi

# bad data files: FILE:LINE: [claim] key: why, exit 2, nothing written
check_bad() {
	local file=$1 want=$2
	expect_rc 2 "$pcpbench" reproduce --quick --claims "tests/claims/$file" --out "$tmp/bad"
	grep -qF -- "$want" "$tmp/err" && ok || bad "$file: '$want' not in: $(cat "$tmp/err")"
	[ ! -e "$tmp/bad" ] && ok || bad "$file: wrote $tmp/bad"
}
check_bad bad-expect.ini "tests/claims/bad-expect.ini:12: [000-consume_stock] expect: 'upward'"
check_bad bad-line.ini "tests/claims/bad-line.ini:5: [000-consume_stock] line: '13x' is not a line number"
check_bad bad-selector.ini "tests/claims/bad-selector.ini:10: [000-consume_stock] a: 'functions:spinlock': write"
check_bad unknown-design.ini "tests/claims/unknown-design.ini:10: [000-consume_stock] a: 'functions:qsbr:consume_stock': scenario default runs no design 'qsbr'"
check_bad unknown-scenario.ini "tests/claims/unknown-scenario.ini:9: [000-consume_stock] scenario: no scenario 'no-such-scenario'"
check_bad no-machine.ini "tests/claims/no-machine.ini:2: [000-consume_stock]: no machine"
check_bad bad-field.ini "tests/claims/bad-field.ini:10: [000-consume_stock] a: 'functions:spinlock:consume_stock:bogusfield': no field 'bogusfield' in functions rows"
check_bad unknown-function.ini "tests/claims/unknown-function.ini:10: [000-consume_stock] a: 'functions:spinlock:no_such_function': the memcg model has no function 'no_such_function'"
check_bad unknown-key.ini "tests/claims/unknown-key.ini:7: [000-consume_stock] colour: unknown key"
check_bad bad-real.ini "tests/claims/bad-real.ini:11: [000-mmap] real: 'netperf': mmap, mmap_write, fault"
check_bad bad-ops.ini "tests/claims/bad-ops.ini:12: [000-mmap] ops: the memcg model has no function 'no_such_function'"
# a NUL byte ends no claims file silently, and two long names are never one
printf '[a]\nclaim = x\n\0[b]\nclaim = y\n' > "$tmp/nul.ini"
expect_rc 2 "$pcpbench" reproduce --dry-run --claims "$tmp/nul.ini"
grep -qF "$tmp/nul.ini:3: a NUL byte: not a text file" "$tmp/err" && ok || bad "NUL: $(cat "$tmp/err")"
long=$(printf 'x%.0s' $(seq 1 55))
printf '[%s1]\nclaim = a\n[%s2]\nclaim = b\n' "$long" "$long" > "$tmp/long.ini"
expect_rc 2 "$pcpbench" reproduce --dry-run --claims "$tmp/long.ini"
grep -qF "$tmp/long.ini:1: [xxxxxxxxxxxxxxxxxxxx...]: a claim's name of 56 characters (at most 49)" \
	"$tmp/err" && ok || bad "long name: $(cat "$tmp/err")"
check_bad bad-size.ini "tests/claims/bad-size.ini:13: [000-consume_stock] size: 'roughly': same, or not: why"
check_bad bad-mechanism.ini "tests/claims/bad-mechanism.ini:14: [000-consume_stock] mechanism: a mechanism goes with size = same"
check_bad bad-mechanism-field.ini "tests/claims/bad-mechanism-field.ini:14: [000-consume_stock] mechanism: {guest}: not one of {cpus}, {nodes}, {host}, {line}, {online}, {virtual}, {wake}"
expect_rc 2 "$pcpbench" reproduce --claims "$tmp/none.ini" --out "$tmp/bad"
[ ! -e "$tmp/bad" ] && ok || bad "a missing data file wrote $tmp/bad"
expect_rc 2 "$pcpbench" --topology "numa:8 core:16 pu:1" reproduce --claims tests/claims/one.ini --out "$tmp/bad"
[ ! -e "$tmp/bad" ] && ok || bad "a synthetic topology wrote $tmp/bad"

# one claim, run quick: the table, and the same table written with its CSV
expect_rc 0 "$pcpbench" reproduce --quick --claims tests/claims/one.ini --out "$tmp/one"
grep -q "^claim  *seed  *here  *agrees?  *size$" "$tmp/out" &&
	ok || bad "no table header: $(cat "$tmp/out")"
row=$(grep "^the per-CPU spinlock slows consume_stock()" "$tmp/out")
echo "$row" | grep -q "  +19\.15 %  *[-+][0-9.e+]* %  *\(yes\|NO\|n\.s\.\) (> 0)  *\(within 2x\|[0-9.]*x off\|opposite sign\|n\.s\.\)$" &&
	ok || bad "claim row: $row"
grep -qx "  \[000:130\] 19.15 %, AMD EPYC 7601, 128 CPUs, 8 nodes; scenario default" "$tmp/out" &&
	ok || bad "the seed's line: $(cat "$tmp/out")"
grep -q "^  default  *$tmp/one/default-" "$tmp/out" && ok || bad "the result: $(cat "$tmp/out")"
# the table fits 100 columns (but for a result's path, which is one word)
awk -v t="$tmp" 'length > 100 && index($0, t) == 0' "$tmp/out" | grep -q . &&
	bad "a line over 100 columns: $(awk 'length > 100' "$tmp/out")" || ok
dir=$(ls -d "$tmp"/one/reproduce-*/ 2>/dev/null | head -1)
[ -n "$dir" ] && [ -s "$dir/reproduce.txt" ] && ok || bad "no reproduce.txt"
grep -qF "$row" "$dir/reproduce.txt" && ok || bad "reproduce.txt differs from the table printed"
head -1 "$dir/reproduce.csv" | grep -qx 'id,claim,seed,line,seed_figure,base_line,base_figure,unit,seed_machine,scenario,value,here,expect,agrees,result,significant,size' &&
	ok || bad "reproduce.csv header: $(head -1 "$dir/reproduce.csv")"
grep -q '^"000-consume_stock",.*,"positive",\(yes\|no\),' "$dir/reproduce.csv" && ok || bad "reproduce.csv row"
[ -s "$(ls -d "$tmp"/one/default-*/ | head -1)/result.json" ] && ok || bad "the claim's result is not there"
ls -a "$tmp/one" | grep -q '\.tmp\.' && bad "temporary directory left" || ok

# a share: the modeled Diff of the calls a real operation makes, over what it costs here
expect_rc 0 "$pcpbench" reproduce --quick --claims tests/claims/share.ini --out "$tmp/share"
grep -Eq '^  mmap +[0-9]+\.[0-9] +[0-9]+\.[0-9]   3 runs of [0-9]+: an mmap\(\) \+ munmap\(\) pair' "$tmp/out" &&
	ok || bad "the real operation's line: $(cat "$tmp/out")"
row=$(grep "^the spinlock's stock calls are a share" "$tmp/out")
echo "$row" | grep -q -- "  -0\.698 %  *[-+][0-9.e+]* %  *\(yes\|NO\|n\.s\.\) (< 0)  *\(within 2x\|[0-9.]*x off\|opposite sign\|n\.s\.\|not comparable\)$" &&
	ok || bad "share row: $row"
# this machine's share is the table's Diff (cycles) of the calls over the pair's cycles
dir=$(ls -d "$tmp"/share/default-*/ | head -1)
csv=$(ls -d "$tmp"/share/reproduce-*/ | head -1)/reproduce.csv
mmap=$(awk '$1 == "mmap" {print $2}' "$tmp/out")
python3 - "$dir/result.json" "$csv" "$mmap" <<'PY' && ok || bad "the share is not 100 (d(consume) + 2 d(refill)) / mmap"
import csv, json, sys
r = json.load(open(sys.argv[1]))
f = {(x["design"], x["function"]): x["avg_cycles"] for x in r["functions"]}
d = lambda fn: f[("spinlock", fn)] - f[("local_lock", fn)]
want = 100 * (d("consume_stock") + 2 * d("refill_stock")) / float(sys.argv[3])
got = float(next(x for x in csv.DictReader(open(sys.argv[2])) if x["id"] == "000-mmap")["here"])
print(want, got)
sys.exit(0 if abs(want - got) <= 1e-3 * max(1, abs(want)) else 1)
PY

summary reproduce
