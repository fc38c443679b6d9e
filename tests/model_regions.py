#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""pcpbench's own timed regions in the built code: no load, store or call
of the model outside the two timer reads that time it.

usage: model_regions.py [--model DIR] [--verbose] OBJECT|LISTING ...

Each argument is a built object, executable or module (build/pcpbench,
pcpbench.ko, one of its objects), built with -g, which objdump -dlr
--inlines disassembles with each instruction's inline chain, or a listing
objdump wrote of one that way (a name ending in .txt).

A timer read is an rdtsc or rdtscp inlined from pcb_tsc_start() or
pcb_tsc_end() (pcb/clock.h, either backend's). A region's site is where
its pcb_tsc_start() is called (PCB_TIMED()'s line, a batch loop's first
line) and spans the lines to where its pcb_tsc_end() is: the lines of one
inlined instance of one function. The control flow is followed from each
start read, through parts split off into .cold and regions nested in it,
to the end reads it reaches; what it passes is inside the region, and so
is an rseq critical section's abort path (entered by the kernel, from its
own section) that comes back into the region.

The model's accesses are the instructions with a memory operand (not
lea, a nop, a stack slot, a register spilled, or a slot of a linked
program's global offset table, a symbol's address) and the calls whose
inline chain passes through a region's lines into a function of the
model (a file under DIR/, kernels/ unless --model says otherwise): the
timed call's own body. Each must be inside
one of that site's regions: one outside was moved across a timer read by
the compiler, and the figure times less than the function. A call made
at the region's line itself, not inlined from a function, is not told
apart from the harness's own and is not checked.

Prints OBJECT: ok with the counts, or each access outside its region,
and exits 1 if there was one; exits 2 where the object has no timer read
or no region with a model access (built without -g?), so that the check
cannot pass on nothing.
"""
import os
import re
import subprocess
import sys

# the checker shares kernel_regions.py's parsing; no bytecode left in the source tree
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kernel_regions import HEAD, INSN, RELOC, show  # noqa: E402

SECTION = re.compile(r'^Disassembly of section (\S+):$')
FUNC = re.compile(r'^(\S+)\(\):$')
LOCATION = re.compile(r'^(\S+):(\d+)(?: \(discriminator \d+\))?$')
INLINED = re.compile(r'^inlined by (\S+):(\d+)(?: \(discriminator \d+\))? \((\S+)\)$')
# a relocated jump's target: a symbol or section, plus or minus an addend
RELOC_TARGET = re.compile(r'^([^+-]+)([+-]0x[0-9a-f]+)?$')
READS = {'pcb_tsc_start': 'start', 'pcb_tsc_end': 'end'}
# the section of rseq critical sections' abort handlers (kernels/locks/rseq.h)
RSEQ_ABORTS = '__rseq_failure'
NO_ACCESS = ('lea', 'nop', 'endbr', 'prefetch')
STACK_SLOT = re.compile(r'\(%rsp\)')
# a nop behind prefixes (data16 cs nopw): padding
PADDING = re.compile(r'\bnop')
COMMENT_ADDR = re.compile(r'#\s*([0-9a-f]+)\b')
# the sections of a linked program's global offset table
GOT = ('.got', '.got.plt')


def listing(path):
    if path.endswith('.txt'):
        with open(path, errors='replace') as f:
            return f.read()
    return subprocess.run(['objdump', '-dlr', '--inlines', '--no-show-raw-insn', path],
                          check=True, capture_output=True, text=True).stdout


class Insn:
    __slots__ = ('key', 'mn', 'ops', 'relocs', 'frames', 'next', 'addr')

    def __init__(self, key, mn, ops, frames, addr):
        self.key, self.mn, self.ops, self.relocs, self.frames = key, mn, ops, [], frames
        self.next, self.addr = None, addr


def parse(text):
    """the instructions in order, and {symbol or section: (section, address)}; an
    instruction's frames are (function, file, line) from the innermost out"""
    code, symbols = [], {}
    section, func, loc, inlined = None, None, (None, 0), []
    for line in text.splitlines():
        m = SECTION.match(line)
        if m:
            section = m.group(1)
            symbols[section] = (section, 0)
            continue
        m = HEAD.match(line)
        if m:
            symbols[m.group(2)] = (section, int(m.group(1), 16))
            continue
        m = RELOC.match(line)
        if m and code:
            code[-1].relocs.append(m.group(3))
            continue
        m = INSN.match(line)
        if m and section:
            ops = re.sub(r'\s*#.*$', '', m.group(3)).strip()
            frames = [(func, loc[0], loc[1])] + inlined
            # a %rip-relative operand's address, as objdump's comment gives it
            a = COMMENT_ADDR.search(m.group(3))
            code.append(Insn((section, int(m.group(1), 16)), m.group(2), ops, frames,
                             int(a.group(1), 16) if a else None))
            inlined = []
            continue
        m = INLINED.match(line)
        if m:
            inlined.append((m.group(3), m.group(1), int(m.group(2))))
            continue
        m = FUNC.match(line)
        if m:
            func = m.group(1)
            continue
        m = LOCATION.match(line)
        if m:
            loc = (m.group(1), int(m.group(2)))
    return code, symbols


