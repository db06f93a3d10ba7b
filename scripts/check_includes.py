#!/usr/bin/env python3
"""app/, ui/ and python/ include from core only its public headers, core/include/dirac/*.hpp.

For every source and header under app/, ui/ and python/src/, each `#include "X"` must be one of
  - `dirac/NAME.hpp`, an existing public header of core/include/dirac/;
  - a file of the front end's own tree (beside the including file, or under the front end's root:
    ui's rooms `run/…`, `scenes/…`; python's `src/…`), and for app/ a header of ui/;
and no `#include <…>` may name one of core's private dependencies (GiNaC, CLN, SUNDIALS, yaml-cpp,
IPOPT): the front ends see core through its API only. Anything else is reported with the file,
the line and why.

    check_includes.py [--root DIR]            report every violation, exit 1 if any
    check_includes.py [--root DIR] --plant    self-test: plant an include of core/src into a copy
                                              of app/'s CLI and require the check to report it
"""
import argparse
import os
import re
import sys

FRONT_ENDS = {"app": "app", "ui": "ui", "python": "python/src"}
# Beyond its own tree, what a front end may include besides core's public headers: app/ composes
# the window, so it includes ui's headers by room (`window/main_window.hpp`).
ALSO = {"app": ["ui"], "ui": [], "python": []}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]')
PRIVATE = re.compile(r"^(ginac/|cln/|sundials/|idas/|cvodes/|kinsol/|nvector/|sunmatrix/|"
                     r"sunlinsol/|sunnonlinsol/|yaml-cpp/|coin/|coin-or/|Ip[A-Z])")


def sources(root):
    for front, top in FRONT_ENDS.items():
        for dirpath, _, filenames in os.walk(os.path.join(root, top)):
            for name in sorted(filenames):
                if name.endswith((".cpp", ".hpp", ".h")):
                    path = os.path.join(dirpath, name)
                    yield front, top, os.path.relpath(path, root)


def violations_of(root, front, top, rel, text):
    problems = []
    here = os.path.dirname(os.path.join(root, rel))
    for number, line in enumerate(text.split("\n"), 1):
        m = INCLUDE.match(line)
        if not m:
            continue
        kind, target = m.groups()
        where = "%s:%d: #include %s" % (rel, number, target)
        if kind == "<":
            if PRIVATE.match(target):
                problems.append(where + ": one of core's private dependencies (use core's API)")
            continue
        if target.startswith("dirac/"):
            if not os.path.isfile(os.path.join(root, "core/include", target)):
                problems.append(where + ": not a public header of core/include/dirac/")
            continue
        own = [os.path.join(here, target)] + [os.path.join(root, t, target)
                                              for t in [top] + ALSO[front]]
        if any(os.path.isfile(p) for p in own):
            continue
        if os.path.isfile(os.path.join(root, "core/src", target)):
            problems.append(where + ": an internal header of core/src/ (not public)")
        else:
            problems.append(where + ": neither a public header of core nor a file of " +
                            " or ".join([top] + ALSO[front]))
    return problems


def check(root, planted=None):
    problems = []
    for front, top, rel in sources(root):
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            text = f.read()
        if planted and rel == planted[0]:
            text += planted[1]
        problems += violations_of(root, front, top, rel, text)
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(__file__), ".."))
    parser.add_argument("--plant", action="store_true")
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    if args.plant:
        before = set(check(root))
        planted = ("app/dirac_cli.cpp", '\n#include "symbolic/expression_parser.hpp"\n')
        new = sorted(set(check(root, planted)) - before)
        if len(new) == 1 and "symbolic/expression_parser.hpp" in new[0] and "core/src" in new[0]:
            print("the check reported the planted include: " + new[0])
            return 0
        print("the check did not report exactly the planted include:\n  " +
              ("\n  ".join(new) or "(nothing reported)"))
        return 1
    problems = check(root)
    for problem in problems:
        print(problem)
    print("%d files checked, %d violations" % (sum(1 for _ in sources(root)), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
