#!/usr/bin/env python3
"""List C functions longer than a bound or with more parameters than a bound.

usage: scripts/fnsize.py [--lines N] [--params N] FILE|DIR ...

A function is a definition whose body opens with '{' in column 0 and closes
with '}' in column 0, as this tree (and the kernel) writes them. Prints
FILE:LINE name lines params for each one over either bound; exits 1 if any.
"""
import argparse, os, re, sys

def functions(path):
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i].startswith("{"):
            j = i - 1
            sig = []
            while j >= 0 and lines[j].strip() and not lines[j].rstrip().endswith((";", "}")) \
                    and not lines[j].startswith("#"):
                sig.insert(0, lines[j])
                if "(" in lines[j] and re.match(r"^[A-Za-z_]", lines[j]):
                    break
                j -= 1
            text = " ".join(s.strip() for s in sig)
            m = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\s*\((.*)\)\s*$", text)
            k = i + 1
            while k < len(lines) and not lines[k].startswith("}"):
                k += 1
            if m:
                args = m.group(2).strip()
                depth, n = 0, (0 if args in ("", "void") else 1)
                for c in args:
                    if c == "(":
                        depth += 1
                    elif c == ")":
                        depth -= 1
                    elif c == "," and depth == 0:
                        n += 1
                yield m.group(1), j + 1, k - i - 1, n
            i = k
        i += 1

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lines", type=int, default=80)
    ap.add_argument("--params", type=int, default=6)
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    files = []
    for p in a.paths:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                files += [os.path.join(root, n) for n in sorted(names) if n.endswith((".c", ".h"))]
        else:
            files.append(p)
    bad = 0
    for f in sorted(files):
        for name, line, body, params in functions(f):
            if body > a.lines or params > a.params:
                print(f"{f}:{line}: {name} {body} lines {params} params")
                bad += 1
    return 1 if bad else 0

sys.exit(main())
