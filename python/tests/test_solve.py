"""Optimal control from Python: the CLI's solution to the bit, warm re-solves."""

import pytest

import dirac
from conftest import SCENARIOS, assert_same_bits

SPLINE = SCENARIOS / "so3_spline.yaml"


@pytest.fixture(scope="module")
def spline():
    return dirac.load(str(SPLINE)).derive()


def test_solve_equals_cli_bit_for_bit(cli, spline):
    header, rows = cli("solve", SPLINE, "--set", "final.R.z=1.0")
    printed = cli("solve", SPLINE, "--set", "final.R.z=1.0", csv_out=False)
    o = spline.solve(set={"final.R.z": 1.0})
    assert_same_bits(o.trajectory, header, rows)
    assert printed.splitlines()[0].startswith("cost = ")
    assert float(printed.splitlines()[0][len("cost = "):]) == o.cost
    assert o.report["converged"] and not o.report["warm_started"]
    assert repr(o).startswith("<dirac.Solution 'Cubic splines on SO(3) (optimal control)': cost")


def test_resolve_is_warm_and_agrees_with_a_cold_solve(spline):
    o = spline.solve(set={"final.R.z": 1.0})
    before = dirac.derivations()
    warm = o.resolve(set={"I2": 2.2})
    cold = spline.solve(set={"final.R.z": 1.0, "I2": 2.2})
    assert dirac.derivations() == before
    assert warm.report["warm_started"] and warm.report["converged"]
    assert abs(warm.cost - cold.cost) <= 1e-8 * abs(cold.cost)


def test_a_solve_stopped_by_its_progress_callback_raises_solve_error(spline):
    calls = []
    with pytest.raises(dirac.SolveError) as e:
        spline.solve(set={"final.R.z": 1.0}, progress=lambda it, res: calls.append(it) or False)
    assert calls == [1] and e.value.report["converged"] is False


def test_sweep_writes_the_clis_table_byte_for_byte(tmp_path):
    import subprocess
    from conftest import cli_path
    heisenberg = SCENARIOS / "heisenberg.yaml"
    subprocess.run([cli_path(), "sweep", str(heisenberg), "--vary", "ky=0.5:4:6", "--vary",
                    "x=0.5:1:2", "--t-end", "2", "--jobs", "2", "--no-wall-time", "--quiet",
                    "--out", str(tmp_path / "cli")], check=True)
    s = dirac.load(str(heisenberg))
    table = dirac.sweep(s.derive(), vary={"ky": (0.5, 4, 6), "x": (0.5, 1, 2)}, jobs=2,
                        out_dir=str(tmp_path / "py"), t_end=2)
    assert (tmp_path / "py" / "summary.csv").read_bytes() == \
        (tmp_path / "cli" / "summary.csv").read_bytes()
    assert len(table) == 12 and list(table.status) == ["ok"] * 12
    assert table.ky[1] == 0.5 and table.x[1] == 1.0
    assert table.dtype.names[:3] == ("run", "ky", "x")


SOLVABLE = {"cubic_spline_bvp.yaml", "elroys_beanie_ocp.yaml", "heisenberg_geodesic.yaml",
            "so3_spline.yaml"}


@pytest.mark.parametrize("name", sorted(p.name for p in SCENARIOS.glob("*.yaml")))
def test_every_shipped_scenario_solves_or_refuses_as_the_cli(tmp_path, name):
    """The four shipped boundary-value and optimal-control problems give `dirac solve --csv`'s
    numbers to the bit; the other scenarios raise the error the CLI prints."""
    import subprocess
    from conftest import cli_path, read_csv
    path = SCENARIOS / name
    out = tmp_path / "solve.csv"
    cli = subprocess.run([cli_path(), "solve", str(path), "--quiet", "--csv", str(out)],
                         capture_output=True, text=True)
    model = dirac.load(str(path)).derive()
    if cli.returncode == 0:
        assert_same_bits(model.solve().trajectory, *read_csv(out))
        return
    assert name not in SOLVABLE
    with pytest.raises((dirac.ModelError, dirac.ScenarioError)) as e:
        model.solve()
    assert cli.returncode == 1 and str(e.value) in cli.stderr
