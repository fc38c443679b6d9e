#!/bin/bash
# The man pages against the program, so that they cannot drift from it:
# pcpbench-scenario(5) lists exactly the keys `pcpbench list` prints, each
# under its model (or the harness's), with the same range and default, and
# a type its range fits; pcpbench(1) names every command, every option each
# command's --help prints, and every PCPBENCH_ variable the program reads.
# The sources are checked, so this runs with or without scdoc.
set -u
pcpbench=$(realpath "$1")
src=$2
. "$src/tests/lib.sh"
cd "$src" || exit 1

man5=docs/man/pcpbench-scenario.5.scd
man1=docs/man/pcpbench.1.scd

expect_rc 0 "$pcpbench" list
cp "$tmp/out" "$tmp/list"

# "OWNER KEY [ACCEPTS] (DEFAULT)" lines from each side, then the two compared
python3 - "$tmp/list" "$man5" "$tmp/from-list" "$tmp/from-man" "$tmp/types" <<'PY'
import re, sys
listing, man, out_list, out_man, out_types = sys.argv[1:6]

# pcpbench list: "harness keys (default):", then "model NAME: ..." blocks
# with "  keys (default):"; a key line is "    KEY  HELP [ACCEPTS] (DEFAULT)"
rows, owner, in_keys = [], None, False
for line in open(listing).read().split('\n'):
    if line.startswith('harness keys'):
        owner, in_keys = 'harness', True
        continue
    m = re.match(r'model (\w+):', line)
    if m:
        owner, in_keys = m.group(1), False
        continue
    if line.strip() == 'keys (default):':
        in_keys = True
        continue
    if not line.strip() or not line.startswith('    '):
        in_keys = in_keys and line.startswith('    ')
        continue
    if not in_keys:
        continue
    m = re.match(r'^    ([a-z_]+\.[a-z_]+) +(.*) \(([^()]*)\)$', line)
    if not m:
        sys.exit('list: cannot read %r' % line)
    key, rest, default = m.groups()
    r = re.match(r'^(.*) \[([^][]*)\]$', rest)
    rows.append('%s %s [%s] (%s)' % (owner, key, r.group(2) if r else '', default))
open(out_list, 'w').write('\n'.join(sorted(rows)) + '\n')

# the man page: "# HARNESS KEYS", "# MEMCG MODEL KEYS", "# PCP MODEL KEYS",
# each key "*KEY* _TYPE_ [ACCEPTS] (DEFAULT)" on a line of its own
owners = {'HARNESS KEYS': 'harness'}
rows, types, owner = [], [], None
for n, line in enumerate(open(man).read().split('\n'), 1):
    m = re.match(r'^# (.*)$', line)
    if m:
        h = m.group(1)
        owner = owners.get(h) or (h.split()[0].lower() if h.endswith(' MODEL KEYS') else None)
        continue
    if owner is None or not line.startswith('*'):
        continue
    m = re.match(r'^\*([a-z_]+\.[a-z_]+)\* _([A-Za-z ]+)_(?: \[([^][]*)\])? \(([^()]*)\)$', line)
    if not m:
        sys.exit('%s:%d: not a key line: %r' % (man, n, line))
    key, typ, accepts, default = m.groups()
    accepts = accepts or ''
    rows.append('%s %s [%s] (%s)' % (owner, key, accepts, default))
    numeric = re.fullmatch(r'-?[0-9.]+\.\.-?[0-9.]+', accepts) is not None
    fits = {'integer': numeric, 'number': numeric,
            'choice': ',' in accepts and not numeric}.get(typ, accepts == '')
    if not fits:
        types.append('%s:%d: %s is _%s_ with [%s]' % (man, n, key, typ, accepts))
open(out_man, 'w').write('\n'.join(sorted(rows)) + '\n')
open(out_types, 'w').write(''.join(t + '\n' for t in types))
PY
[ $? -eq 0 ] && ok || bad "the key lists could not be read"

# a key missing from either side, or with another range or default
if diff -u "$tmp/from-list" "$tmp/from-man" >"$tmp/diff"; then
	ok
else
	bad "$man5 and pcpbench list differ (- list, + man page):
$(grep '^[-+][a-z]' "$tmp/diff")"
fi
[ "$(wc -l <"$tmp/from-list")" -gt 40 ] && ok || bad "pcpbench list gave few keys"
[ ! -s "$tmp/types" ] && ok || bad "types their ranges do not fit: $(cat "$tmp/types")"

# pcpbench(1): every command, every option of its --help, every variable
for cmd in $("$pcpbench" --help | sed -n 's/^  \([a-z]\+\) .*/\1/p' | sort -u); do
	grep -q "^## $cmd\b" "$man1" && ok || bad "$man1 has no section for $cmd"
	for opt in $("$pcpbench" "$cmd" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
		grep -q -- "\*$opt\*" "$man1" && ok || bad "$man1 lacks $cmd's $opt"
	done
done
for opt in $("$pcpbench" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
	grep -q -- "\*$opt\*" "$man1" && ok || bad "$man1 lacks $opt"
done
# each --format's choices, as the section of its command lists them, are
# the formats its --help lists (format/formats.def), in that order
for cmd in report compare; do
	have=$("$pcpbench" "$cmd" --help | sed -n '/^formats:$/,$s/^  \([a-z]\+\) .*/\1/p' | paste -sd'|')
	doc=$(sed -n "/^## $cmd\b/,/^## /s/^\*--format\* _\(.*\)_\$/\1/p" "$man1" | sed 's/_|_/|/g')
	[ -n "$have" ] && [ "$have" = "$doc" ] && ok ||
		bad "$man1: $cmd --format lists '$doc', $cmd --help '$have'"
done
for var in $(grep -rhoE 'PCPBENCH_[A-Z_]+' harness | grep -v '_$' | sort -u); do
	grep -q "^\*$var\*" "$man1" && ok || bad "$man1 does not describe $var"
done

summary manpage
