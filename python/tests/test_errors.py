"""Errors are Python exceptions carrying the file, line and symbol; Ctrl+C stops long calls."""

import os
import signal
import threading
import time

import pytest

import dirac
from conftest import SCENARIOS


def test_the_error_classes():
    for cls in (dirac.ScenarioError, dirac.ModelError, dirac.NumericalError, dirac.IoError):
        assert issubclass(cls, dirac.Error) and issubclass(cls, Exception)
    assert issubclass(dirac.SolveError, dirac.NumericalError)


def test_unknown_symbol_names_file_line_and_symbol():
    text = 'name: n\ncoordinates:\n  - {name: x}\nlagrangian: "vx^2/2 - omega*x^2"\n'
    with pytest.raises(dirac.ScenarioError) as e:
        dirac.loads(text, origin="case.yaml")
    assert (e.value.file, e.value.line, e.value.symbol) == ("case.yaml", 4, "omega")
    assert "case.yaml:4: 'omega'" in str(e.value)


def test_bad_number_and_missing_file():
    text = ("name: n\ncoordinates: [{name: x}]\nparameters:\n  - {name: k, default: abc}\n"
            'lagrangian: "1"\n')
    with pytest.raises(dirac.ScenarioError) as e:
        dirac.loads(text)
    assert (e.value.line, e.value.symbol) == (4, "k.default")
    with pytest.raises(dirac.ScenarioError) as e:
        dirac.load("/nonexistent/scenario.yaml")
    assert e.value.file == "/nonexistent/scenario.yaml"


def test_unknown_set_name_and_bad_setting():
    model = dirac.load(str(SCENARIOS / "heisenberg.yaml")).derive()
    with pytest.raises(dirac.ScenarioError) as e:
        model.run(set={"kz": 1.0})
    assert e.value.symbol == "kz" and e.value.file.endswith("heisenberg.yaml")
    with pytest.raises(dirac.ScenarioError) as e:
        model.run(t_end=-1)
    assert e.value.symbol == "t_end"


def test_model_and_numerical_errors():
    model = dirac.load(str(SCENARIOS / "heisenberg.yaml")).derive()
    with pytest.raises(dirac.ModelError):
        model.solve()  # no optimal control problem, no explicit flow
    # x'' = 2 x^3 from x = v = 1 reaches infinity at t = 1: the integrator fails.
    blowup = dirac.loads('name: blow-up\ncoordinates:\n  - {name: x, velocity: v, initial: 1, '
                         'initial_velocity: 1}\nlagrangian: "v^2/2 + x^4/2"\n'
                         "simulation: {t_end: 2}\n")
    with pytest.raises(dirac.NumericalError):
        blowup.derive().run()


def test_ctrl_c_stops_a_long_run_with_keyboard_interrupt():
    model = dirac.load(str(SCENARIOS / "heisenberg.yaml")).derive()
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        model.run(t_end=1e5, set={"output_step": 1.0})
    assert time.monotonic() - start < 5
    # The model is intact afterwards.
    assert len(model.run(t_end=1)) == 101


