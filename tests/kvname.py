"""What the shell tests' python shares: a stat's name as pcpbench writes it.

A name for LKP-tests (pcb_kv_name()): lower case, a space a dot, any other
character but [a-z0-9_.] an underscore, no empty part between dots.
"""
import re


def name(*parts):
    out = []
    for p in parts:
        p = re.sub(r"[^a-z0-9_. ]", "_", p.lower()).replace(" ", ".")
        out += [x for x in p.split(".") if x]
    return ".".join(out)
