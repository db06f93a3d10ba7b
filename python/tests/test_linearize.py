"""Model.linearize and Model.stability_sweep on the Whipple bicycle against `dirac linearize`
(--json: the same engine through the CLI, to 1e-10) and the benchmark's published weave and
capsize speeds (Meijaard et al. 2007; docs/linearization.md)."""

import json
import subprocess

import numpy as np
import pytest

import dirac
from conftest import SCENARIOS, cli_path

BICYCLE = SCENARIOS / "whipple_bicycle.yaml"
IGNORABLE = ["psi", "thetaR", "thetaF"]
SPEEDS = ["vphi", "vdelta", "vthetaR"]
CLI_FLAGS = ["--ignorable", ",".join(IGNORABLE), "--speeds", ",".join(SPEEDS), "--json",
             "--quiet"]
WEAVE, CAPSIZE = 4.29238253634111, 6.02426201538837


def cli_json(*flags):
    done = subprocess.run([cli_path(), "linearize", str(BICYCLE), *CLI_FLAGS, *flags],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def bicycle():
    return dirac.load(str(BICYCLE)).derive()


def test_eigenvalues_and_matrices_at_5_equal_the_cli(bicycle):
    lin = bicycle.linearize(ignorable=IGNORABLE, speeds=SPEEDS, set={"vphi": 0, "v": 5})
    ref = cli_json("--set", "vphi=0", "--set", "v=5")
    assert lin.states == ref["states"] == ["phi", "delta", "vphi", "vdelta"]
    assert lin.A.shape == (4, 4) and lin.A.dtype == np.float64
    assert np.abs(lin.A - np.array(ref["A"])).max() < 1e-10
    expected = np.array([e["re"] + 1j * e["im"] for e in ref["eigenvalues"]])
    assert lin.eigenvalues.dtype == np.complex128
    assert np.abs(lin.eigenvalues - expected).max() < 1e-10
    # The published spectrum at 5 m/s (Table 2): capsize -0.3229, weave -0.7753 +- 4.4649i.
    assert abs(lin.eigenvalues[0] - (-0.32286642900410445)) < 1e-10
    # The eigenvalues are those of A, in the CLI's order.
    assert np.abs(np.sort_complex(np.linalg.eigvals(lin.A)) -
                  np.sort_complex(lin.eigenvalues)).max() < 1e-9
    # One mode per eigenvalue with imaginary part >= 0, each an eigenvector of A.
    assert len(lin.modes) == len(ref["modes"]) == 3
    for mode in lin.modes:
        assert np.abs(lin.A @ mode.shape - mode.eigenvalue * mode.shape).max() < 1e-9
        assert mode.dominant
    assert lin.B.shape == (4, 0)
    assert lin.point["vthetaR"] == pytest.approx(-5 / 0.3, abs=1e-12)


def test_set_values_rederive_nothing(bicycle):
    bicycle.linearize(ignorable=IGNORABLE, speeds=SPEEDS, set={"vphi": 0})
    before = dirac.derivations()
    a = bicycle.linearize(ignorable=IGNORABLE, speeds=SPEEDS, set={"vphi": 0, "v": 2})
    b = bicycle.linearize(ignorable=IGNORABLE, speeds=SPEEDS, set={"vphi": 0, "v": 8})
    assert dirac.derivations() == before
    assert np.abs(a.eigenvalues - b.eigenvalues).max() > 1.0


def test_a_point_that_is_no_steady_motion_is_refused(bicycle):
    # The scenario's own initial lean rate (0.5 rad/s) is no steady motion.
    with pytest.raises(dirac.ModelError, match=r"not an equilibrium or steady motion: d\(vdelta\)/dt"):
        bicycle.linearize(ignorable=IGNORABLE, speeds=SPEEDS)


def test_sweep_critical_speeds_equal_the_cli_and_the_benchmark(bicycle):
    values = np.linspace(0, 10, 1001)
    sweep = bicycle.stability_sweep("v", values, ignorable=IGNORABLE, speeds=SPEEDS,
                                    set={"vphi": 0})
    ref = cli_json("--set", "vphi=0", "--vary", "v=0:10:1001")
    assert sweep.parameter == ref["parameter"] == "v"
    # The CLI's evenly spaced values and NumPy's linspace agree to rounding.
    assert np.abs(sweep.values - values).max() == 0.0
    cli_critical = [c["value"] for c in ref["critical"]]
    assert len(sweep.critical_values) == len(cli_critical) == 2
    assert np.abs(sweep.critical_values - np.array(cli_critical)).max() < 1e-10
    assert abs(sweep.critical_values[0] - WEAVE) < 1e-10
    assert abs(sweep.critical_values[1] - CAPSIZE) < 1e-10
    assert sweep.critical[0]["oscillatory"] and sweep.critical[0]["stabilizing"]
    assert not sweep.critical[1]["oscillatory"] and not sweep.critical[1]["stabilizing"]
    assert np.abs(sweep.stable_intervals - np.array(ref["stable_intervals"])).max() < 1e-10
    assert sweep.stable_intervals.shape == (1, 2)


def test_sweep_shape_order_and_continuity(bicycle, tmp_path):
    values = np.linspace(0, 10, 1001)
    sweep = bicycle.stability_sweep("v", values, ignorable=IGNORABLE, speeds=SPEEDS,
                                    set={"vphi": 0})
    ev = sweep.eigenvalues
    assert ev.shape == (1001, 4) and ev.dtype == np.complex128
    assert sweep.states == ["phi", "delta", "vphi", "vdelta"]
    # The CLI's CSV has the same branches column by column (the same stable matching rule).
    out = tmp_path / "sweep.csv"
    subprocess.run([cli_path(), "linearize", str(BICYCLE), *CLI_FLAGS[:-2], "--quiet", "--set",
                    "vphi=0", "--vary", "v=0:10:1001", "--csv", str(out)], check=True,
                   capture_output=True)
    table = np.loadtxt(out, delimiter=",", skiprows=1, comments="#")
    cli_ev = table[:, 1::2] + 1j * table[:, 2::2]
    assert np.abs(ev - cli_ev).max() < 1e-10
    # Each row is the spectrum of the linearization at that value.
    for i in (0, 137, 500, 1000):
        lin = bicycle.linearize(ignorable=IGNORABLE, speeds=SPEEDS,
                                set={"vphi": 0, "v": float(values[i])})
        assert np.abs(np.sort_complex(ev[i]) - np.sort_complex(lin.eigenvalues)).max() < 1e-10
    # Continuous branches: no step of a branch exceeds a few times its typical step, and the
    # matching beats swapping any two branches at every step.
    steps = np.abs(np.diff(ev, axis=0))
    typical = np.median(steps, axis=0)
    assert (steps.max(axis=0) < 40 * typical + 0.05).all(), steps.max(axis=0) / typical
    for i in range(len(values) - 1):
        now = np.abs(ev[i + 1] - ev[i]).sum()
        for j in range(4):
            for k in range(j + 1, 4):
                swapped = ev[i + 1].copy()
                swapped[[j, k]] = swapped[[k, j]]
                assert now <= np.abs(swapped - ev[i]).sum() + 1e-12
    # Far beyond the collisions the castor branch is the real one near -24.6 at 10 m/s.
    castor = np.argmin(ev[-1].real)
    assert abs(ev[-1, castor] - (-24.62459635017365)) < 1e-9
    assert np.abs(ev[:, castor].imag).max() == 0.0


def test_sweep_takes_any_monotone_values_and_refuses_others(bicycle):
    values = np.array([3.0, 4.0, 4.5, 5.0, 7.0])
    sweep = bicycle.stability_sweep("v", values, ignorable=IGNORABLE, speeds=SPEEDS,
                                    set={"vphi": 0})
    assert np.abs(sweep.critical_values - [WEAVE, CAPSIZE]).max() < 1e-10
    with pytest.raises(dirac.Error, match="monotone"):
        bicycle.stability_sweep("v", [1.0, 3.0, 2.0], ignorable=IGNORABLE, speeds=SPEEDS,
                                set={"vphi": 0})
    with pytest.raises(dirac.Error, match="at least 2"):
        bicycle.stability_sweep("v", [1.0], ignorable=IGNORABLE, speeds=SPEEDS,
                                set={"vphi": 0})


def test_sweep_progress_can_be_stopped_by_an_exception(bicycle):
    # Ctrl+C's path: a Python error during the sweep cancels it through the same flag.
    import threading
    import _thread

    timer = threading.Timer(0.05, _thread.interrupt_main)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            bicycle.stability_sweep("v", np.linspace(0, 10, 200001), ignorable=IGNORABLE,
                                    speeds=SPEEDS, set={"vphi": 0})
    finally:
        timer.cancel()


# The stability: block the window's Stability view reads (docs/scenario-format.md#stability):
# every name is checked when the file is read, the error naming line and key.
SPRING = """name: spring
coordinates:
  - {name: x, initial: 0, initial_velocity: 0.5}
  - {name: y}
parameters:
  - {name: k, default: 2}
lagrangian: "(vx^2 + vy^2)/2 - k*x^2/2"
"""


@pytest.mark.parametrize("block, line, symbol", [
    ("stability:\n  ignorable: [z]\n  vary: {name: k, from: 0, to: 1}\n", 9, "z"),
    ("stability:\n  speeds: [x]\n  vary: {name: k, from: 0, to: 1}\n", 9, "x"),
    ("stability:\n  point: {q: 0}\n  vary: {name: k, from: 0, to: 1}\n", 9, "q"),
    ("stability:\n  vary: {name: c, from: 0, to: 1}\n", 9, "c"),
    ("stability:\n  vary: {name: k, from: 1, to: 1}\n", 9, "to"),
    ("stability:\n  vary: {name: k, from: 0, to: 1, count: 1.5}\n", 9, "count"),
    ("stability:\n  ignorable: [y]\n", 9, "vary"),
    ("stability:\n  vary: {name: k, from: 0, to: 1}\n  colour: red\n", 10, "colour"),
])
def test_a_bad_stability_block_names_line_and_key(block, line, symbol):
    with pytest.raises(dirac.ScenarioError) as e:
        dirac.loads(SPRING + block, origin="spring.yaml")
    assert (e.value.file, e.value.line, e.value.symbol) == ("spring.yaml", line, symbol), str(e.value)


def test_a_valid_stability_block_reads_and_its_sweep_is_the_springs():
    # The spring's block (y ignorable, at x = 0 at rest) swept over k: the eigenvalues +-i sqrt(k).
    text = SPRING + ("stability:\n  ignorable: [y]\n  point: {vx: 0}\n"
                     "  vary: {name: k, from: 1, to: 4, count: 4}\n")
    model = dirac.loads(text).derive()
    sweep = model.stability_sweep("k", [1.0, 2.0, 3.0, 4.0], ignorable=["y"], set={"vx": 0})
    assert sweep.states == ["x", "vx"]
    for k, row in zip([1, 2, 3, 4], sweep.eigenvalues):
        assert np.abs(np.sort(row.imag) - [-np.sqrt(k), np.sqrt(k)]).max() < 1e-12
        assert np.abs(row.real).max() < 1e-12

