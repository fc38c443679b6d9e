#!/usr/bin/env python3
"""Check the layering of harness/output/.

usage: tests/lint/output_layers.py [--self-test] OUTPUT-DIR

A module is a .c and its .h (read/query.c, read/query.h). Module A uses
module B when A's .c or .h includes B's .h. The rules:

  - the uses form no loop, and a folder uses only the folders below it:
    read/ (the reader) none, write/ read/, present/ and plot/ read/ and
    write/ (not each other: the plotter asks the text tables for
    nothing), output/'s own files (the result directory) any;
  - every function a .c defines that is not static is named pcb_... and
    declared in the .h of its own module, and a .c declares no function of
    another (no prototype, no extern): so a call between modules is an
    include, and a loop of calls a loop of includes;
  - a table is the one exception: a header that defines a macro M(name)
    declaring pcb_..._##name and then includes a .def file of its folder
    declares pcb_..._ENTRY for each M(ENTRY) line there, and the .c of that
    folder named ENTRY, which has no header of its own, may define that
    name (format/format.h and format/formats.def: a format a file);
  - every name a .h gives the rest of the harness is prefixed: functions,
    variables, struct, union and enum tags and typedefs pcb_..., macros and
    enum constants PCB_....

Prints FILE: what is wrong for each violation and exits 1 if any. With
--self-test, runs the rules on planted violations first and fails unless
each is caught (and a clean tree passes).
"""
import os
import re
import sys
import tempfile

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def strip(text):
    """text without comments, string and character literals (kept as blanks)"""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (j - i - 1) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def top_level(text):
    """(chunk, end) for each top-level declaration: end is ';' or '{' (a body follows)"""
    code, cont = [], False
    for l in strip(text).split("\n"):
        # preprocessor lines, with their continuations, are not declarations
        if cont or l.lstrip().startswith("#"):
            cont = l.rstrip().endswith("\\")
            code.append("")
        else:
            code.append(l)
    body = "\n".join(code)
    depth, start, chunks = 0, 0, []
    for i, c in enumerate(body):
        if c == "{":
            if depth == 0:
                chunks.append((body[start:i], "{"))
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                start = i + 1
        elif c == ";" and depth == 0:
            chunks.append((body[start:i], ";"))
            start = i + 1
    return [(" ".join(c.split()), e) for c, e in chunks if c.strip()]


def declared_name(chunk):
    """the function a declaration declares or defines, else None"""
    depth = 0
    for i, c in enumerate(chunk):
        if c == "(" and depth == 0:
            m = re.search("(" + IDENT + r")\s*$", chunk[:i])
            if m and m.group(1) not in ("__attribute__", "sizeof"):
                if "=" in chunk[:i]:
                    return None
                return m.group(1)
            return None
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
    return None


def variable_name(chunk):
    """the variable a top-level declaration defines or declares, else None"""
    if re.fullmatch(r"(struct|union|enum) " + IDENT, chunk):
        return None
    decl = chunk.split("=")[0].strip()
    decl = re.sub(r"\[[^\]]*\]", "", decl).strip()
    m = re.search("(" + IDENT + r")\s*$", decl)
    if not m or len(decl.split()) < 2:
        return None
    return m.group(1)


def modules(root):
    """module -> {'c': path, 'h': path}"""
    mods = {}
    for d, _, names in os.walk(root):
        for name in names:
            base, ext = os.path.splitext(name)
            if ext not in (".c", ".h"):
                continue
            rel = os.path.relpath(os.path.join(d, base), root)
            mods.setdefault(rel, {})[ext[1:]] = os.path.join(d, name)
    return mods


def uses(root, mods):
    """module -> set of modules its files include"""
    edges = {m: set() for m in mods}
    real = os.path.realpath(root)
    for m, files in mods.items():
        for path in files.values():
            for inc in re.findall(r'^\s*#\s*include\s+"([^"]+)"', open(path).read(), re.M):
                target = os.path.realpath(os.path.join(os.path.dirname(path), inc))
                if not target.startswith(real + os.sep) or not target.endswith(".h"):
                    continue
                t = os.path.relpath(target[:-2], real)
                if t != m and t in mods:
                    edges[m].add(t)
    return edges


