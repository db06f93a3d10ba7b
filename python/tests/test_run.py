"""Runs through the module give the CLI's numbers to the bit; set= derives nothing again."""

import json
import threading

import numpy as np
import pytest

import dirac
from conftest import SCENARIOS, assert_same_bits

# Every shipped scenario (each formulation: index-1 DAE, constraint algorithm, vakonomic,
# second order, Lie algebroids with reconstruction, optimal control's Pontryagin bundle).
SHIPPED = sorted(p.name for p in SCENARIOS.glob("*.yaml"))


def test_every_shipped_scenario_is_compared():
    assert len(SHIPPED) >= 17 and "heisenberg.yaml" in SHIPPED


@pytest.mark.parametrize("name", SHIPPED)
def test_run_equals_cli_csv_bit_for_bit(cli, name):
    header, rows = cli("run", SCENARIOS / name, "--t-end", "2")
    result = dirac.load(str(SCENARIOS / name)).derive().run(t_end=2)
    assert_same_bits(result, header, rows)


def test_set_values_equal_cli_set_without_rederiving(cli):
    model = dirac.load(str(SCENARIOS / "heisenberg.yaml")).derive()
    before = dirac.derivations()
    result = model.run(t_end=3, set={"ky": 2.5, "x": 0.7, "output_step": 0.02})
    default = model.run(t_end=3)
    assert dirac.derivations() == before
    header, rows = cli("run", SCENARIOS / "heisenberg.yaml", "--t-end", "3", "--set", "ky=2.5",
                       "--set", "x=0.7", "--set", "output_step=0.02")
    assert_same_bits(result, header, rows)
    assert len(default) == 301 and len(result) == 151
    assert result["x"][0] == 0.7 and default["x"][0] == 1.0


def test_arrays_are_read_only_views_of_one_trajectory():
    r = dirac.load(str(SCENARIOS / "heisenberg.yaml")).derive().run(t_end=1)
    table = r.to_numpy()
    mu = r["mu"]
    assert np.shares_memory(mu, table) and np.shares_memory(r.t, table)
    assert not mu.flags.writeable and not table.flags.writeable
    assert mu.tolist() == table[:, r.columns.index("mu")].tolist()
    assert r.t[0] == 0.0 and r.t[-1] == 1.0 and len(r) == 101
    del r, table
    assert np.isfinite(mu).all()  # the view keeps the trajectory alive
    with pytest.raises(KeyError):
        dirac.load(str(SCENARIOS / "heisenberg.yaml")).derive().run(t_end=0.1)["nope"]


def test_reprs_say_what_an_object_is():
    s = dirac.load(str(SCENARIOS / "heisenberg.yaml"))
    assert repr(s) == ("<dirac.Scenario 'Heisenberg particle' from " + str(SCENARIOS) +
                       "/heisenberg.yaml: 3 coordinates, 2 parameters, 1 constraint>")
    m = s.derive()
    assert repr(m).startswith("<dirac.Model 'Heisenberg particle': " + m.formulation)
    assert repr(m).endswith(", 3 coordinates, 1 constraint>")
    assert repr(m.run(t_end=2)) == ("<dirac.Result 'Heisenberg particle': 201 samples x "
                                    f"{len(m.columns)} columns, t = 0 .. 2 s>")


def test_equations_and_analyze_are_the_clis(cli):
    path = SCENARIOS / "lc_circuit.yaml"
    model = dirac.load(str(path)).derive()
    printed = cli("equations", path, "--latex", csv_out=False).splitlines()
    assert printed[1:] == [f"{label}: {text}" for label, text in model.equations(latex=True)]
    assert model.analyze() == json.loads(cli("analyze", path, "--json", csv_out=False))


def test_two_threads_run_two_models_at_once():
    models = [dirac.load(str(SCENARIOS / n)).derive() for n in ("heisenberg.yaml",
                                                                "rigid_body.yaml")]
    alone = [m.run(t_end=20).to_numpy().tolist() for m in models]
    together = [None, None]

    def work(k):
        together[k] = models[k].run(t_end=20).to_numpy().tolist()

    threads = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert together == alone


