"""Call overhead of the module and a 1 000-run loop against the `dirac` process (issue 26's
benchmark targets; not a test). Usage, from the repository root after a build:

    PYTHONPATH=build/python /usr/bin/python3 python/benchmarks/bench_calls.py [build/app/dirac]

Prints, for Heisenberg runs of several lengths (t_end = 0.01 s: next to no integration, so the
fixed cost of a call; 2 s; 6 s: about 1 ms; 20 s):
(1) the median wall time of a run through Python against the same run inside core's sweep (its
    wall_time_s column: ApplyOverride, FromScenario, Simulate), the difference being the
    per-call overhead of the module; and the same by CPU time per run (the sweep's including
    its own bookkeeping), which the load of a shared machine disturbs less;
(2) 1 000 runs with a parameter change per run from Python against the same loop calling the
    `dirac` process (which reads the scenario, derives, loads its machine code and writes a CSV
    each time; timed on 50 process calls and scaled), by wall time and by CPU time (user +
    system, less sensitive to the load of a shared machine), and their ratios.
The three are measured in 10 interleaved rounds, so that a change in the machine's load falls
on all of them alike.
"""

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import dirac

CLI = sys.argv[1] if len(sys.argv) > 1 else "build/app/dirac"
SCENARIO = "scenarios/heisenberg.yaml"
RUNS = 1000
CALLS = 50  # process calls per length (about 70 ms each)


ROUNDS = 10  # the three measurements interleaved, so that they share the machine's load


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure(model, t_end, folder):
    """Per-run wall times through Python and inside core's sweep [s], the CPU time of the
    Python runs [s], and wall and CPU time of the process calls [s], over ROUNDS rounds."""
    python_times, core_times, python_cpu, process_wall, process_cpu = [], [], 0.0, 0.0, 0.0
    core_cpu = 0.0
    per_round = RUNS // ROUNDS
    for k in range(20):  # warm up (caches, allocator)
        model.run(t_end=t_end, set={"ky": 1 + k / 20})
    for r in range(ROUNDS):
        cpu = time.process_time()
        for k in range(per_round):
            start = time.perf_counter()
            model.run(t_end=t_end, set={"ky": 1 + (r * per_round + k) / RUNS})
            python_times.append(time.perf_counter() - start)
        python_cpu += time.process_time() - cpu
        cpu = time.process_time()
        table = dirac.sweep(model, vary={"ky": (1 + r / ROUNDS, 1 + (r + 1) / ROUNDS, per_round)},
                            t_end=t_end, wall_time=True)
        core_cpu += time.process_time() - cpu
        core_times += list(table.wall_time_s)
        cpu = children_cpu()
        start = time.perf_counter()
        for k in range(CALLS // ROUNDS):
            subprocess.run([CLI, "run", SCENARIO, "--quiet", "--t-end", str(t_end), "--set",
                            f"ky={1 + (r * CALLS // ROUNDS + k) / CALLS}", "--csv",
                            os.path.join(folder, "run.csv")], check=True)
        process_wall += time.perf_counter() - start
        process_cpu += children_cpu() - cpu
    scale = RUNS / CALLS
    return (python_times, core_times, python_cpu, core_cpu, process_wall * scale,
            process_cpu * scale)


model = dirac.load(SCENARIO).derive()
print(f"load average {os.getloadavg()[0]:.1f}; {RUNS} runs per length, {CALLS} process calls")
with tempfile.TemporaryDirectory() as folder:
    for t_end in (0.01, 2.0, 6.0, 20.0):
        times, core_times, python_cpu, core_cpu, process_s, process_cpu = measure(
            model, t_end, folder)
        python_ms = 1e3 * statistics.median(times)
        core_ms = 1e3 * statistics.median(core_times)
        python_s = sum(times)
        print(f"t_end = {t_end:g} s: a run costs a median {python_ms:.3f} ms through Python, "
              f"{core_ms:.3f} ms in core's sweep: overhead {1e3 * (python_ms - core_ms):.0f} us "
              f"per call ({python_ms / core_ms:.3f} x); by CPU time {1e3 * python_cpu / RUNS:.3f} "
              f"ms against {1e3 * core_cpu / RUNS:.3f} ms: "
              f"{1e6 * (python_cpu - core_cpu) / RUNS:.0f} us per call")
        print(f"  {RUNS} runs: {python_s:.2f} s wall ({python_cpu:.2f} s CPU) from Python, "
              f"{process_s:.1f} s wall ({process_cpu:.1f} s CPU) calling the process: "
              f"{process_s / python_s:.0f} x by wall time, {process_cpu / python_cpu:.0f} x by "
              f"CPU time, {process_s / (RUNS * python_ms / 1e3):.0f} x by median")
