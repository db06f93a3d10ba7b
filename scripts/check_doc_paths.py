#!/usr/bin/env python3
"""Every path the architecture map and the folder READMEs name exists.

Checked files: docs/ARCHITECTURE.md and every README.md under core/src, app, ui, python and tests.
A path is a relative link target ([text](target), anchor dropped), a `code span` or a bare word
that contains a slash or ends in a source extension (.cpp .hpp .md .py .cmake .yaml …). It is
resolved against the file's own folder, then the repository root, core/src, core/include,
core/include/dirac, ui, python and tests (the ways the READMEs name files); `*` globs must match
at least one file. Spans holding placeholders (<folder>, $VAR, …, spaces) are not paths.

    check_doc_paths.py [--root DIR]            report every missing path, exit 1 if any
    check_doc_paths.py [--root DIR] --plant    self-test: add a missing path to the map's text
                                               and require the check to report it and nothing else new
"""
import argparse
import fnmatch
import glob
import os
import re
import sys

EXTENSIONS = ("cpp", "hpp", "h", "md", "py", "pyi", "cmake", "yaml", "sh", "txt", "qrc", "supp",
              "dict", "png", "svg", "desktop", "json")
BASES = ("", "core/src", "core/include", "core/include/dirac", "ui", "python", "tests")
LINK = re.compile(r"\]\(([^)\s]+)\)")
SPAN = re.compile(r"`([^`\n]+)`")
WORD = re.compile(r"(?<![\w./*-])([\w.*-]+(?:/[\w.*-]*)+|[\w*-]+(?:\.[\w*-]+)*\.(?:%s))(?![\w/-])"
                  % "|".join(EXTENSIONS))
NOT_A_PATH = re.compile(r"[\s<>$~…{}()\[\]'\"=:,;|]|^-|^\.+$|//|^[a-z]+://")
# Names that look like paths and are not files of the tree: files the tests write into the build
# folder, and an object-name prefix of the window.
NOT_IN_TREE = {"latency.md", "gauge_two_form.png", "boundary.*"}
SOURCE_END = re.compile(r"\.(%s|\*)$" % "|".join(EXTENSIONS))


def checked_files(root):
    files = ["docs/ARCHITECTURE.md"]
    for top in ("core/src", "app", "ui", "python", "tests"):
        for path in sorted(glob.glob(os.path.join(root, top, "**", "README.md"), recursive=True)):
            files.append(os.path.relpath(path, root))
    return files


def candidates(text):
    """(line number, path) for every path-like token of a Markdown text."""
    found = []
    in_code = False
    previous = ""
    for number, line in enumerate(text.split("\n"), 1):
        # An indented code block (command examples: the files they name are outputs).
        in_code = line.startswith("    ") and (in_code or not previous.strip())
        previous = line
        if in_code:
            continue
        spans = []
        for m in LINK.finditer(line):
            target = m.group(1).split("#", 1)[0]
            if target and not re.match(r"^[a-z]+:", target):
                found.append((number, target))
        for m in SPAN.finditer(line):
            spans.append(m.span())
            token = m.group(1).strip()
            if ("/" in token or SOURCE_END.search(token)) and not NOT_A_PATH.search(token):
                found.append((number, token))
        # Bare words outside code spans and link targets.
        plain = LINK.sub("]", line)
        for start, end in reversed(spans):
            plain = plain[:start] + " " * (end - start) + plain[end:]
        for m in WORD.finditer(plain):
            token = m.group(1).rstrip(".")
            if "/" in token and not SOURCE_END.search(token) and not token.endswith("/"):
                continue  # "and/or", "1/v3", "km/s": a path outside a span ends in / or an extension
            if NOT_A_PATH.search(token) or re.match(r"^[\d./*-]+$", token):
                continue
            found.append((number, token))
    return found


def tracked_names(root):
    names = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith(".") and not d.startswith("build")]
        names.extend(filenames)
    return names


def exists(root, folder, token, names):
    if "/" not in token:  # a bare file name: any file of the tree with that name
        return bool(fnmatch.filter(names, token))
    token = token.rstrip("/")
    for base in (folder,) + BASES:
        path = os.path.normpath(os.path.join(root, base, token))
        if any(ch in token for ch in "*?"):
            if glob.glob(path):
                return True
        elif os.path.exists(path):
            return True
    return False


def is_path(root, folder, token):
    """Whether a path-like token is meant as a path (not a key, a ratio or a test filter)."""
    if token in NOT_IN_TREE:
        return False
    segments = token.rstrip("/").split("/")
    if token.startswith((".", "/")) or any(len(s) < 2 and s != "*" for s in segments):
        return False
    if not SOURCE_END.search(token) or token.endswith(".*") and "/" not in token:
        if token.endswith(".*"):  # `cvode_driver.*` is a path, `FuzzRegressions.*` a test filter
            return bool(re.match(r"^[a-z0-9_*]+\.\*$", token))
        # No extension: a folder, if its first segment is one of the tree's folders.
        return any(os.path.isdir(os.path.join(root, base, segments[0]))
                   for base in (folder,) + BASES)
    return True


def missing_paths(root, texts):
    names = tracked_names(root)
    problems = []
    for rel, text in texts:
        folder = os.path.dirname(rel)
        for number, token in candidates(text):
            if is_path(root, folder, token) and not exists(root, folder, token, names):
                problems.append("%s:%d: %s does not exist" % (rel, number, token))
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(__file__), ".."))
    parser.add_argument("--plant", action="store_true")
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    texts = []
    for rel in checked_files(root):
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            texts.append((rel, f.read()))
    if args.plant:
        planted = "core/src/dynamics/planted_driver.cpp"
        before = set(missing_paths(root, texts))
        rel, text = texts[0]
        texts[0] = (rel, text + "\nThe planted line names `%s`.\n" % planted)
        problems = sorted(set(missing_paths(root, texts)) - before)
        if len(problems) == 1 and planted in problems[0]:
            print("the check reported the planted path: " + problems[0])
            return 0
        print("the check did not report exactly the planted path %s:\n  %s"
              % (planted, "\n  ".join(problems) or "(nothing reported)"))
        return 1
    problems = missing_paths(root, texts)
    for problem in problems:
        print(problem)
    count = sum(len(candidates(text)) for _, text in texts)
    print("%d files, %d paths checked, %d missing" % (len(texts), count, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
