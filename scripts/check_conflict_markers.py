#!/usr/bin/env python3
"""No merge-conflict marker is left in the tree.

A conflict is a line starting with "<<<<<<< " (or exactly "<<<<<<<"), later an "=======" line,
later a ">>>>>>> " line, in one file. The files are the tracked ones (`git ls-files`), or, outside
a git checkout, every file under the root but build folders and hidden ones. Binary files
(a NUL byte in the first 8 KiB) are skipped.

    check_conflict_markers.py [--root DIR]           report every conflict, exit 1 if any
    check_conflict_markers.py [--root DIR] --plant   self-test: a planted conflict in a copy of
                                                     docs/ARCHITECTURE.md's text must be reported
"""
import argparse
import os
import subprocess
import sys

OPEN, MIDDLE, CLOSE = "<<<<<<<", "=======", ">>>>>>>"


def is_marker(line, marker):
    return line == marker or line.startswith(marker + " ")


def conflicts(text):
    """Line numbers of every opening marker followed by a middle and a closing one."""
    found = []
    state, start = None, 0
    for number, line in enumerate(text.split("\n"), 1):
        line = line.rstrip("\r")
        if is_marker(line, OPEN):
            state, start = OPEN, number
        elif state == OPEN and line == MIDDLE:
            state = MIDDLE
        elif state == MIDDLE and is_marker(line, CLOSE):
            found.append(start)
            state = None
    return found


def tree_files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], check=True,
                             capture_output=True).stdout
        return sorted(p for p in out.decode("utf-8", "replace").split("\0") if p)
    except (OSError, subprocess.CalledProcessError):
        files = []
        for folder, dirs, names in os.walk(root):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and not d.startswith("build"))
            files += [os.path.relpath(os.path.join(folder, n), root) for n in sorted(names)]
        return files


def read_text(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    if b"\0" in data[:8192]:
        return None
    return data.decode("utf-8", "replace")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", default=".")
    parser.add_argument("--plant", action="store_true")
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    if args.plant:
        text = read_text(os.path.join(root, "docs", "ARCHITECTURE.md")) or ""
        lines = text.split("\n")
        middle = len(lines) // 2
        planted = lines[:middle] + [OPEN + " HEAD", "ours", MIDDLE, "theirs",
                                    CLOSE + " branch"] + lines[middle:]
        found = conflicts("\n".join(planted))
        if found != [middle + 1]:
            print("plant: expected a conflict at line %d of the planted text, found %s"
                  % (middle + 1, found))
            return 1
        print("plant: the planted conflict at line %d was reported" % found[0])
        return 0
    bad = 0
    for rel in tree_files(root):
        text = read_text(os.path.join(root, rel))
        if text is None or OPEN not in text:
            continue
        for number in conflicts(text):
            print("%s:%d: merge-conflict marker left in the file" % (rel, number))
            bad += 1
    if bad:
        return 1
    print("no merge-conflict marker in the tree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
