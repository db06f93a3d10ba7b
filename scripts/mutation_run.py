#!/usr/bin/env python3
"""Mutation run: N mutated scenario files through `dirac run`, `analyze` and `solve`.

Each file is a shipped scenario (scenarios/*.yaml) with 1-3 mutations: a number replaced
(0, huge, tiny, non-finite, negative), an expression changed (unknown symbol, missing argument,
division by zero, deep nesting, huge power), a key renamed, deleted or duplicated, the nesting
changed (a value wrapped in a list or a map, an indentation shifted, deep flow nesting), the text
truncated, or a few bytes changed. Every (file, command) runs with a wall-clock limit (default
20 s); a run still going then is killed unless it prints progress (the CLI writes a line every
5 s), which may go on to a hard limit (default 120 s). The outcomes are tabulated:

  crash       killed by a signal (SIGSEGV, SIGABRT, ...)
  internal    exit 3 ("internal error") or any exit code other than 0, 1, 2
  timeout     still running at the limit without progress output (killed)
  slow        printing progress, still running at the hard limit (killed)
  unnamed     exit 1 or 2 with a message that does not name the scenario file
  clean       exit 1 or 2 with a message naming the file
  success     exit 0

Usage: scripts/mutation_run.py --dirac build/app/dirac [--files 1000] [--jobs 2] [--seed 1]
       [--limit 20] [--hard-limit 120] [--out mutation-run]   (writes OUT/files/*.yaml,
       OUT/results.csv, OUT/summary.md; exit status 1 if any crash, internal error, silent
       timeout or unnamed error occurred)
Only the Python standard library is needed.
"""
import argparse
import concurrent.futures
import csv
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NUMBER = re.compile(r"(?<![A-Za-z_0-9.])-?\d+(\.\d+)?([eE][-+]?\d+)?(?![A-Za-z_0-9])")
QUOTED = re.compile(r'"([^"\n]*)"')
KEY = re.compile(r"^(\s*-?\s*)([A-Za-z_][A-Za-z_0-9]*):", re.M)

NUMBERS = ["0", "-1", "1e400", "-1e400", "1e-320", ".nan", ".inf", "nan", "1e9", "2e5", "1e300",
           "-0.0", "123456789012345678901234567890", "0x10", "1_000", "3.5.1", "1e-9"]