def loops(edges):
    """the loops of the graph, each as a list of modules"""
    found, state, stack = [], {}, []

    def visit(m):
        state[m] = 1
        stack.append(m)
        for t in sorted(edges[m]):
            if state.get(t) == 1:
                found.append(stack[stack.index(t):] + [t])
            elif t not in state:
                visit(t)
        stack.pop()
        state[m] = 2

    for m in sorted(edges):
        if m not in state:
            visit(m)
    return found


# the folders each of output/'s folders may include besides its own ("" is output/ itself)
BELOW = {
    "read": [],
    "write": ["read"],
    "present": ["read", "write"],
    "plot": ["read", "write"],
    "format": ["read", "write", "present"],
    "": ["read", "write", "present", "plot", "format"],
}


def folder(module):
    """a module's folder, "" for output/ itself"""
    return module.split(os.sep)[0] if os.sep in module else ""


def upward(edges):
    """the uses of a folder not below the user's: (module, module)"""
    bad = []
    for m, targets in sorted(edges.items()):
        for t in sorted(targets):
            fm, ft = folder(m), folder(t)
            if fm in BELOW and ft in BELOW and fm != ft and ft not in BELOW[fm]:
                bad.append((m, t))
    return bad


def header_names(text):
    """every name a header gives: (kind, name)"""
    names = []
    for m in re.finditer(r"^\s*#\s*define\s+(" + IDENT + ")", text, re.M):
        names.append(("macro", m.group(1)))
    for chunk, end in top_level(text):
        for tag in re.findall(r"\b(?:struct|union|enum)\s+(" + IDENT + r")\s*$", chunk):
            if end == "{":
                names.append(("tag", tag))
        if chunk.startswith("typedef"):
            t = variable_name(chunk)
            if t:
                names.append(("typedef", t))
            continue
        fn = declared_name(chunk)
        if fn:
            names.append(("function", fn))
        elif end == ";" and not re.fullmatch(r"(struct|union|enum) " + IDENT, chunk):
            v = variable_name(chunk)
            if v:
                names.append(("variable", v))
    for body in re.findall(r"\benum\s*" + IDENT + r"?\s*\{([^}]*)\}", strip(text)):
        for const in re.findall(r"(?:^|,)\s*(" + IDENT + ")", body):
            names.append(("enum constant", const))
    return names


def table_names(path, text):
    """module -> the one name a table header (a macro, then a .def) declares for it"""
    names = {}
    folder_of = os.path.dirname(path)
    for m in re.finditer(r'^\s*#\s*define\s+(' + IDENT + r')\((' + IDENT + r')\)(.*)$', text, re.M):
        macro, arg, body = m.groups()
        decl = re.search(r"\b(pcb_\w*)##" + arg + r"\b", body)
        inc = re.compile(r'^\s*#\s*include\s+"([^"/]+\.def)"', re.M).search(text, m.end())
        if not decl or not inc:
            continue
        def_path = os.path.join(folder_of, inc.group(1))
        if not os.path.exists(def_path):
            continue
        for entry in re.findall(r"^\s*" + macro + r"\((" + IDENT + r")\)", strip(open(def_path).read()),
                                re.M):
            names[os.path.join(folder_of, entry)] = decl.group(1) + entry
    return names


def definition(path, module, chunk, end, declared):
    """what is wrong with a top-level declaration of a module's .c"""
    if re.match(r"(static|typedef)\b", chunk):
        return []
    fn = declared_name(chunk)
    if fn and end == ";":
        return ["%s: declares %s(): a module's functions are declared in its header" %
                (path, fn)]
    if fn:
        name = fn
    elif end == ";" or "=" in chunk:
        name = variable_name(chunk)
    else:
        return []  # a type of the file's own
    bad = []
    if name and not name.startswith("pcb_"):
        bad.append("%s: %s%s is not static and not prefixed pcb_" %
                   (path, name, "()" if fn else ""))
    elif name and name not in declared:
        bad.append("%s: %s%s is not declared in %s.h" % (path, name, "()" if fn else "", module))
    return bad


