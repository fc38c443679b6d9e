#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The instrument's regions in the built code: nothing of a timed function
outside its two rdtsc_ordered() reads.

usage: kernel_regions.py [--calls] OBJECT|LISTING ...

Each argument is an object file (a kernel build's mm/memcontrol.o, which
objdump -dr disassembles) or a listing objdump wrote of one (a name ending
in .txt). For each function rig/instrument/ times (consume_stock,
refill_stock, mod_objcg_state, consume_obj_stock, refill_obj_stock,
drain_all_stock; on 7.3 the last three object rows are the pieces
pcb_account_obj_stock, pcb_consume_obj_stock and pcb_refill_obj_stock)
the function's control flow is followed from its entry:

  - the start read is the first rdtsc on every path from the entry, and
    what comes before it is the prologue: ftrace's entry, pushes, register
    moves, an argument spilled to the stack, stack adjustments, no other
    load, store or call;
  - an end read is an rdtsc followed, before any branch, by the
    instrument's this_cpu_add() and this_cpu_inc() of its sums (an add and
    an incq on %gs:); every path from the start read reaches one before
    any return (a ud2 is a WARN's, past which the path goes on);
  - after an end read comes the epilogue: those two, the arithmetic that
    joins the read's halves and takes the start from it, pops, register
    moves, stack (%rsp) reloads and the return, nothing else;
  - no path leaves the function but by its return: a jump whose target is
    a relocation (a tail call, a part split off into .cold) is reported,
    its code not being checked.

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
# 7.3's object rows are the pieces of the slab hooks' hold of obj_stock,
# each an out-of-line function of rig/instrument/7.3's (7.3's own
# consume_obj_stock() and refill_obj_stock() are obj_cgroup_charge()'s,
# untimed): where a listing has the piece, the row is it
PIECES = {'mod_objcg_state': 'pcb_account_obj_stock',
          'consume_obj_stock': 'pcb_consume_obj_stock',
          'refill_obj_stock': 'pcb_refill_obj_stock'}

HEAD = re.compile(r'^([0-9a-f]+) <([^>]+)>:$')
INSN = re.compile(r'^\s+([0-9a-f]+):\s+(\S+)\s*(.*)$')
RELOC = re.compile(r'^\s+([0-9a-f]+):\s+(R_X86_64_\S+)\s+(\S+)')

# operands whose memory, if any, is a stack slot: what a prologue and an
# epilogue may touch. %rsp alone: without frame pointers (ORC), %rbp is a
# register like any other, one a body may keep a pointer in
STACK = re.compile(r'\(%rsp\)|^[^(]*$')
# a register-only operand list (no memory operand at all)
NO_MEMORY = re.compile(r'^[^(]*$')
RETURN_THUNK = ('__x86_return_thunk', '__x86_indirect_thunk')
# ftrace's call at a function's entry (patched to a nop where no tracer runs)
FENTRY = '__fentry__'


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


def leaves(insn):
    """a jump out of the function: a tail call, or into a part the compiler
    split off (.cold), whose target is a relocation, or an indirect jump"""
    return insn[1].startswith('j') and not is_return(insn) and (insn[3] or '*' in insn[2])


def successors(code, i, at):
    insn = code[i]
    mn = insn[1]
    if is_return(insn) or mn == 'int3' or leaves(insn):
        return []
    # ud2 is BUG()'s and WARN()'s: after a WARN the function goes on
    nxt = [i + 1] if i + 1 < len(code) else []
    if mn.startswith('j'):
        t = target(insn)
        tgt = [at[t]] if t in at else []
        return tgt if mn.startswith('jmp') else nxt + tgt
    return nxt


def is_read(insn):
    return insn[1] in ('rdtsc', 'rdtscp')


def sums_after(code, i):
    """the indices of the sums' this_cpu_add() and this_cpu_inc() that follow
    the rdtsc at i in straight-line code, an add and an incq on %gs:, or
    None where they do not: the rdtsc is then not an end read"""
    add = inc = None
    for j in range(i + 1, min(i + 12, len(code))):
        insn = code[j]
        if insn[1].startswith('j') or insn[1].startswith('call') or is_read(insn):
            break
        if add is None and insn[1].startswith('add') and '%gs:' in insn[2] and \
                insn[2].startswith('%'):
            add = j
        if inc is None and insn[1].startswith('inc') and '%gs:' in insn[2]:
            inc = j
        if add is not None and inc is not None:
            return {add, inc}
    return None


def is_end_read(code, i):
    return sums_after(code, i) is not None


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
    """a prologue's: ftrace's entry, pushes, an argument's register moved or
    spilled to the stack"""
    mn, ops = insn[1], insn[2]
    if mn.startswith('call') and any(r.startswith(FENTRY) for r in insn[3]):
        return True
    if mn.startswith(('push', 'nop', 'endbr', 'xchg')) and \
            (NO_MEMORY.match(ops) or mn.startswith('nop')):
        return True
    if mn.startswith('mov') and ops.startswith('%') and not insn[3] and \
            (NO_MEMORY.match(ops) or re.search(r',\s*-?(0x[0-9a-f]+)?\(%rsp\)$', ops)):
        return True
    return mn.startswith(('sub', 'add')) and ops.endswith('%rsp') and ops.startswith('$')


def allowed_after(insn, i, sums):
    """an epilogue's: the sums' add and inc, the read's halves joined and the
    start taken from them, pops, register moves, stack reloads, the return"""
    mn, ops = insn[1], insn[2]
    if i in sums:
        return True
    if is_return(insn) or mn.startswith(('pop', 'leave', 'int3', 'xchg')) or \
            mn.startswith('nop'):
        return NO_MEMORY.match(ops) is not None or mn.startswith('nop')
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
        elif leaves(code[i]):
            bad.append('a path leaves the function before the start read: ' + show(code[i]))
        elif not allowed_before(code[i]):
            bad.append('before the start read: ' + show(code[i]))
    first = [j for i in starts for j in successors(code, i, at)]
    inside, ends = walk(code, at, first, lambda i: is_read(code[i]) and is_end_read(code, i))
    if not ends:
        bad.append('no end read (an rdtsc then the sums\' add and inc on %gs:)')
    for i in inside:
        if is_return(code[i]) or code[i][1] == 'int3':
            bad.append('a path returns between the reads without the end read: ' +
                       show(code[i]))
        elif leaves(code[i]):
            bad.append('a path leaves the function between the reads (its code is not '
                       'checked): ' + show(code[i]))
        if i in starts:
            bad.append('the start read is reached again inside the region: ' + show(code[i]))
    after, again = walk(code, at, [j for i in ends for j in successors(code, i, at)],
                        lambda i: is_read(code[i]))
    sums = set().union(*(sums_after(code, i) for i in ends)) if ends else set()
    for i in after:
        if leaves(code[i]):
            bad.append('a path leaves the function after the end read: ' + show(code[i]))
        elif not allowed_after(code[i], i, sums):
            bad.append('after the end read: ' + show(code[i]))
    for i in again:
        bad.append('a read after the end read: ' + show(code[i]))
    # a call's relocation names its callee; a call within the object file
    # (a static function the compiler kept out of line) has none, its
    # operand names it: "4b0 <trylock_stock>"
    calls = sorted({s.split('-')[0].split('+')[0] for i in inside
                    if code[i][1].startswith('call')
                    for s in (code[i][3] or re.findall(r'<([^>+]+)', code[i][2]))})
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
        for row in FUNCTIONS:
            sym = PIECES.get(row)
            name = '%s (%s)' % (row, sym) if sym in funcs else row
            sym = sym if sym in funcs else row
            if sym not in funcs:
                print('%s: %s: not in it (an instrumented build keeps it out of line)' %
                      (path, name))
                failed = 1
                continue
            bad, info = check(sym, funcs[sym], want_calls)
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
