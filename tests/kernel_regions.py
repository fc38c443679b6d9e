#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The instrument's regions in the built code: nothing of a timed function
outside its two rdtsc_ordered() reads.

usage: kernel_regions.py [--calls] OBJECT|LISTING ...

Each argument is an object file (a kernel build's mm/memcontrol.o, which
objdump -dr disassembles) or a listing objdump wrote of one (a name ending
in .txt). For each function rig/instrument/ times (consume_stock,
refill_stock, mod_objcg_state, consume_obj_stock, refill_obj_stock,
drain_all_stock) the function's control flow is followed from its entry:

  - the start read is the first rdtsc on every path from the entry, and
    what comes before it is the prologue: pushes, register moves, stack
    adjustments, no load or store but the stack's, no call;
  - an end read is an rdtsc followed, before any branch, by the
    instrument's this_cpu_add() and this_cpu_inc() of its sums (an add and
    an incq on %gs:); every path from the start read reaches one before
    any return;
  - after an end read comes the epilogue: those two, the arithmetic that
    joins the read's halves and takes the start from it, pops, register
    moves, stack reloads and the return, nothing else.

So every load, store and call of the function's own body lies between the
reads. With --calls, each function's calls inside its region are printed
(the 1-4 kernel's consume_stock() calls _raw_spin_lock_irqsave()).

Prints FUNCTION: ok (with the counts of instructions before, inside and
after) or each violation, and exits 1 if there was one.
"""
import re
import subprocess
import sys

FUNCTIONS = ('consume_stock', 'refill_stock', 'mod_objcg_state', 'consume_obj_stock',
             'refill_obj_stock', 'drain_all_stock')

HEAD = re.compile(r'^([0-9a-f]+) <([^>]+)>:$')
INSN = re.compile(r'^\s+([0-9a-f]+):\s+(\S+)\s*(.*)$')
RELOC = re.compile(r'^\s+([0-9a-f]+):\s+(R_X86_64_\S+)\s+(\S+)')

# a stack slot, read or written: what a prologue and an epilogue may touch
STACK = re.compile(r'\((%rsp|%rbp)\)|^[^(]*$')
# a register-only operand list (no memory operand at all)
NO_MEMORY = re.compile(r'^[^(]*$')
RETURN_THUNK = ('__x86_return_thunk', '__x86_indirect_thunk')


def listing(path):
    if path.endswith('.txt'):
        with open(path, errors='replace') as f:
            return f.read()
    return subprocess.run(['objdump', '-dr', '--no-show-raw-insn', path], check=True,
                          capture_output=True, text=True).stdout


def functions(text):
    """{name: [insn]} where insn is [addr, mnemonic, operands, [relocation symbols]]"""
    out, cur = {}, None
    for line in text.splitlines():
        m = HEAD.match(line)
        if m:
            cur = out.setdefault(m.group(2), [])
            continue
        if cur is None:
            continue
        m = RELOC.match(line)
        if m and cur:
            cur[-1][3].append(m.group(3))
            continue
        m = INSN.match(line)
        if m:
            ops = re.sub(r'\s*#.*$', '', m.group(3)).strip()
            cur.append([int(m.group(1), 16), m.group(2), ops, []])
        elif not line.strip():
            cur = None
    return out


def target(insn):
    m = re.match(r'^([0-9a-f]+)\b', insn[2])
    return int(m.group(1), 16) if m else None


def is_return(insn):
    mn = insn[1]
    if mn.startswith('ret'):
        return True
    return mn.startswith('jmp') and any(s.startswith(RETURN_THUNK) for s in insn[3])


def successors(code, i, at):
    insn = code[i]
    mn = insn[1]
    if is_return(insn) or mn in ('int3', 'ud2') or mn.startswith('jmp') and '*' in insn[2]:
        return []
    nxt = [i + 1] if i + 1 < len(code) else []
    if mn.startswith('j'):
        t = target(insn)
        tgt = [at[t]] if t in at else []
        return tgt if mn.startswith('jmp') else nxt + tgt
    return nxt


def is_read(insn):
    return insn[1] in ('rdtsc', 'rdtscp')


def is_end_read(code, i):
    """an rdtsc whose straight-line code adds to a %gs: sum and increments one"""
    add = inc = False
    for insn in code[i + 1:i + 12]:
        if insn[1].startswith('j') or insn[1].startswith('call') or is_read(insn):
            break
        add |= insn[1].startswith('add') and '%gs:' in insn[2] and insn[2].startswith('%')
        inc |= insn[1].startswith('inc') and '%gs:' in insn[2]
        if add and inc:
            return True
    return False


def walk(code, at, starts, stop):
    """instruction indices reachable from starts, not entering those stop() says"""
    seen, todo, hit = set(), list(starts), set()
    while todo:
        i = todo.pop()
        if i in seen:
            continue
        if stop(i):
            hit.add(i)
            continue
        seen.add(i)
        todo.extend(successors(code, i, at))
    return seen, hit


def allowed_before(insn):
    """a prologue's: pushes, an argument's register moved or spilled to the stack"""
    mn, ops = insn[1], insn[2]
    if mn.startswith(('push', 'nop', 'endbr', 'xchg')) and NO_MEMORY.match(ops):
        return True
    if mn.startswith('mov') and ops.startswith('%') and not insn[3] and \
            (NO_MEMORY.match(ops) or re.search(r',\s*-?(0x[0-9a-f]+)?\(%rsp\)$', ops)):
        return True
    return mn.startswith(('sub', 'add')) and ops.endswith('%rsp') and ops.startswith('$')


def allowed_after(insn):
    mn, ops = insn[1], insn[2]
    if is_return(insn) or mn.startswith(('pop', 'nop', 'leave', 'int3', 'xchg')):
        return True
    # the sums: this_cpu_add() and this_cpu_inc() on %gs:, the read's halves joined
    if '%gs:' in ops and mn.startswith(('add', 'inc')):
        return True
    if mn.startswith(('shl', 'or', 'sub', 'mov', 'lea')) and STACK.search(ops) and not insn[3]:
        return mn.startswith('mov') or NO_MEMORY.match(ops) is not None
    return mn.startswith('add') and ops.endswith('%rsp') and ops.startswith('$')


def show(insn):
    rel = (' <' + ', '.join(insn[3]) + '>') if insn[3] else ''
    return '%x: %s %s%s' % (insn[0], insn[1], insn[2], rel)


def check(name, code, want_calls):
    """the function's violations, and the calls inside its region"""
    at = {insn[0]: i for i, insn in enumerate(code)}
    bad = []
    before, starts = walk(code, at, [0], lambda i: is_read(code[i]))
    if not starts:
        return ['no rdtsc on any path from the entry'], []
    for i in before:
        if is_return(code[i]):
            bad.append('a path returns before the start read: ' + show(code[i]))
        elif not allowed_before(code[i]):
            bad.append('before the start read: ' + show(code[i]))
    first = [j for i in starts for j in successors(code, i, at)]
    inside, ends = walk(code, at, first, lambda i: is_read(code[i]) and is_end_read(code, i))
    if not ends:
        bad.append('no end read (an rdtsc then the sums\' add and inc on %gs:)')
    for i in inside:
        if is_return(code[i]) or code[i][1] in ('int3', 'ud2'):
            bad.append('a path returns between the reads without the end read: ' +
                       show(code[i]))
        if i in starts:
            bad.append('the start read is reached again inside the region: ' + show(code[i]))
    after, again = walk(code, at, [j for i in ends for j in successors(code, i, at)],
                        lambda i: is_read(code[i]))
    for i in after:
        if not allowed_after(code[i]):
            bad.append('after the end read: ' + show(code[i]))
    for i in again:
        bad.append('a read after the end read: ' + show(code[i]))
    calls = sorted({s.split('-')[0].split('+')[0] for i in inside
                    if code[i][1].startswith('call') for s in code[i][3]})
    stats = (len(before), len(inside), len(after))
    return bad, (calls, stats)


def main():
    args = sys.argv[1:]
    want_calls = '--calls' in args
    args = [a for a in args if a != '--calls']
    if not args:
        print(__doc__.split('\n\n')[1], file=sys.stderr)
        return 2
    failed = 0
    for path in args:
        funcs = functions(listing(path))
        for name in FUNCTIONS:
            if name not in funcs:
                print('%s: %s: not in it (an instrumented build keeps it out of line)' %
                      (path, name))
                failed = 1
                continue
            bad, info = check(name, funcs[name], want_calls)
            if bad:
                failed = 1
                for b in bad:
                    print('%s: %s: %s' % (path, name, b))
                continue
            calls, (nb, ni, na) = info
            print('%s: %s: ok (%d instructions before the start read, %d inside, %d after)%s'
                  % (path, name, nb, ni, na,
                     ('; calls inside: ' + (', '.join(calls) or 'none')) if want_calls else ''))
    return failed


if __name__ == '__main__':
    sys.exit(main())
