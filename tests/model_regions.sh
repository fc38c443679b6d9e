#!/bin/bash
# tests/model_regions.py: on its fixture (tests/fixtures/model_regions/),
# built here with -O2 -g, the region timed with the kernel's
# rdtsc_ordered() alone, whose count the compiler keeps in a register
# across the loop, fails naming the store below the end read, and the
# region with pcb/clock.h's barriers passes; on the pcpbench built for
# figures, every timed region of every model holds its calls' loads,
# stores and calls (the kernel backend's pcpbench.ko is checked by the
# kmod test, which builds it).
#
# usage: model_regions.sh PCPBENCH SOURCE_ROOT CC
set -u
. "$(dirname "$0")/lib.sh"
pcpbench=$1
src=$(realpath "$2")
cc=$3
check() { python3 "$src/tests/model_regions.py" "$@"; }

fx=$src/tests/fixtures/model_regions
if "$cc" -O2 -g -c "$fx/cross.c" -o "$tmp/cross.o" 2>"$tmp/cc.err"; then
	expect_rc 1 check --model model --verbose "$tmp/cross.o"
	grep -q '(model_count, .*/model/stock.h:[0-9]*) outside the reads of its region at .*/cross.c:[0-9]*-[0-9]* (hoisted)' \
		"$tmp/out" && ok || bad "hoisted: not named: $(cat "$tmp/out")"
	grep -q 'outside.*(kept)' "$tmp/out" && bad "kept: named: $(cat "$tmp/out")" || ok
	grep -q 'cross.c:[0-9]*-[0-9]* (kept): 1 accesses' "$tmp/out" && ok ||
		bad "kept: its access not found inside: $(cat "$tmp/out")"
	# the same object read as a listing
	objdump -dlr --inlines --no-show-raw-insn "$tmp/cross.o" >"$tmp/cross.txt"
	expect_rc 1 check --model model "$tmp/cross.txt"
else
	bad "the fixture does not build: $(cat "$tmp/cc.err")"
fi

# no timer read, or no region holding the model: nothing checked, a failure
"$cc" -O2 -c "$fx/cross.c" -o "$tmp/nodebug.o" 2>/dev/null
expect_rc 2 check --model model "$tmp/nodebug.o"
grep -q 'no timer read' "$tmp/out" && ok || bad "no -g: $(cat "$tmp/out")"
expect_rc 2 check --model nowhere "$tmp/cross.o"
grep -q 'no region with an access of the model' "$tmp/out" && ok || bad "--model nowhere: $(cat "$tmp/out")"
expect_rc 2 check

expect_rc 0 check "$pcpbench"
grep -q ': ok (' "$tmp/out" && ok || bad "pcpbench: $(cat "$tmp/out")"
cat "$tmp/out"
summary model-regions
