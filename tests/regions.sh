#!/bin/bash
# tests/kernel_regions.py on its fixtures (tests/fixtures/regions/): the
# six timed functions of an instrumented 6.1 memcontrol.o pass, and with a
# WARN's ud2 between the reads; a load hoisted above the start read, a
# store sunk below the end read (through %rax, or %rbp, a register like
# any other), a per-CPU statistic of the body's below it, a return or a
# tail jump between the reads and a region with no update of the sums
# each fail, naming the instruction.
#
# usage: regions.sh SOURCE_ROOT
set -u
. "$(dirname "$0")/lib.sh"
src=$(realpath "$1")
fx=$src/tests/fixtures/regions
check() { python3 "$src/tests/kernel_regions.py" "$@"; }

for f in good.txt good-warn.txt; do
	expect_rc 0 check "$fx/$f"
	[ "$(grep -c ': ok (' "$tmp/out")" = 6 ] && ok || bad "$f: $(cat "$tmp/out")"
done
while read -r f want; do
	expect_rc 1 check "$fx/$f"
	grep -q "consume_stock: $want" "$tmp/out" && ok || bad "$f: no '$want': $(cat "$tmp/out")"
	[ "$(grep -c ': ok (' "$tmp/out")" = 5 ] && ok || bad "$f: the other five: $(cat "$tmp/out")"
done <<'LIST'
bad-load-before.txt before the start read: 1ff0: mov 0x8(%rdi),%ecx
bad-store-after.txt after the end read: 1ff1: mov %ecx,0x8(%rax)
bad-return.txt a path returns between the reads without the end read: 1ff2: ret
bad-no-end.txt no end read
bad-rbp-after.txt after the end read: 1ff3: mov %ecx,0x8(%rbp)
bad-gs-after.txt after the end read: 1ff4: incq %gs:0x0(%rip) <vm_event_states+0x4>
bad-tail-jump.txt a path leaves the function between the reads (its code is not checked): 1ff5: jmp
LIST
expect_rc 2 check
summary regions
