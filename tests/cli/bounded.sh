#!/bin/bash
# Hostile results within every limit the readers set are read in time
# linear in them, and past the limits refused naming the file and key; a
# stop asked for ends plot within a second; labels of any bytes reach no
# terminal, gnuplot data file or index.html raw. Each bound is ten times
# and more what the command takes on a 2-CPU guest: it catches a loop
# quadratic in rows (minutes there), never a slow machine.
set -u
pcpbench=$(realpath "$1")
src=$(realpath "$2")
. "$(dirname "$0")/../lib.sh"

# cmd finishes within limit seconds with exit status want
bounded() {
	local limit=$1 want=$2
	shift 2
	timeout -s KILL "$limit" "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ "$rc" -eq 137 ]; then bad "$* took more than ${limit}s"
	elif [ "$rc" -ne "$want" ]; then bad "$* -> exit $rc, expected $want: $(head -c 300 "$tmp/err")"
	else ok; fi
}
# nothing printed holds a byte a terminal acts on: C0 but line break and tab, DEL, C1
raw_controls() { LC_ALL=C grep -qP '[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]' "$@"; }

expect_rc 0 "$pcpbench" run --quick --set run.duration_ms=5 --set run.warmup_ms=0 \
	--set run.runs=2 --set scenario.name=seed --out "$tmp/seed"
seed=$(ls -d "$tmp"/seed/seed-*/)/result.json

# grow SEED into OUT: designs design rows of fns function rows each, nc counter rows,
# labels made of prefix; every row is one a run writes, renamed
grow() {
	python3 - "$seed" "$@" <<'EOF'
import copy, json, os, sys
seed, out, designs, fns, nc, prefix = sys.argv[1], sys.argv[2], int(sys.argv[3]), \
    int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
r = json.load(open(seed))
d0 = r["designs"][0]
f0 = [f for f in r["functions"] if f["design"] == d0["design"]][0]
c0 = r["counters"][0] if r["counters"] else None
r["designs"], r["functions"], r["counters"], r["interruptions"] = [], [], [], []
for i in range(designs):
    d = copy.deepcopy(d0)
    d["design"] = d["design_name"] = "%s%d" % (prefix, i)
    r["designs"].append(d)
    for k in range(fns):
        f = copy.deepcopy(f0)
        f["design"], f["function"] = d["design"], "%sfn%d" % (prefix, k)
        r["functions"].append(f)
    for k in range(nc if c0 else 0):
        c = copy.deepcopy(c0)
        c["design"], c["thread"], c["event"] = d["design"], "all", "ev%d" % k
        r["counters"].append(c)
os.makedirs(out, exist_ok=True)
json.dump(r, open(os.path.join(out, "result.json"), "w"))
EOF
}

# a gnuplot that writes the figure it is asked for at once, or after
# $FAKE_GNUPLOT_SLEEP; it marks its start in $FAKE_GNUPLOT_STARTED when set
mkdir -p "$tmp/fakebin"
cat > "$tmp/fakebin/gnuplot" <<'FAKE'
#!/bin/bash
[ -z "$FAKE_GNUPLOT_STARTED" ] || : > "$FAKE_GNUPLOT_STARTED"
name=$(printf '%s' "$2" | sed -n "s/.*name='\([^']*\)'.*/\1/p")
fmt=$(printf '%s' "$2" | sed -n "s/.*fmt='\([^']*\)'.*/\1/p")
sleep "${FAKE_GNUPLOT_SLEEP:-0}"
echo '<svg></svg>' > "$name.$fmt"
FAKE
chmod +x "$tmp/fakebin/gnuplot"
fakeplot=(env "PATH=$tmp/fakebin:$PATH" "$pcpbench" plot)

# a sweep's worth of designs (4000 of a sweep's 16000): every reader in seconds
grow "$tmp/wide" 4000 2 4 d
for f in text email markdown kv mmtests; do
	bounded 60 0 "$pcpbench" report --format "$f" "$tmp/wide"
done
bounded 60 0 "$pcpbench" compare "$tmp/wide" "$tmp/wide"
bounded 60 0 "$pcpbench" compare --format csv "$tmp/wide" "$tmp/wide"
bounded 60 0 "${fakeplot[@]}" "$tmp/wide"

# past what a run writes: refused, naming the file and the key, nothing written
grow "$tmp/toomany" 16001 1 0 d
bounded 60 2 "$pcpbench" report "$tmp/toomany"
grep -q "toomany/result.json: result.designs: 16001 rows" "$tmp/err" && ok ||
	bad "16001 designs: $(cat "$tmp/err")"
grow "$tmp/fns" 2 20000 0 d
for cmd in report compare plot; do
	bounded 60 2 "$pcpbench" $cmd "$tmp/fns" $([ $cmd = compare ] && echo "$tmp/fns")
	grep -q "fns/result.json: result.functions: 20000 rows of design \"d0\"" "$tmp/err" && ok ||
		bad "$cmd, 20000 functions: $(cat "$tmp/err")"
done
[ ! -e "$tmp/fns/plots" ] && ok || bad "plot wrote into a refused result"

# plot's CSV tables at their row limit (100,000): a compare's and a per-node run's
python3 - "$tmp" <<'EOF'
import sys
t = sys.argv[1]
with open(t + "/cmp.csv", "w") as f:
    f.write("design,config,function,result,label,avg_cycles,stddev,runs,diff_cycles,"
            "diff_pct,significant,test,ci_level,ci_low_pct,ci_high_pct\n")
    for i in range(50000):
        f.write("local_lock,,fn%d,0,A,3.0,0.1,6,,,,,,,\n" % i)
        f.write("local_lock,,fn%d,1,B,3.3,0.1,6,0.3,10.0,1,welch,0.95,5.1,15.2\n" % i)
