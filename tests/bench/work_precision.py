#!/usr/bin/env python3
"""Work-precision of long runs (issue 39, docs/benchmarks.md "Long runs: work and precision").

Runs `dirac run` on a scenario with each method over a range of tolerances (adams, bdf) or steps
(variational, variational4 = order 4, lie_variational, isospectral) and prints one row per run: method, setting, the
worst relative energy error max_t |E - E0| / |E0| over [0, T], and the CPU seconds of the run
(user + system of the child, so the numbers mean the same on a shared machine).

Usage: work_precision.py DIRAC SCENARIO T [--set NAME=VALUE]... [--methods m1,m2,...]
"""
import argparse
import csv
import io
import resource
import subprocess
import sys

SETTINGS = {
    "adams": [("rtol", v) for v in ("1e-4", "1e-6", "1e-8", "1e-10")],
    "bdf": [("rtol", v) for v in ("1e-4", "1e-6", "1e-8", "1e-10")],
    "variational": [("step", v) for v in ("0.05", "0.025", "0.01", "0.005")],
    "variational4": [("step", v) for v in ("0.05", "0.025", "0.01", "0.005")],
    "lie_variational": [("step", v) for v in ("0.05", "0.025", "0.01", "0.005")],
    "isospectral": [("step", v) for v in ("0.05", "0.025", "0.01", "0.005")],
}


def run(dirac, scenario, t_end, sets, method, key, value):
    extra = ["order=4"] if method == "variational4" else []
    method = "variational" if method == "variational4" else method
    args = [dirac, "run", scenario, "--quiet", "--t-end", t_end, "--set", "method=" + method,
            "--set", f"{key}={value}", "--set", "output_step=" + str(float(t_end) / 200)]
    if key == "rtol":
        args += ["--set", "atol=" + value]
    for s in sets + extra:
        args += ["--set", s]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(args, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if out.returncode not in (0, 3):
        return None, cpu, out.stderr.strip().splitlines()[-1] if out.stderr else "failed"
    rows = list(csv.DictReader(io.StringIO(out.stdout)))
    e0 = float(rows[0]["E"])
    err = max(abs(float(r["E"]) - e0) for r in rows) / abs(e0)
    return err, cpu, "diverged" if out.returncode == 3 else ""


def main():
    p = argparse.ArgumentParser()
    p.add_argument("dirac")
    p.add_argument("scenario")
    p.add_argument("t_end")
    p.add_argument("--set", action="append", default=[])
    p.add_argument("--methods", default="adams,bdf,variational")
    a = p.parse_args()
    print("| method | setting | max \\|E - E0\\|/\\|E0\\| | CPU s |")
    print("|---|---|---|---|")
    for method in a.methods.split(","):
        for key, value in SETTINGS[method]:
            err, cpu, note = run(a.dirac, a.scenario, a.t_end, a.set, method, key, value)
            shown = f"{err:.2e}" if err is not None else note
            print(f"| {method} | {key} = {value} | {shown}{' (' + note + ')' if note and err is not None else ''} | {cpu:.2f} |")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
