#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The instrumented backend's results of one rig guest (tests/rig.sh):
each is the booted kernel's own (backend, variant, the lock its
instrument saw, the release, a build id), its design the kernel's alone,
every timed function called, and the drain scenario's three rows with
two drains or more each; both scenarios there. With PLATFORM, the
context's platform is that (uml: with the host CPUs it ran on). 7.3's
instrument times its primitives: each result has the six.

usage: results.py DIR VARIANT LOCK DESIGN RELEASE_REGEX [PLATFORM]
Prints a line a result and each failure; exits 1 if there was one.
"""
import glob
import json
import re
import sys

FNS = ("consume_stock", "refill_stock", "mod_objcg_state", "consume_obj_stock",
       "refill_obj_stock")
PRIMS = {"call", "this_cpu_add", "preempt", "local_trylock", "spin_trylock", "irq_save"}


def main():
    if len(sys.argv) not in (6, 7):
        print(__doc__.split('\n\n')[1], file=sys.stderr)
        return 2
    top, variant, lock, design, release = sys.argv[1:6]
    platform = sys.argv[6] if len(sys.argv) == 7 else None
    fails, seen = [], set()
    for p in sorted(glob.glob(top + "/*/result.json")):
        res = json.load(open(p))
        c = res["context"]
        name = res["scenario"]["name"]
        seen.add(name)
        ib = c.get("instrumented", {})
        if c.get("backend") != "instrumented" or ib.get("variant") != variant or \
           ib.get("stock_lock") != lock or not ib.get("build_id") or \
           not re.match(release, ib.get("release", "")):
            fails.append("%s: context %s %s" % (p, c.get("backend"), ib))
        pf = c.get("platform", {})
        if platform and (pf.get("name") != platform or
                         (platform == "uml" and not pf.get("host_cpus"))):
            fails.append("%s: platform %s, not %s" % (p, pf, platform))
        prims = ib.get("primitives", {})
        if variant.startswith("7.3") and (set(prims) != PRIMS or
                                          any(not isinstance(v, (int, float))
                                              for v in prims.values())):
            fails.append("%s: primitives %s" % (p, prims))
        if not ib.get("emulated") and "TCG" in ib.get("booted", ""):
            fails.append("%s: booted %s, not emulated" % (p, ib.get("booted")))
        if [d["design_name"] for d in res["designs"]] != [design] * len(res["designs"]):
            fails.append("%s: designs %s" % (p, [d["design"] for d in res["designs"]]))
        calls = {}
        for f in res["functions"]:
            calls[f["function"]] = calls.get(f["function"], 0) + f["calls"]
        print("%s %s: %s; calls %s" % (variant, name, lock,
              " ".join("%s %d" % (f, calls.get(f, 0)) for f in FNS)))
        if any(calls.get(f, 0) < 1 for f in FNS):
            fails.append("%s: a timed function was not called: %s" % (p, calls))
        if name == "seed-000-kernel-drain":
            drains = [(d["design"], d["caches"], d["count"]) for d in res.get("drains", [])]
            print("  drains: %s" % drains)
            if len(drains) != 3 or any(n < 2 for _, _, n in drains):
                fails.append("%s: drains %s" % (p, drains))
    if seen != {"seed-000-kernel", "seed-000-kernel-drain"}:
        fails.append("%s: results of %s" % (top, sorted(seen)))
    for m in fails:
        print("FAILED:", m)
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
