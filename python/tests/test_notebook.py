"""docs/examples/dirac_tour.ipynb executes headless (nbconvert) and writes its plots."""

import os
import subprocess
import sys

from conftest import ROOT

NOTEBOOK = ROOT / "docs" / "examples" / "dirac_tour.ipynb"
PLOTS = ("tour_heisenberg.png", "tour_sweep.png", "tour_control.png")


def test_the_tour_notebook_runs_and_writes_its_plots(tmp_path):
    # The kernel runs in the notebook's folder: the module's path made absolute.
    path = os.pathsep.join(os.path.abspath(p) for p in os.environ["PYTHONPATH"].split(os.pathsep))
    env = dict(os.environ, PYTHONPATH=path, DIRAC_ROOT=str(ROOT), DIRAC_PLOTS=str(tmp_path),
               MPLCONFIGDIR=str(tmp_path / "mpl"))
    subprocess.run([sys.executable, "-m", "nbconvert", "--to", "notebook", "--execute",
                    "--ExecutePreprocessor.timeout=300", "--output-dir", str(tmp_path),
                    str(NOTEBOOK)], env=env, check=True, capture_output=True)
    for name in PLOTS:
        data = (tmp_path / name).read_bytes()
        assert data.startswith(b"\x89PNG") and len(data) > 10000, name
    assert (tmp_path / "dirac_tour.ipynb").exists()