def index(code):
    """{(section, address) or, where sections do not overlap, address: index}"""
    at = {insn.key: i for i, insn in enumerate(code)}
    addrs = {insn.key[1] for insn in code}
    if len(addrs) == len(code):
        at.update({insn.key[1]: i for i, insn in enumerate(code)})
    return at


def jump_target(insn, symbols):
    """a jump's target key, or None for an indirect jump or one out of what was read"""
    if insn.relocs:
        m = RELOC_TARGET.match(insn.relocs[0])
        if not m or m.group(1) not in symbols:
            return None
        sec, base = symbols[m.group(1)]
        # PC32 to the displacement, the jump's last four bytes
        return (sec, base + int(m.group(2) or '0', 16) + 4)
    m = re.match(r'^([0-9a-f]+)\b', insn.ops)
    return (insn.key[0], int(m.group(1), 16)) if m else None


def resolve(target, at):
    """[the index of a jump's target], or [] where it is not in what was read; in
    a linked executable an address is one place, whatever its section"""
    if target in at:
        return [at[target]]
    return [at[target[1]]] if target and target[1] in at else []


def successors(insn, at, symbols):
    mn = insn.mn
    if mn.startswith(('ret', 'int3', 'ud2')):
        return []
    nxt = [insn.next] if insn.next is not None else []
    if not mn.startswith('j'):
        return nxt
    tgt = resolve(jump_target(insn, symbols), at)
    return tgt if mn.startswith('jmp') else nxt + tgt


def read_kind(insn):
    if insn.mn not in ('rdtsc', 'rdtscp'):
        return None, None
    for k, (fn, _, _) in enumerate(insn.frames):
        if fn in READS and k + 1 < len(insn.frames):
            # the site: the caller's frame, and the chain outside it
            return READS[fn], tuple(insn.frames[k + 1:])
    return None, None


def got_ranges(path):
    """[(start, end)] of a linked program's global offset table, from its
    section headers (none for a listing)"""
    if path.endswith('.txt'):
        return []
    out = subprocess.run(['objdump', '-h', path], check=True, capture_output=True,
                         text=True).stdout
    return [(int(m.group(2), 16), int(m.group(2), 16) + int(m.group(1), 16))
            for m in re.finditer(r'^\s*\d+\s+(?:%s)\s+([0-9a-f]+)\s+([0-9a-f]+)' %
                                 '|'.join(re.escape(g) for g in GOT), out, re.M)]


def is_access(insn, got=()):
    """a load, store or call; a stack slot's is a register spilled or
    reloaded, and a load from the global offset table is a symbol's address
    (a constant once the program is loaded, which the compiler may hoist as
    it would a lea: the kernel has none)"""
    if insn.mn.startswith(NO_ACCESS) or PADDING.search(insn.ops) or STACK_SLOT.search(insn.ops):
        return False
    if insn.addr is not None and '(%rip)' in insn.ops and \
            any(a <= insn.addr < b for a, b in got):
        return False
    return insn.mn.startswith('call') or '(' in insn.ops or insn.mn.startswith('lock')


def regions(code, at, symbols):
    """{(function, file, tail): {first line: [last line, set of indices inside]}}:
    a function instance's regions, by the line of their start read"""
    out, starts = {}, []
    for i, insn in enumerate(code):
        kind, site = read_kind(insn)
        if kind == 'start':
            starts.append((i, site))
    paths = entry_paths(code, at, symbols)
    for i, site in starts:
        seen, todo, last = set(), list(successors(code[i], at, symbols)), site[0][2]
        while todo:
            j = todo.pop()
            if j in seen:
                continue
            if ends(code[j], site):
                last = max(last, read_kind(code[j])[1][0][2])
                continue
            if read_kind(code[j]) == ('start', site):
                continue
            # a region nested in this one (PCB_TIMED() in a batch's loop) is inside it
            seen.add(j)
            todo.extend(successors(code[j], at, symbols))
        seen |= entered(code, seen, paths, site)
        lines = out.setdefault((site[0][0], site[0][1], site[1:]), {})
        r = lines.setdefault(site[0][2], [last, set()])
        r[0] = max(r[0], last)
        r[1] |= seen
    return out, len(starts)