EXPRESSION_EDITS = [
    lambda e: e + " + 1e400", lambda e: e + " - 0^x", lambda e: "sin()", lambda e: e + "*atan2(x)",
    lambda e: "(" * 300 + e + ")" * 300, lambda e: "-" * 2000 + "(" + e + ")",
    lambda e: "(" + e + ")^100000", lambda e: e + " + unknown_symbol", lambda e: e[: len(e) // 2],
    lambda e: e + "/0", lambda e: "exp(exp(exp(" + e + ")))", lambda e: e.replace("x", "x^x", 1),
    lambda e: "sqrt(-1)*" + e, lambda e: "log(0)+" + e, lambda e: e + " +", lambda e: "",
    lambda e: "sin(" * 200 + e + ")" * 200, lambda e: e + "^^2", lambda e: "1/" + e,
]
KEYS = ["lagrangian", "coordinates", "parameters", "constraints", "simulation", "t_end",
        "output_step", "name", "form", "default", "algebroid", "boundary_value", "optimal_control",
        "unknowns", "targets", "gauge", "scene", "plots", "xx", "formulation", "initial"]


def mutate_number(text, rng):
    spots = list(NUMBER.finditer(text))
    if not spots:
        return text
    m = rng.choice(spots)
    return text[: m.start()] + rng.choice(NUMBERS) + text[m.end():]


def mutate_expression(text, rng):
    spots = list(QUOTED.finditer(text))
    if not spots:
        return text
    m = rng.choice(spots)
    return text[: m.start(1)] + rng.choice(EXPRESSION_EDITS)(m.group(1)) + text[m.end(1):]


def mutate_key(text, rng):
    spots = list(KEY.finditer(text))
    if not spots:
        return text
    m = rng.choice(spots)
    lines = text.splitlines(keepends=True)
    line_no = text.count("\n", 0, m.start())
    choice = rng.randrange(3)
    if choice == 0:  # rename
        return text[: m.start(2)] + rng.choice(KEYS) + text[m.end(2):]
    if choice == 1:  # delete the line
        del lines[line_no]
    else:  # duplicate the line
        lines.insert(line_no, lines[line_no])
    return "".join(lines)


def mutate_nesting(text, rng):
    lines = text.splitlines(keepends=True)
    if not lines:
        return text
    k = rng.randrange(len(lines))
    choice = rng.randrange(4)
    if choice == 0:  # shift the indentation
        lines[k] = " " * rng.choice([1, 2, 3, 4]) + lines[k]
    elif choice == 1:  # wrap the value in a list
        lines[k] = re.sub(r":\s+(.+)$", r": [\1]", lines[k], count=1)
    elif choice == 2:  # wrap the value in a map
        lines[k] = re.sub(r":\s+(.+)$", r": {value: \1}", lines[k], count=1)
    else:  # deep flow nesting
        depth = rng.choice([50, 500, 3000])
        lines[k] = re.sub(r":\s+(.+)$", ": " + "[" * depth + r"\1" + "]" * depth, lines[k], count=1)
    return "".join(lines)


def mutate_truncate(text, rng):
    return text[: rng.randrange(len(text) + 1)]


def mutate_bytes(text, rng):
    chars = list(text)
    for _ in range(rng.randint(1, 4)):
        if not chars:
            break
        at = rng.randrange(len(chars))
        op = rng.randrange(3)
        if op == 0:
            del chars[at]
        elif op == 1:
            chars.insert(at, rng.choice(":-[]{}'\"#&*!|>%@`,\n\t 0x\\"))
        else:
            chars[at] = chr(rng.randrange(1, 256))
    return "".join(chars)


MUTATORS = [mutate_number, mutate_number, mutate_expression, mutate_expression, mutate_key,
            mutate_nesting, mutate_truncate, mutate_bytes]


def make_files(count, seed, out_dir):
    rng = random.Random(seed)
    sources = sorted((ROOT / "scenarios").glob("*.yaml"))
    out_dir.mkdir(parents=True, exist_ok=True)
    files = []
    for k in range(count):
        source = rng.choice(sources)
        text = source.read_text()
        for _ in range(rng.randint(1, 3)):
            text = rng.choice(MUTATORS)(text, rng)
        path = out_dir / f"m{k:05d}_{source.stem}.yaml"
        path.write_text(text, errors="surrogateescape")
        files.append(path)
    return files


PROGRESS = re.compile(r"^dirac: .*, \d+ s(; .*)?$", re.MULTILINE)


def run_one(dirac, path, command, limit, hard_limit):
    """Runs one command. Past `limit` a run that has printed no progress line is killed
    ("timeout"); one that prints progress (the CLI's line every 5 s) may go on to `hard_limit`,
    is classified by how it ends, and counts as "slow" if killed there."""
    args = [dirac, command, str(path)]
    start = time.monotonic()
    with tempfile.TemporaryFile() as err_file:
        proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=err_file,
                                start_new_session=True)
        killed = None
        try:
            proc.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            err_file.seek(0)
            if PROGRESS.search(err_file.read().decode("utf-8", "replace")):
                try:
                    proc.wait(timeout=max(0.0, hard_limit - (time.monotonic() - start)))
                except subprocess.TimeoutExpired:
                    killed = "slow"
            else:
                killed = "timeout"
            if killed:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        err_file.seek(0)
        err = err_file.read()
    seconds = time.monotonic() - start
    message = err.decode("utf-8", "replace").strip()
    rc = proc.returncode
    if killed:
        outcome = killed
    elif rc < 0:
        outcome = "crash"
    elif rc == 0:
        outcome = "success"
    elif rc in (1, 2) and "internal error" not in message:
        outcome = "clean" if path.name in message else "unnamed"
    else:
        outcome = "internal"
    # The first line that is not progress: the error message, or the report.
    lines = [line for line in message.splitlines() if not PROGRESS.match(line)]
    first_line = lines[-1] if rc not in (0, None) and lines else (lines[0] if lines else "")
    if rc is not None and rc < 0 and not killed:
        first_line = f"signal {signal.Signals(-rc).name}: " + first_line
    return {"file": path.name, "command": command, "exit": rc, "seconds": f"{seconds:.2f}",
            "outcome": outcome, "message": first_line[:300]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dirac", default=str(ROOT / "build" / "app" / "dirac"))
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=float, default=20.0)
    parser.add_argument("--hard-limit", type=float, default=120.0)
    parser.add_argument("--commands", default="run,analyze,solve")
    parser.add_argument("--out", default="mutation-run")
    a = parser.parse_args()
    out = Path(a.out)
    files = make_files(a.files, a.seed, out / "files")
    tasks = [(f, c) for f in files for c in a.commands.split(",")]
    results = []
    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        futures = [pool.submit(run_one, a.dirac, f, c, a.limit, a.hard_limit) for f, c in tasks]
        for k, fut in enumerate(concurrent.futures.as_completed(futures), 1):
            results.append(fut.result())
            if k % 300 == 0:
                print(f"{k}/{len(tasks)} runs, {time.monotonic() - start:.0f} s", flush=True)
    wall = time.monotonic() - start
    results.sort(key=lambda r: (r["file"], r["command"]))
    with open(out / "results.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(results[0].keys()))
        w.writeheader()
        w.writerows(results)
    order = ["success", "clean", "unnamed", "internal", "slow", "timeout", "crash"]
    label = {"success": "success (exit 0)", "clean": "clean error naming the file (exit 1/2)",
             "unnamed": "error not naming the file", "internal": "internal error (exit 3 or other)",
             "slow": f"past {a.hard_limit:g} s, printing progress (killed)",
             "timeout": f"past {a.limit:g} s without progress output (killed)",
             "crash": "crashed (signal)"}
    lines = [f"# Mutation run: {len(files)} files x {len(a.commands.split(','))} commands "
             f"= {len(results)} runs, seed {a.seed}, {a.jobs} jobs, {wall:.0f} s wall", "",
             "| outcome | " + " | ".join(a.commands.split(",")) + " | all |",
             "|---|" + "---|" * (len(a.commands.split(",")) + 1)]
    for o in order:
        per = [sum(1 for r in results if r["outcome"] == o and r["command"] == c)
               for c in a.commands.split(",")]
        lines.append(f"| {label[o]} | " + " | ".join(map(str, per)) + f" | {sum(per)} |")
    lines.append("")
    for o in ["crash", "internal", "timeout", "slow", "unnamed"]:
        bad = [r for r in results if r["outcome"] == o]
        if bad:
            lines.append(f"## {label[o]}: {len(bad)}")
            for r in bad[:25]:
                lines.append(f"- `{r['command']} {r['file']}` exit {r['exit']} "
                             f"({r['seconds']} s): {r['message']}")
            lines.append("")
    summary = "\n".join(lines)
    (out / "summary.md").write_text(summary + "\n")
    print(summary)
    return 1 if any(r["outcome"] in ("crash", "internal", "unnamed", "timeout")
                    for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
