"""A run that blows up warns dirac.DivergenceWarning (docs/robustness.md, "Diverged runs")."""

import warnings

import pytest

import dirac
from conftest import ROOT, SCENARIOS


def test_blowing_up_run_warns_with_the_time():
    model = dirac.load(str(ROOT / "tests" / "scenarios" / "heisenberg_unstable.yaml")).derive()
    with pytest.warns(dirac.DivergenceWarning, match="diverged at t = "):
        result = model.run()
    assert issubclass(dirac.DivergenceWarning, RuntimeWarning)
    report = result.report
    assert 0 < report["diverged_at"] < 50
    assert "> bound" in report["divergence"]
    assert report["max_constraint_residual"] > 1e3
    # The whole run is returned.
    assert result.t[-1] == pytest.approx(50.0)


def test_stable_run_does_not_warn():
    model = dirac.load(str(SCENARIOS / "heisenberg.yaml")).derive()
    with warnings.catch_warnings():
        warnings.simplefilter("error", dirac.DivergenceWarning)
        result = model.run(t_end=5)
    assert result.report["diverged_at"] is None
    assert result.report["divergence"] == ""
