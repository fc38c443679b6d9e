#!/bin/bash
# The README's counts come from the registry: for every model `pcpbench
# list` prints, the README says how many designs it is measured under,
# in words, beside the kernel file it models ("`mm/memcontrol.c` under
# ten"), and that count is the number of designs the model lists.
set -u
pcpbench=$(realpath "$1")
src=$2
. "$(dirname "$0")/../lib.sh"

expect_rc 0 "$pcpbench" list
python3 - "$tmp/out" "$src/README.md" <<'PY' && ok || bad "the README's design counts"
import re, sys
words = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
         "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
         "eighteen", "nineteen", "twenty"]
listing = open(sys.argv[1]).read().splitlines()
readme = " ".join(open(sys.argv[2]).read().split())
models, model, part = {}, None, None
for l in listing:
    m = re.match(r"^model (\w+): .*\((mm/[\w./]+)\)$", l)
    if m:
        model = m.group(1)
        models[model] = {"file": m.group(2), "designs": 0}
        continue
    m = re.match(r"^  (\w+):", l)
    if m:
        part = m.group(1)
    elif model and part == "designs" and re.match(r"^    \w", l):
        models[model]["designs"] += 1
if len(models) < 2:
    sys.exit("pcpbench list names %d models" % len(models))
bad = 0
for name, m in models.items():
    said = re.search(r"`%s` under (\w+)" % re.escape(m["file"]), readme)
    if not said or said.group(1) not in words:
        print("README: no count of %s's designs beside `%s`" % (name, m["file"]), file=sys.stderr)
        bad += 1
    elif words.index(said.group(1)) != m["designs"]:
        print("README: %s under %s designs, pcpbench list: %d" % (
            name, said.group(1), m["designs"]), file=sys.stderr)
        bad += 1
sys.exit(1 if bad else 0)
PY

summary readme