def check(root):
    """the violations under root, as strings"""
    bad = []
    mods = modules(root)
    edges = uses(root, mods)
    for loop in loops(edges):
        bad.append("%s: its includes form a loop: %s" % (loop[0], " -> ".join(loop)))
    for m, t in upward(edges):
        bad.append("%s: includes %s.h, of a folder it may not include (only %s)" %
                   (m, t, ", ".join(f + "/" for f in BELOW[folder(m)]) or "its own"))
    tables = {}
    for m, files in mods.items():
        if "h" in files:
            for path, name in table_names(files["h"], open(files["h"]).read()).items():
                tables[os.path.relpath(path, root)] = name
    for m, files in sorted(mods.items()):
        header = open(files["h"]).read() if "h" in files else ""
        hdecl = {n for kind, n in header_names(header) if kind in ("function", "variable")}
        if "h" not in files and m in tables:
            hdecl = {tables[m]}
        for kind, name in header_names(header):
            upper = kind in ("macro", "enum constant")
            if not name.startswith("PCB_" if upper else "pcb_"):
                bad.append("%s: %s %s is not prefixed %s" % (files["h"], kind, name,
                                                            "PCB_" if upper else "pcb_"))
        if "c" not in files:
            continue
        for chunk, end in top_level(open(files["c"]).read()):
            bad += definition(files["c"], m, chunk, end, hdecl)
    return bad


