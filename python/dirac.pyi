"""Type hints of the Python module `dirac` (Dirac Studio's engine; docs/python.md).

Units: times in seconds [s]; every other value in the units its scenario gives it (a
parameter's `unit:`, a coordinate's `unit:`; velocities in those units per second).
"""

from typing import Callable, Dict, List, Mapping, Optional, Tuple, Union

import numpy
import numpy.typing

FloatArray = numpy.typing.NDArray[numpy.float64]
SetValues = Mapping[str, Union[float, int, str]]

class Error(Exception):
    """Root of the errors of the dirac engine."""

class ScenarioError(Error):
    """A scenario file, its text or a set= value is malformed; str(e) is 'FILE:LINE: message'."""

    file: str
    """The scenario's path ('' for text without a file)."""
    line: int
    """1-based line of the offending key; 0 when unknown (e.g. a set= name)."""
    symbol: str
    """The offending symbol or key ('' if none)."""

class ModelError(Error):
    """The model cannot be handled (a singular constraint matrix, no explicit flow, ...)."""

class NumericalError(Error):
    """An integrator or solver failed (a SUNDIALS error, a step size underflow)."""

class SolveError(NumericalError):
    """An optimal-control or boundary-value solve did not converge."""

    report: Dict[str, object]
    """The solve's report, as `dirac solve --json` prints it."""

class IoError(Error):
    """A file could not be read or written."""

class DerivationCancelled(Error):
    """A derivation was stopped by its progress callback."""

class DivergenceWarning(RuntimeWarning):
    """Warned by run() when the run finished but diverged: its constraint residual or energy
    drift left the bound derived from the tolerances (docs/robustness.md, "Diverged runs"); the
    result's report has diverged_at (the time) and divergence (what left its bound)."""

class Result:
    """A sampled trajectory; the arrays are read-only views of the engine's samples (no copy)."""

    @property
    def t(self) -> FloatArray:
        """Sample times [s]."""
    @property
    def columns(self) -> List[str]:
        """Column names, as in the CLI's CSV header (column 0 is 't')."""
    @property
    def report(self) -> Dict[str, object]:
        """What the integrator (or solver) did: method, steps, max_constraint_residual, ..."""
    def __getitem__(self, name: str) -> FloatArray:
        """The column `name` in its scenario units; KeyError if absent."""
    def __contains__(self, name: str) -> bool: ...
    def __len__(self) -> int:
        """Number of samples."""
    def to_numpy(self) -> FloatArray:
        """All samples, shape (samples, columns); row i at time t[i] [s]."""
    def to_pandas(self) -> "pandas.DataFrame":  # type: ignore[name-defined]
        """The samples as a DataFrame (a copy), columns named as `columns`; ImportError
        without pandas."""

class Scenario:
    """A scenario as read from its file, before derivation."""

    @property
    def name(self) -> str: ...
    @property
    def file(self) -> str:
        """The path it was read from ('' for text)."""
    @property
    def description(self) -> str: ...
    @property
    def parameters(self) -> Dict[str, float]:
        """{name: value} of the live parameters, in the scenario's units."""
    @property
    def coordinates(self) -> List[str]:
        """Names of the configuration coordinates q^i."""
    def value(self, name: str) -> Optional[float]:
        """The current value of a set= name (t_end and output_step in [s]), or None."""
    def derive(self, *, progress: Optional[Callable[[str], Optional[bool]]] = None) -> "Model":
        """Derives the model once (Ctrl+C stops it); progress(stage) names each stage.

        A progress that returns False cancels the derivation: DerivationCancelled.
        """

class Solution:
    """A converged optimal-control (or boundary-value) solve."""

    @property
    def cost(self) -> float:
        """int_0^T C dt along the optimal motion, in the cost's units (T [s])."""
    @property
    def trajectory(self) -> Result:
        """The optimal motion sampled at the scenario's output_step [s]."""
    @property
    def report(self) -> Dict[str, object]:
        """The dict `dirac solve --json` prints, and hamiltonian_drift."""
    def resolve(
        self,
        *,
        set: Optional[SetValues] = None,
        progress: Optional[Callable[[int, float], Optional[bool]]] = None,
    ) -> "Solution":
        """Solves again with set= applied on top of this solution's values, warm-started."""

class Model:
    """A derived model; run and solve take set= values without deriving again."""

    @property
    def formulation(self) -> str: ...
    @property
    def columns(self) -> List[str]:
        """Columns of the trajectories run() returns (column 0 is 't' [s])."""
    @property
    def constraints(self) -> List[str]:
        """Names of the scenario's nonholonomic constraints."""
    @property
    def scenario(self) -> Scenario:
        """A copy of the scenario the model was derived from."""
    def run(
        self,
        *,
        t_end: Optional[float] = None,
        set: Optional[SetValues] = None,
        progress: Optional[Callable[[float, float], Optional[bool]]] = None,
    ) -> Result:
        """Integrates from t = 0 to t_end [s] with the set= values (as the CLI's --set).

        progress(t [s], t_end [s]) is called about 50 times; return False to stop.
        Ctrl+C raises KeyboardInterrupt.
        """
    def equations(self, *, latex: bool = False) -> List[Tuple[str, str]]:
        """The derived equations as (label, text) pairs, as `dirac equations` prints them."""
    def analyze(
        self, *, progress: Optional[Callable[[str], Optional[bool]]] = None
    ) -> Dict[str, object]:
        """The constraint algorithm's report: what `dirac analyze --json` prints."""
    def solve(
        self,
        *,
        set: Optional[SetValues] = None,
        progress: Optional[Callable[[int, float], Optional[bool]]] = None,
    ) -> Solution:
        """Solves the scenario's optimal control problem; SolveError if it does not converge.

        progress(iteration, max |F|) is called after each Newton iteration.
        """

def load(path: str) -> Scenario:
    """Reads and checks a scenario file; ScenarioError names the file, line and symbol."""

def loads(text: str, origin: str = "<string>") -> Scenario:
    """Parses a scenario from YAML text; `origin` names it in error messages."""

def sweep(
    model: Union[Model, Scenario],
    *,
    vary: Mapping[str, Tuple[float, float, int]] = {},
    random: Mapping[str, Tuple[float, float]] = {},
    samples: int = 0,
    seed: int = 0,
    jobs: int = 1,
    out_dir: Optional[str] = None,
    trajectories: bool = False,
    wall_time: bool = False,
    set: Optional[SetValues] = None,
    t_end: Optional[float] = None,
    progress: Optional[Callable[[int, int], Optional[bool]]] = None,
    as_frame: bool = False,
) -> Union[numpy.recarray, "pandas.DataFrame"]:  # type: ignore[name-defined]
    """A parameter sweep as `dirac sweep`: the summary table, one record per run.

    The runs start from the scenario with the set= values and t_end [s] applied.
    vary: {name: (start, stop, count)} grid axes; random: {name: (low, high)}, `samples` draws.
    Columns: run, the varied values, final_<column>, max_constraint_residual,
    max_energy_drift, steps, status, message (and wall_time_s [s] with wall_time=True).
    as_frame=True: the same table as a pandas.DataFrame (ImportError without pandas).
    """

def derivations() -> int:
    """Number of derivations (Scenario.derive, Model.analyze) this process made."""