def test_ctrl_c_cancels_a_derivation(pendulum_chain):
    scenario = dirac.load(str(pendulum_chain))
    start = time.monotonic()
    stages = []
    scenario.derive(progress=stages.append)
    whole = time.monotonic() - start
    assert "differentiating the Lagrangian" in stages and len(stages) >= 4
    timer = threading.Timer(0.1 * whole, os.kill, (os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        scenario.derive()
    # Cancelled at a checkpoint, not finished and then interrupted.
    assert time.monotonic() - start < 0.6 * whole
    # The symbolic lock was released: the next derivation runs.
    assert dirac.load(str(SCENARIOS / "heisenberg.yaml")).derive().formulation


def test_a_thousand_runs_do_not_grow_the_process():
    model = dirac.load(str(SCENARIOS / "heisenberg.yaml")).derive()
    for k in range(100):
        model.run(t_end=0.5, set={"ky": 1 + k / 100})["mu"].sum()

    def rss_kib():
        with open("/proc/self/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("VmRSS"))

    before = rss_kib()
    for k in range(1000):
        model.run(t_end=0.5, set={"ky": 1 + k / 1000})["mu"].sum()
    after = rss_kib()
    print(f"RSS before {before} KiB, after 1000 runs {after} KiB")
    assert after - before < 4096


def test_a_progress_callback_returning_false_cancels_a_derivation(pendulum_chain):
    stages = []
    with pytest.raises(dirac.DerivationCancelled):
        dirac.load(str(pendulum_chain)).derive(
            progress=lambda stage: stages.append(stage) or False)
    assert stages and "compiling the residual" not in stages


BAD_INPUTS = sorted((SCENARIOS.parent / "tests/core/scenario/broken_yaml").glob("*.yaml")) + \
    sorted((SCENARIOS.parent / "tests" / "fuzz_regressions").glob("*.yaml"))


def test_the_bad_input_classes_of_tests_are_all_here():
    assert len(BAD_INPUTS) >= 20 and {"wrong_closer.yaml", "yaml_alias_cycle.yaml",
                                      "parser_huge_power.yaml"} <= {p.name for p in BAD_INPUTS}


@pytest.mark.parametrize("path", BAD_INPUTS, ids=lambda p: p.name)
def test_bad_inputs_raise_what_the_cli_prints(path):
    """The inputs of tests/core/scenario/broken_yaml (YAML syntax) and tests/fuzz_regressions
    (parser, YAML layer, reader): each raises a ScenarioError naming the file (and the line where
    the unit tests give one), with the CLI's message, or reads as it does for the CLI."""
    from conftest import cli_path
    import subprocess
    cli = subprocess.run([cli_path(), "equations", str(path), "--quiet", "--timeout", "60"],
                         capture_output=True, text=True)
    try:
        dirac.load(str(path))
    except dirac.ScenarioError as e:
        assert e.file == str(path) and str(path) in str(e) and e.line > 0
        assert cli.returncode == 1 and str(e) in cli.stderr
        lines = {"unclosed_brace.yaml": 9, "wrong_closer.yaml": 6, "map_value.yaml": 5}
        if path.name in lines:  # tests/core/scenario/test_yaml_syntax_errors.cpp
            assert e.line == lines[path.name]
            assert str(e).startswith(f"{path}:{e.line}: ")
        return
    # Accepted by the reader (none is today): the CLI read it too.
    assert cli.returncode == 0 or f"{path}:" not in cli.stderr


def interrupt_at(condition):
    """A progress callback that sends this process SIGINT (Ctrl+C) once `condition` holds."""

    def progress(*args):
        if condition(*args):
            os.kill(os.getpid(), signal.SIGINT)

    return progress


def test_ctrl_c_stops_a_solve_and_the_model_still_solves():
    model = dirac.load(str(SCENARIOS / "so3_spline.yaml")).derive()
    with pytest.raises(KeyboardInterrupt):
        model.solve(set={"final.R.z": 1.0}, progress=interrupt_at(lambda it, res: it >= 1))
    assert model.solve(set={"final.R.z": 1.0}).report["converged"]


def test_ctrl_c_stops_a_sweep_leaving_nothing_half_written(tmp_path):
    import csv
    model = dirac.load(str(SCENARIOS / "heisenberg.yaml")).derive()
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        dirac.sweep(model, vary={"ky": (0.5, 4, 400)}, t_end=20, jobs=2, out_dir=str(tmp_path),
                    trajectories=True, progress=interrupt_at(lambda done, total: done >= 3))
    assert time.monotonic() - start < 30  # 400 runs of 20 s would take far longer
    # As the CLI: the completed runs' table as summary-interrupted.csv, no summary.csv, and
    # a whole CSV for each completed run, none for the runs cut short.
    with open(tmp_path / "summary-interrupted.csv", newline="") as f:
        runs = [int(row["run"]) for row in csv.DictReader(f)]
    assert 3 <= len(runs) < 400
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["summary-interrupted.csv"] + [f"run-{k:03d}.csv" for k in runs])
    for k in runs:
        with open(tmp_path / f"run-{k:03d}.csv", newline="") as f:
            rows = [row for row in csv.reader(f) if row and not row[0].startswith("#")]
        assert len(rows) == 2002 and float(rows[-1][0]) == 20.0