import os
os.makedirs(t + "/nodes", exist_ok=True)
with open(t + "/nodes/nodes.csv", "w") as f:
    f.write("node,design,config,function,timing,avg_cycles,stddev,calls\n")
    for fn in range(64):
        for d in range(195):
            for n in range(8):
                f.write("%d,d%d,,fn%d,call,%d.5,0.1,1000\n" % (n, d, fn, n + d))
EOF
bounded 60 0 "${fakeplot[@]}" --compare "$tmp/cmp.csv" --out "$tmp/cmp-plot"
grep -c . "$tmp/cmp-plot/cmp.dat" | grep -qx 50001 && ok || bad "the compare figure lacks rows"
bounded 60 0 "${fakeplot[@]}" "$tmp/nodes"
[ -s "$tmp/nodes/plots/heatmap-fn63.dat" ] && ok || bad "no heat map of fn63"
# a heat map with more cells than the table has rows is no per-node run's
python3 -c 'import sys
f = open(sys.argv[1] + "/sparse/nodes.csv", "w")
f.write("node,design,config,function,timing,avg_cycles,stddev,calls\n")
for i in range(2000): f.write("%d,d%d,,fn,call,1.0,0.1,10\n" % (i, i))' "$(mkdir -p "$tmp/sparse"; echo "$tmp")"
bounded 60 2 "${fakeplot[@]}" "$tmp/sparse"
grep -q "nodes.csv: 2000 x 2000 nodes by designs: more cells than the table has rows" "$tmp/err" &&
	ok || bad "a sparse heat map: $(cat "$tmp/err")"

# SIGTERM and SIGINT sent while gnuplot draws (reading the 4000 designs
# first takes seconds under ASan) end plot well before gnuplot's 30 s figure
# would, and leave no temporary directory; SIGINT ends
# compare on the widest input as it would any command (bash's background jobs
# ignore SIGINT: python sends it)
for sig in TERM INT; do
	python3 - "$sig" "$tmp" "$pcpbench" <<'EOF' && ok || bad "plot on SIG$sig"
import os, signal, subprocess, sys, time
sig, t, pcpbench = getattr(signal, "SIG" + sys.argv[1]), sys.argv[2], sys.argv[3]
started = t + "/gnuplot-started"
if os.path.exists(started):
    os.unlink(started)
env = dict(os.environ, PATH=t + "/fakebin:" + os.environ["PATH"], FAKE_GNUPLOT_SLEEP="30",
           FAKE_GNUPLOT_STARTED=started)
p = subprocess.Popen([pcpbench, "plot", t + "/wide"], env=env, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL, start_new_session=True)
until = time.monotonic() + 60
while not os.path.exists(started) and p.poll() is None and time.monotonic() < until:
    time.sleep(0.05)
if not os.path.exists(started):
    p.kill()
    sys.exit("plot ended (rc %d) before gnuplot started, or 60 s passed" % p.wait())
at = time.monotonic()
p.send_signal(sig)
rc = p.wait(timeout=10)
took = time.monotonic() - at
left = [n for n in os.listdir(t + "/wide") if n.startswith(".plots")]
try:
    os.killpg(p.pid, signal.SIGKILL)
except ProcessLookupError:
    pass
sys.exit(0 if rc == 130 and took < 10 and not left else
         "rc %d after %.2fs, left %s" % (rc, took, left))
EOF
done
python3 - "$tmp" "$pcpbench" <<'EOF' && ok || bad "compare on SIGINT"
import signal, subprocess, sys, time
t, pcpbench = sys.argv[1], sys.argv[2]
p = subprocess.Popen([pcpbench, "compare", t + "/wide", t + "/wide", t + "/wide"],
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
time.sleep(0.5)
at = time.monotonic()
p.send_signal(signal.SIGINT)
rc = p.wait(timeout=10)
sys.exit(0 if time.monotonic() - at < 10 and rc != 0 else "rc %d" % rc)
EOF

# labels of hostile bytes: escaped on a terminal, blanks or quoted in gnuplot's data
grow "$tmp/odd" 2 2 0 $'#\e]0;title\a\r\xc2\x9b"'
for f in text email markdown; do
	bounded 60 0 "$pcpbench" report --format "$f" "$tmp/odd"
	raw_controls "$tmp/out" && bad "report --format $f printed a control character raw" || ok
done
for f in text csv markdown email; do
	bounded 60 0 "$pcpbench" compare --format "$f" "$tmp/odd" "$tmp/odd"
	raw_controls "$tmp/out" && bad "compare --format $f printed a control character raw" || ok
done
bounded 60 0 "${fakeplot[@]}" "$tmp/odd"
raw_controls "$tmp/odd/plots/functions.dat" "$tmp/odd/plots/index.html" &&
	bad "a control character raw in plot's files" || ok
# a label that starts with '#' is a quoted field, not one of gnuplot's comments
grep -q "^\"# ]0;title   'fn0\"	" "$tmp/odd/plots/functions.dat" && ok ||
	bad "the '#' labels are not quoted: $(cat -A "$tmp/odd/plots/functions.dat" | head -3)"

summary bounded