# planted violations: each tree's files, and what the check must say of it
PLANTED = {
    "a loop": ({
        "a.h": "#ifndef PCB_A_H\n#define PCB_A_H\nint pcb_a(void);\n#endif\n",
        "a.c": '#include "a.h"\n#include "sub/b.h"\nint pcb_a(void)\n{\n\treturn pcb_b();\n}\n',
        "sub/b.h": "int pcb_b(void);\n",
        "sub/b.c": '#include "b.h"\n#include "../a.h"\nint pcb_b(void)\n{\n\treturn pcb_a();\n}\n',
    }, "form a loop: a -> sub/b -> a"),
    "a folder above": ({
        "read/a.h": "int pcb_a(void);\n",
        "read/a.c": '#include "a.h"\n#include "../present/b.h"\nint pcb_a(void)\n{\n'
                    "\treturn pcb_b();\n}\n",
        "present/b.h": "int pcb_b(void);\n",
        "present/b.c": '#include "b.h"\nint pcb_b(void)\n{\n\treturn 0;\n}\n',
    }, "read/a: includes present/b.h, of a folder it may not include"),
    "the plotter asking the text tables": ({
        "plot/a.h": "int pcb_a(void);\n",
        "plot/a.c": '#include "a.h"\n#include "../present/b.h"\nint pcb_a(void)\n{\n'
                    "\treturn pcb_b();\n}\n",
        "present/b.h": "int pcb_b(void);\n",
        "present/b.c": '#include "b.h"\nint pcb_b(void)\n{\n\treturn 0;\n}\n',
    }, "plot/a: includes present/b.h, of a folder it may not include (only read/, write/)"),
    "an unprefixed function": ({
        "a.h": "int first_col(const char *s);\n",
        "a.c": '#include "a.h"\nint first_col(const char *s)\n{\n\treturn 0;\n}\n',
    }, "first_col() is not static and not prefixed"),
    "a function declared in another module's header": ({
        "a.h": "int pcb_a(void);\nint pcb_b(void);\n",
        "a.c": '#include "a.h"\nint pcb_a(void)\n{\n\treturn pcb_b();\n}\n',
        "b.c": '#include "a.h"\nint pcb_b(void)\n{\n\treturn pcb_a();\n}\n',
    }, "pcb_b() is not declared in b.h"),
    "a prototype in a .c": ({
        "a.h": "int pcb_a(void);\n",
        "a.c": '#include "a.h"\nint pcb_a(void)\n{\n\treturn 1;\n}\n',
        "b.h": "int pcb_b(void);\n",
        "b.c": '#include "b.h"\nint pcb_a(void);\nint pcb_b(void)\n{\n\treturn pcb_a();\n}\n',
    }, "declares pcb_a()"),
    "an unprefixed macro": ({
        "a.h": "#define COL 16\nstruct pcb_a { int x; };\n",
    }, "macro COL is not prefixed PCB_"),
    "an unprefixed struct": ({
        "a.h": "struct diff_row {\n\tint x;\n};\n",
    }, "tag diff_row is not prefixed pcb_"),
    "an unprefixed variable": ({
        "a.h": "extern int nr_rows;\n",
        "a.c": '#include "a.h"\nint nr_rows = 1;\n',
    }, "variable nr_rows is not prefixed pcb_"),
    "a table's file defining another's name": ({
        "t/t.h": "struct pcb_t { int x; };\n#define PCB_T(name) extern const struct pcb_t pcb_t_##name;\n"
                 '#include "t.def"\n#undef PCB_T\n',
        "t/t.def": "PCB_T(one)\n",
        "t/one.c": '#include "t.h"\nconst struct pcb_t pcb_t_two = { 1 };\n',
    }, "pcb_t_two is not declared in t/one.h"),
    "a clean table": ({
        "t/t.h": "struct pcb_t { int x; };\n#define PCB_T(name) extern const struct pcb_t pcb_t_##name;\n"
                 '#include "t.def"\n#undef PCB_T\n',
        "t/t.def": "/* the entries */\nPCB_T(one)\nPCB_T(two)\n",
        "t/one.c": '#include "t.h"\nconst struct pcb_t pcb_t_one = { 1 };\n',
        "t/two.c": '#include "t.h"\nconst struct pcb_t pcb_t_two = { 2 };\n',
    }, None),
    "a clean tree": ({
        "a.h": "#ifndef PCB_A_H\n#define PCB_A_H\n#define PCB_COLS(x) (x)\n"
               "enum pcb_e { PCB_E_ONE, PCB_E_TWO };\nstruct pcb_a { int x; };\n"
               "extern const int pcb_nr;\nint pcb_a(void);\n#endif\n",
        "a.c": '#include "a.h"\n#include "sub/b.h"\n#define LOCAL 1\nconst int pcb_nr = 2;\n'
               "static int helper(void)\n{\n\treturn LOCAL;\n}\n"
               "int pcb_a(void)\n{\n\treturn helper() + pcb_b();\n}\n",
        "sub/b.h": "int pcb_b(void);\n",
        "sub/b.c": '#include "b.h"\nint pcb_b(void)\n{\n\treturn 0;\n}\n',
    }, None),
}


def self_test():
    failed = 0
    for what, (files, expect) in PLANTED.items():
        with tempfile.TemporaryDirectory() as root:
            for name, text in files.items():
                os.makedirs(os.path.dirname(os.path.join(root, name)), exist_ok=True)
                open(os.path.join(root, name), "w").write(text)
            bad = check(root)
        if expect is None and bad:
            print("self-test: %s: reported %s" % (what, bad))
            failed = 1
        elif expect is not None and not any(expect in b for b in bad):
            print("self-test: %s not caught (expected '%s', got %s)" % (what, expect, bad))
            failed = 1
    return failed


def main():
    args = sys.argv[1:]
    failed = 0
    if args[:1] == ["--self-test"]:
        failed = self_test()
        args = args[1:]
    if len(args) != 1:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    for b in check(args[0]):
        print(b)
        failed = 1
    return failed


if __name__ == "__main__":
    sys.exit(main())