def test_the_gil_is_released_during_a_run():
    model = dirac.load(str(SCENARIOS / "heisenberg.yaml")).derive()
    ticks = [0]
    marks = []  # the main thread's ticks, read by the run's progress callback
    thread = threading.Thread(
        target=lambda: model.run(t_end=400, progress=lambda t, end: marks.append(ticks[0])))
    thread.start()
    while thread.is_alive():
        ticks[0] += 1
    thread.join()
    # Between its first and last progress call the run held the GIL only at its ~50 polls;
    # holding it throughout, it would leave this loop no time at all.
    assert len(marks) >= 10 and marks[-1] - marks[0] > 1000


def test_progress_is_called_and_can_stop_a_run():
    model = dirac.load(str(SCENARIOS / "heisenberg.yaml")).derive()
    seen = []
    r = model.run(t_end=10, progress=lambda t, end: seen.append((t, end)))
    assert len(seen) >= 10 and seen[-1] == (10.0, 10.0) and not r.report["cancelled"]
    stopped = model.run(t_end=10, progress=lambda t, end: t < 2)
    assert stopped.report["cancelled"] and stopped.t[-1] < 10


def test_two_threads_truly_overlap_and_match_single_threaded_runs_bit_for_bit():
    names = ("heisenberg.yaml", "rigid_body.yaml")
    # Derived in two threads at once too: the symbolic lock takes them in turn.
    models = [None, None]
    derivers = [threading.Thread(target=lambda k=k: models.__setitem__(
        k, dirac.load(str(SCENARIOS / names[k])).derive())) for k in range(2)]
    for t in derivers:
        t.start()
    for t in derivers:
        t.join()
    settings = [{"t_end": 1500, "set": {"ky": 2.0, "output_step": 0.5}},
                {"t_end": 1500, "set": {"output_step": 0.5}}]
    alone = [m.run(**s).to_numpy().tolist() for m, s in zip(models, settings)]
    together = [None, None]
    events = []  # the thread of each progress call, in order (list.append is atomic)
    start = threading.Barrier(2)

    def work(k):
        start.wait()
        together[k] = models[k].run(
            **settings[k], progress=lambda t, end: events.append(k)).to_numpy().tolist()

    threads = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert together[0] == alone[0] and together[1] == alone[1]  # bit for bit
    # Both runs were in flight at once: their progress calls interleave, rather than one
    # thread's ~50 calls all coming before the other's (as with the GIL held throughout).
    switches = sum(a != b for a, b in zip(events, events[1:]))
    print(f"{len(events)} progress calls, {switches} switches between the two threads")
    assert events.count(0) >= 10 and events.count(1) >= 10
    assert switches >= 3


def test_the_fixed_step_methods_are_chosen_with_set_as_on_the_cli(cli):
    """simulation.method from Python: the same names, numbers and refusals as --set."""
    torus = dirac.load(str(SCENARIOS / "ideal_fluid_torus.yaml")).derive()
    r = torus.run(t_end=1, set={"method": "isospectral", "step": 0.01, "output_step": 0.05})
    assert r.report["method"].startswith("isospectral midpoint")
    header, rows = cli("run", SCENARIOS / "ideal_fluid_torus.yaml", "--t-end", "1", "--set",
                       "method=isospectral", "--set", "step=0.01", "--set", "output_step=0.05")
    assert_same_bits(r, header, rows)
    assert max(abs(r["casimir_drift"])) < 1e-12
    body = dirac.load(str(SCENARIOS / "rigid_body.yaml")).derive()
    b = body.run(t_end=1, set={"method": "lie_variational", "step": 0.01})
    assert b.report["method"].startswith("lie_variational")
    with pytest.raises(dirac.ModelError, match="isospectral does not apply"):
        body.run(t_end=1, set={"method": "isospectral", "step": 0.01})