def ends(insn, site):
    """the instruction is an end read of the region started at site"""
    kind, end = read_kind(insn)
    return kind == 'end' and end[0][:2] == site[0][:2] and end[1:] == site[1:]


def entry_paths(code, at, symbols):
    """for each path the kernel enters, no jump reaching it (an rseq critical
    section's abort handler, in its own section): what it passes up to any
    timer read, and the reads it stops at"""
    out = []
    for insn in code:
        if insn.key[0] != RSEQ_ABORTS or insn.mn != 'jmp':
            continue
        seen, todo, reads = set(), resolve(jump_target(insn, symbols), at), set()
        while todo:
            j = todo.pop()
            if j in seen or j in reads:
                continue
            if read_kind(code[j])[0]:
                reads.add(j)
                continue
            seen.add(j)
            todo.extend(successors(code[j], at, symbols))
        out.append((seen, reads))
    return out


def entered(code, inside, paths, site):
    """the entered paths that come back into the region, or reach its end
    read, before any other timer read: the region's own"""
    out = set()
    for seen, reads in paths:
        if not seen.isdisjoint(inside) or any(ends(code[r], site) for r in reads):
            out |= seen - inside
    return out


def owner(insn, spans, model):
    """the region (key, first line) whose lines the instruction's chain passes
    through into a function of the model, or None"""
    fr = insn.frames
    for k in range(1, len(fr)):
        lines = spans.get((fr[k][0], fr[k][1], tuple(fr[k + 1:])))
        for first, (last, _) in (lines or {}).items():
            if first <= fr[k][2] <= last:
                return ((fr[k][0], fr[k][1], tuple(fr[k + 1:])), first) \
                    if model in (fr[k - 1][1] or '') else None
    return None


def check(path, model, verbose):
    code, symbols = parse(listing(path))
    at = index(code)
    for i in range(len(code) - 1):
        if code[i + 1].key[0] == code[i].key[0]:
            code[i].next = i + 1
    spans, nstarts = regions(code, at, symbols)
    if not nstarts:
        print('%s: no timer read with its inline chain (built without -g?)' % path)
        return 2
    got = got_ranges(path)
    bad, inside, by_region = [], 0, {}
    for i, insn in enumerate(code):
        if not is_access(insn, got) or read_kind(insn)[0]:
            continue
        region = owner(insn, spans, model)
        if region is None:
            continue
        (key, first), (last, seen) = region, spans[region[0]][region[1]]
        by_region[region] = by_region.get(region, 0) + 1
        if i in seen:
            inside += 1
            continue
        bad.append('%s: %s (%s, %s:%d) outside the reads of its region at %s:%d-%d (%s)' %
                   (path, show([insn.key[1], insn.mn, insn.ops, insn.relocs]),
                    insn.frames[0][0], insn.frames[0][1], insn.frames[0][2], key[1], first,
                    last, key[0]))
    if not by_region:
        print('%s: no region with an access of the model (a file under %s)' % (path, model))
        return 2
    for b in bad:
        print(b)
    if verbose:
        for (key, first), n in sorted(by_region.items(), key=lambda kv: (kv[0][0][1], kv[0][1])):
            last, seen = spans[key][first]
            print('%s: %s:%d-%d (%s): %d accesses, %d instructions inside' %
                  (path, key[1], first, last, key[0], n, len(seen)))
    if bad:
        return 1
    print('%s: ok (%d start reads, %d regions with %d accesses of the model, all inside)' %
          (path, nstarts, len(by_region), inside))
    return 0


def main():
    args, model, verbose = sys.argv[1:], 'kernels', False
    if args[:1] == ['--model'] and len(args) > 1:
        model, args = args[1], args[2:]
    if args[:1] == ['--verbose']:
        verbose, args = True, args[1:]
    if not args:
        print(__doc__.split('\n\n')[1], file=sys.stderr)
        return 2
    status = 0
    for path in args:
        status = max(status, check(path, '/' + model.strip('/') + '/', verbose))
    return status


if __name__ == '__main__':
    sys.exit(main())
