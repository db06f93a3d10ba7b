"""Shared helpers of the tests of the Python module `dirac` (run by ctest: python_module)."""

import csv
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"


def build_dir():
    """The build tree the module under test comes from (ctest sets DIRAC_BUILD_DIR)."""
    return pathlib.Path(os.environ.get("DIRAC_BUILD_DIR", str(ROOT / "build")))


def cli_path():
    return os.environ.get("DIRAC_CLI", str(build_dir() / "app" / "dirac"))


def read_csv(path):
    """Header and rows of a CSV the CLI wrote, the numbers parsed exactly (17 digits)."""
    with open(path, newline="") as f:
        rows = [row for row in csv.reader(f) if row and not row[0].startswith("#")]
    return rows[0], [[float(x) for x in row] for row in rows[1:]]


@pytest.fixture(scope="session")
def pendulum_chain(tmp_path_factory):
    """A 40-link pendulum's scenario (dirac generate): a derivation of about 2 s."""
    path = tmp_path_factory.mktemp("chain") / "chain40.yaml"
    subprocess.run([cli_path(), "generate", "pendulum_chain", "40", "-o", str(path), "--quiet"],
                   check=True)
    return path


@pytest.fixture
def cli(tmp_path):
    """cli(command, scenario, *flags) -> (header, rows) of the CSV it writes, or its stdout."""

    def run(command, scenario, *flags, csv_out=True):
        args = [cli_path(), command, str(scenario), "--quiet", *flags]
        out = tmp_path / "cli.csv"
        if csv_out:
            args += ["--csv", str(out)]
        done = subprocess.run(args, capture_output=True, text=True, check=True)
        return read_csv(out) if csv_out else done.stdout

    return run


def assert_same_bits(result, header, rows):
    """The module's result holds exactly the CLI's numbers (bit for bit)."""
    assert result.columns == header
    table = result.to_numpy()
    assert table.shape == (len(rows), len(header))
    assert table.tolist() == rows
