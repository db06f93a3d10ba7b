#!/usr/bin/env python3
"""Runs every shipped scenario with two builds of the `dirac` CLI and compares what a user sees.

    scripts/compare-releases.py OLD_DIRAC NEW_DIRAC [--scenarios DIR] [--out FILE.md]

For each scenarios/*.yaml: `analyze` (the chain text, without the lines that say how the verdicts
were reached, which only the newer build prints), `equations`, and the trajectory (`solve --csv`
for scenarios that pose a solve, else `run --csv`, plus `gauge --csv` where the old build offers
it). CSVs are compared by header and value: bit-identical, or the largest absolute and relative
difference. Writes a Markdown table (stdout, or --out) and exits 1 if a header differs, a
verdict text differs, or a value differs by more than 1e-12 relative to the column's scale.
"""
import argparse
import csv
import math
import pathlib
import subprocess
import sys
import tempfile

TOLERANCE = 1e-12


def run(binary, args, cwd):
    r = subprocess.run([binary] + args, cwd=cwd, capture_output=True, text=True, timeout=600)
    return r.returncode, r.stdout, r.stderr


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], [[float(x) for x in row] for row in rows[1:]]


def compare_csv(old_path, new_path):
    """(header_equal, bit_identical, max_abs, max_rel, rows_old, rows_new)."""
    old_header, old_rows = read_csv(old_path)
    new_header, new_rows = read_csv(new_path)
    if old_header != new_header or len(old_rows) != len(new_rows):
        return False, False, math.inf, math.inf, len(old_rows), len(new_rows)
    bit = pathlib.Path(old_path).read_bytes() == pathlib.Path(new_path).read_bytes()
    max_abs = max_rel = 0.0
    for c in range(len(old_header)):
        scale = max([abs(r[c]) for r in old_rows] + [1e-300])
        for a, b in zip(old_rows, new_rows):
            if math.isnan(a[c]) and math.isnan(b[c]):
                continue
            d = abs(a[c] - b[c])
            max_abs = max(max_abs, d)
            max_rel = max(max_rel, d / scale)
    return True, bit, max_abs, max_rel, len(old_rows), len(new_rows)


def chain_text(text):
    lines = text.splitlines()
    out, skipping = [], False
    for line in lines:
        if line.startswith("How the verdicts were reached:"):
            skipping = True
            continue
        if skipping and line.startswith("  "):
            continue
        skipping = False
        out.append(line)
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--scenarios", default=str(pathlib.Path(__file__).parent.parent / "scenarios"))
    parser.add_argument("--out")
    args = parser.parse_args()
    failures = 0
    lines = ["| scenario | command | analyze | equations | CSV | max abs diff | max rel diff |",
             "|---|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        for scenario in sorted(pathlib.Path(args.scenarios).glob("*.yaml")):
            name = scenario.name
            texts = {}
            for key, cmd in (("analyze", ["analyze", str(scenario)]),
                             ("equations", ["equations", str(scenario)])):
                _, old_out, _ = run(args.old, cmd, tmp)
                _, new_out, _ = run(args.new, cmd, tmp)
                same = chain_text(old_out) == chain_text(new_out)
                texts[key] = "same" if same else "differs"
                if key == "analyze" and not same:
                    failures += 1
            text = scenario.read_text()
            poses_solve = "optimal_control:" in text or "boundary_value:" in text
            commands = [["solve"] if poses_solve else ["run"]]
            if not poses_solve:
                commands.append(["gauge"])
            for command in commands:
                old_csv, new_csv = f"{tmp}/old.csv", f"{tmp}/new.csv"
                old_rc, _, old_err = run(args.old, command + [str(scenario), "--csv", old_csv], tmp)
                new_rc, _, new_err = run(args.new, command + [str(scenario), "--csv", new_csv], tmp)
                if old_rc != 0 and command == ["gauge"]:
                    continue  # no gauge two-form for this scenario in the old build
                if old_rc != 0 or new_rc != 0:
                    lines.append(f"| {name} | {command[0]} | {texts['analyze']} | {texts['equations']}"
                                 f" | exit {old_rc} / {new_rc} | | |")
                    if (old_rc == 0) != (new_rc == 0):
                        failures += 1
                    continue
                header, bit, max_abs, max_rel, n_old, n_new = compare_csv(old_csv, new_csv)
                if not header:
                    verdict = f"columns or rows differ ({n_old} / {n_new} rows)"
                    failures += 1
                elif bit:
                    verdict = f"bit-identical ({n_old} rows)"
                else:
                    verdict = f"differs in bits ({n_old} rows)"
                    if max_rel > TOLERANCE:
                        failures += 1
                lines.append(f"| {name} | {command[0]} | {texts['analyze']} | {texts['equations']} | "
                             f"{verdict} | {max_abs:.1e} | {max_rel:.1e} |")
    report = "\n".join(lines) + "\n"
    if args.out:
        pathlib.Path(args.out).write_text(report)
    sys.stdout.write(report)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
