"""Model.linearize_along: A(t), B(t) along a run (docs/linearization.md, "Along a run"), from a
Result, a path to the CLI's run CSV or an array, equal to `dirac linearize --along` (CSV, the
same doubles) and refusing a run of another scenario."""

import json
import pathlib
import subprocess

import numpy as np
import pytest

import dirac
from conftest import ROOT, cli_path, read_csv

DISK = ROOT / "tests" / "linearization" / "rolling_disk.yaml"
BODY = ROOT / "tests" / "linearization" / "rigid_body.yaml"


@pytest.fixture(scope="module")
def disk():
    return dirac.load(str(DISK)).derive()


def test_result_path_and_array_give_the_clis_matrices(disk, tmp_path):
    run_csv, along_csv = tmp_path / "run.csv", tmp_path / "along.csv"
    subprocess.run([cli_path(), "run", str(DISK), "--set", "t_end=0.2", "--csv", str(run_csv),
                    "--quiet"], check=True)
    subprocess.run([cli_path(), "linearize", str(DISK), "--along", str(run_csv), "--csv",
                    str(along_csv), "--quiet"], check=True)
    header, rows = read_csv(along_csv)
    cli = np.array(rows)
    assert header[0] == "t" and header[1] == "A_1_1" and len(header) == 1 + 64

    lin = disk.linearize_along(run_csv)  # os.PathLike
    assert lin.states == ["x", "y", "theta", "alpha", "phi", "vtheta", "valpha", "vphi"]
    assert lin.dependent_speeds == ["vx", "vy"]
    assert lin.A.shape == (21, 8, 8) and lin.A.dtype == np.float64
    assert lin.B.shape == (21, 8, 0)
    assert np.array_equal(lin.t, cli[:, 0])
    assert np.array_equal(lin.A.reshape(21, 64), cli[:, 1:])

    # The same run as a Result and as an array of t and the state columns.
    result = disk.run(t_end=0.2)
    from_result = disk.linearize_along(result)
    assert np.abs(from_result.A - lin.A).max() < 1e-12 * np.abs(lin.A).max()
    columns = disk.linearize_along_columns
    assert columns == ["x", "y", "theta", "alpha", "phi", "vx", "vy", "vtheta", "valpha", "vphi"]
    array = np.column_stack([result.t] + [result[name] for name in columns])
    from_array = disk.linearize_along(array)
    assert np.array_equal(from_array.A, from_result.A)
    assert json.loads(lin.to_json())["rows"][3]["A"] == lin.A[3].tolist()


def test_named_ignorable_coordinates_are_dropped_and_checked(disk):
    result = disk.run(t_end=0.1)
    lin = disk.linearize_along(result, ignorable=["x", "y", "theta", "phi"])
    assert lin.states == ["alpha", "vtheta", "valpha", "vphi"]
    assert lin.A.shape == (11, 4, 4)
    with pytest.raises(dirac.ModelError, match="'alpha' is not an ignorable coordinate"):
        disk.linearize_along(result, ignorable=["alpha"])


def test_a_run_of_another_scenario_is_refused(disk):
    body = dirac.load(str(BODY)).derive().run(t_end=0.1)
    with pytest.raises(dirac.ModelError, match="missing the columns x, y, theta, alpha, phi"):
        disk.linearize_along(body)
    with pytest.raises(TypeError, match="T x 11 array"):
        disk.linearize_along(np.zeros((3, 4)))
