#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The include graph, as docs/architecture.md's dependency rule states it.

usage: includes.py SOURCE_ROOT BUILD_ROOT

Every quoted #include of harness/, kernels/ and tests/models/ is resolved
as the compiler resolves it (the including file's folder, then the include
path its build gives it) and checked:

  - no folder of the harness includes one above it, in the order
    cli -> session -> output -> run -> {measure, scenario, machine, schema}
    -> seam;
    folders of one level include one another without a cycle;
  - the model interface (harness/seam/, and harness/model.h and
    model_output.h, the names output/ and cli/ include it by) includes
    nothing else of the harness, its headers include one another as
    pcb/<header>.h, and its hot-path headers include no registration
    header and no system header but base.h's;
  - the harness includes nothing of kernels/ or tests/;
  - a model (kernels/, tests/models/) includes of the harness the model
    interface alone.

Then a file compiled as a model is: the compile command meson gave
kernels/models.c, on a file that includes a header of the harness outside
the interface, must fail, and on one that includes every interface header
must not; and with a folder of a build's own pcb/clock.h ahead of
harness/seam on its include path, every interface header must take that
clock (the interface's headers include one another as pcb/<header>.h).

Prints each violation as FILE:LINE: what, and exits 1 if there was one.
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

LEVEL = {'cli': 6, 'session': 5, 'output': 4, 'run': 3, 'measure': 2, 'scenario': 2, 'machine': 2,
         'schema': 2, 'seam': 1}
# the interface's headers a hot path includes, and the system headers base.h may
HOT = {'base.h', 'cpu.h', 'preempt.h', 'work.h', 'clock.h', 'pmc.h', 'stat.h', 'timed.h', 'gaps.h',
       'worker.h', 'text.h'}
BASE_SYSTEM = {'stdatomic.h', 'stdbool.h', 'stddef.h', 'stdint.h'}

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def sources(root, top):
    for d, _, files in os.walk(os.path.join(root, top)):
        for f in sorted(files):
            if f.endswith(('.c', '.h', '.def')):
                yield os.path.join(d, f)


def group(root, path):
    """harness/<folder>, 'seam', 'model' or None, for a path under root"""
    rel = os.path.relpath(path, root)
    parts = rel.split(os.sep)
    if parts[0] == 'harness':
        if parts[1] == 'seam' or len(parts) == 2:
            return 'seam'
        return parts[1]
    if parts[0] == 'kernels':
        return 'model'
    if parts[:2] == ['tests', 'models']:
        # a throwaway model's own test is a test, which may include anything
        test = parts[-1].startswith('test_') and parts[-1].endswith('.c')
        return 'test' if test else 'model'
    return parts[0]


def search_path(root, build, g):
    seam = os.path.join(root, 'harness', 'seam')
    if g == 'model':
        return [seam, os.path.join(root, 'kernels'), os.path.join(build, 'kernels')]
    return [root, build, seam]


def resolve(root, build, path, g, name):
    for d in [os.path.dirname(path)] + search_path(root, build, g):
        cand = os.path.normpath(os.path.join(d, name))
        if os.path.isfile(cand):
            return cand
    return None


class Graph:
    def __init__(self, root, build):
        self.root, self.build = root, build
        self.errors = []
        self.folder_edges = set()

    def error(self, path, line, what):
        self.errors.append('%s:%d: %s' % (os.path.relpath(path, self.root), line, what))

    def check_file(self, path):
        g = group(self.root, path)
        if g not in LEVEL and g != 'model':
            return
        with open(path, encoding='utf-8') as f:
            for n, text in enumerate(f, 1):
                m = INCLUDE.match(text)
                if m:
                    self.check_include(path, n, g, m.group(1) == '<', m.group(2))

    def check_include(self, path, n, g, system, name):
        base = os.path.basename(path)
        if system:
            if g == 'seam' and base in HOT and not (base == 'base.h' and name in BASE_SYSTEM):
                self.error(path, n, 'a hot-path header of the interface includes <%s>' % name)
            return
        if g == 'seam' and os.path.dirname(path).endswith(os.path.join('seam', 'pcb')) and \
                not name.startswith('pcb/'):
            self.error(path, n, 'the interface includes "%s" by its folder, not as '
                       'pcb/<header>.h, which a build may take its own of' % name)
        target = resolve(self.root, self.build, path, g, name)
        if not target:
            self.error(path, n, '"%s" is not found on its include path' % name)
            return
        if target.startswith(self.build + os.sep):
            return		# generated: config.h, kernels/models.h
        self.check_edge(path, n, g, name, group(self.root, target), target)

    def check_edge(self, path, n, g, name, tg, target):
        inside_seam = os.path.dirname(target).startswith(os.path.join(self.root, 'harness', 'seam'))
        if g == 'model':
            if tg in LEVEL and not inside_seam:
                self.error(path, n, 'a model includes "%s", of the harness but not its '
                           'interface' % name)
            elif tg not in ('model', 'seam'):
                self.error(path, n, 'a model includes "%s", outside kernels/ and the '
                           'interface' % name)
            return
        if g not in LEVEL:
            return
        if tg not in LEVEL:
            self.error(path, n, 'the harness includes "%s", outside it' % name)
        elif g == 'seam' and not inside_seam:
            self.error(path, n, 'the interface includes "%s", of the harness' % name)
        elif LEVEL[tg] > LEVEL[g]:
            self.error(path, n, '%s/ includes "%s" of %s/, above it' % (g, name, tg))
        elif g == 'seam' and os.path.basename(path) in HOT and os.path.basename(target) not in HOT:
            self.error(path, n, 'a hot-path header of the interface includes "%s"' % name)
        elif LEVEL[tg] == LEVEL[g] and tg != g:
            self.folder_edges.add((g, tg, '%s:%d' % (os.path.relpath(path, self.root), n)))

    def check_cycles(self):
        """folders of one level: an include one way and another the other way"""
        for a, b, at in sorted(self.folder_edges):
            back = [w for x, y, w in self.folder_edges if x == b and y == a]
            if back and a < b:
                self.errors.append('%s: %s/ and %s/ include each other (%s)' % (at, a, b, back[0]))


def compile_as_model(root, build, body, ahead=None):
    """0 where body compiles with the command meson gave kernels/models.c
    (with the folder ahead first on its include path)"""
    with open(os.path.join(build, 'compile_commands.json'), encoding='utf-8') as f:
        entries = json.load(f)
    entry = next(e for e in entries if e['file'].endswith(os.path.join('kernels', 'models.c')))
    argv = shlex.split(entry['command'])
    with tempfile.TemporaryDirectory() as tmp:
        probe = os.path.join(tmp, 'probe.c')
        with open(probe, 'w', encoding='utf-8') as f:
            f.write(body)
        cmd = argv[:1] + (['-I' + ahead] if ahead else [])
        argv = argv[1:]
        skip = False
        for a in argv:
            if skip:
                skip = False
                continue
            if a in ('-o', '-MF', '-MQ', '-MT'):
                skip = True
                continue
            if a in ('-MD', '-MMD') or a == entry['file']:
                continue
            cmd.append(a)
        cmd += ['-fsyntax-only', '-fdiagnostics-color=never', probe]
        r = subprocess.run(cmd, cwd=entry['directory'], capture_output=True, text=True)
        return r.returncode, r.stderr


# a build's own clock: every interface header must take it, not the userspace one
OWN_CLOCK = """#ifndef PCB_SEAM_CLOCK_H
#define PCB_SEAM_CLOCK_H
#include "pcb/base.h"
#define PCB_CLOCK_OF_THIS_BUILD 1
enum pcb_timing { PCB_TIMING_CALL, PCB_TIMING_BATCH };
static inline uint64_t pcb_tsc_start(void) { return 0; }
static inline uint64_t pcb_tsc_end(void) { return 0; }
static inline uint64_t pcb_tsc_now(void) { return 0; }
#endif
"""


def check_own_definition(root, build, errors):
    """a pcb/clock.h ahead of harness/seam is the one each header takes"""
    seam = os.path.join(root, 'harness', 'seam', 'pcb')
    with tempfile.TemporaryDirectory() as ahead:
        os.mkdir(os.path.join(ahead, 'pcb'))
        with open(os.path.join(ahead, 'pcb', 'clock.h'), 'w', encoding='utf-8') as f:
            f.write(OWN_CLOCK)
        for h in sorted(os.listdir(seam)):
            rc, err = compile_as_model(root, build, '#include "pcb/%s"\n#include "pcb/clock.h"\n'
                                       '_Static_assert(PCB_CLOCK_OF_THIS_BUILD, "its clock");\n'
                                       % h, ahead)
            if rc:
                errors.append('with a pcb/clock.h ahead of harness/seam, pcb/%s does not '
                              'take it:\n%s' % (h, err))


def check_model_build(root, build, errors):
    seam = os.path.join(root, 'harness', 'seam', 'pcb')
    every = ''.join('#include "pcb/%s"\n' % h for h in sorted(os.listdir(seam)))
    rc, err = compile_as_model(root, build, every + 'int probe;\n')
    if rc:
        errors.append('a model including every interface header does not build:\n' + err)
    for internal in ('measure/tsc.h', 'harness/measure/tsc.h', 'run/runner.h',
                     'harness/run/runner.h', 'scenario/scenario.h'):
        rc, err = compile_as_model(root, build, '#include "%s"\nint probe;\n' % internal)
        if rc == 0:
            errors.append('a model including "%s" builds' % internal)


def main():
    root, build = (os.path.realpath(a) for a in sys.argv[1:3])
    gr = Graph(root, build)
    for top in ('harness', 'kernels', os.path.join('tests', 'models')):
        for path in sources(root, top):
            gr.check_file(path)
    gr.check_cycles()
    check_model_build(root, build, gr.errors)
    check_own_definition(root, build, gr.errors)
    for e in gr.errors:
        print(e)
    print('%d violations' % len(gr.errors))
    return 1 if gr.errors else 0


if __name__ == '__main__':
    sys.exit(main())
