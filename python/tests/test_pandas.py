"""pandas when installed: Result.to_pandas() and sweep(as_frame=True) hold the same numbers as
the NumPy arrays; without pandas both raise an ImportError that says what to install."""

import sys

import numpy as np
import pandas  # Debian's python3-pandas, installed by scripts/install-deps.sh
import pytest

import dirac
from conftest import SCENARIOS


@pytest.fixture(scope="module")
def model():
    return dirac.load(str(SCENARIOS / "heisenberg.yaml")).derive()


def test_to_pandas_is_a_copy_of_the_same_numbers(model):
    r = model.run(t_end=2, set={"ky": 2.0})
    frame = r.to_pandas()
    assert isinstance(frame, pandas.DataFrame)
    assert list(frame.columns) == r.columns and frame.shape == (201, len(r.columns))
    assert frame.to_numpy().tolist() == r.to_numpy().tolist()  # bit for bit
    assert frame["mu"].tolist() == r["mu"].tolist() and frame["t"].iloc[-1] == 2.0
    frame.loc[0, "x"] = 99.0  # a copy: writable, and the result is untouched
    assert r["x"][0] == 1.0


def test_sweep_as_frame_is_the_record_array_as_a_dataframe(model):
    vary = {"ky": (0.5, 4, 5), "x": (0.5, 1, 2)}
    table = dirac.sweep(model, vary=vary, t_end=1, jobs=2)
    frame = dirac.sweep(model, vary=vary, t_end=1, jobs=2, as_frame=True)
    assert isinstance(frame, pandas.DataFrame) and len(frame) == 10
    assert tuple(frame.columns) == table.dtype.names
    for name in table.dtype.names:
        if table[name].dtype.kind == "f":
            assert np.array_equal(frame[name].to_numpy(), table[name], equal_nan=True), name
        else:
            assert frame[name].tolist() == table[name].tolist(), name
    assert frame["ky"].tolist() == [0.5, 0.5, 1.375, 1.375, 2.25, 2.25, 3.125, 3.125, 4, 4]
    assert (frame["status"] == "ok").all()


def test_without_pandas_both_raise_a_clear_import_error(model, monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)  # `import pandas` now fails
    r = model.run(t_end=0.5)
    with pytest.raises(ImportError, match=r"Result.to_pandas\(\) needs pandas.*python3-pandas"):
        r.to_pandas()
    with pytest.raises(ImportError, match=r"sweep\(as_frame=True\) needs pandas") as e:
        dirac.sweep(model, vary={"ky": (1, 2, 2)}, t_end=0.5, as_frame=True)
    assert isinstance(e.value.__cause__, ImportError)
    assert len(r.to_numpy()) == 51  # NumPy still works
    assert len(dirac.sweep(model, vary={"ky": (1, 2, 2)}, t_end=0.5)) == 2
