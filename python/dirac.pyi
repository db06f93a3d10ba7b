"""Type hints of the Python module `dirac` (Dirac Studio's engine; docs/python.md).

Units: times in seconds [s]; every other value in the units its scenario gives it (a
parameter's `unit:`, a coordinate's `unit:`; velocities in those units per second).
"""

import os
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

ComplexArray = numpy.typing.NDArray[numpy.complex128]

class LinearMode:
    """One eigenvalue of a linearization with its mode shape."""

    @property
    def eigenvalue(self) -> complex:
        """The eigenvalue [1/s]."""
    @property
    def shape(self) -> ComplexArray:
        """The eigenvector over Linearization.states, its largest coordinate component 1."""
    @property
    def dominant(self) -> List[str]:
        """States whose |component| is at least half the largest, largest first."""

class Linearization:
    """dx/dt = A x + B u about an equilibrium or steady motion, on the constraint manifold."""

    @property
    def formulation(self) -> str: ...
    @property
    def states(self) -> List[str]:
        """The kept independent coordinates, then the kept speeds: the rows of A."""
    @property
    def num_coordinate_states(self) -> int: ...
    @property
    def controls(self) -> List[str]: ...
    @property
    def A(self) -> FloatArray:
        """states x states [1/s]."""
    @property
    def B(self) -> FloatArray:
        """states x controls."""
    @property
    def M(self) -> FloatArray:
        """The mass matrix over the kept speeds (empty for an explicit flow)."""
    @property
    def eigenvalues(self) -> ComplexArray:
        """Eigenvalues of A [1/s], by real part then imaginary part, largest first (as the CLI)."""
    @property
    def modes(self) -> List[LinearMode]:
        """One mode per eigenvalue with imaginary part >= 0."""
    @property
    def dependent_coordinates(self) -> List[str]: ...
    @property
    def independent_speeds(self) -> List[str]: ...
    @property
    def dependent_speeds(self) -> List[str]: ...
    @property
    def ignorable_named(self) -> List[str]: ...
    @property
    def ignorable_found(self) -> List[str]: ...
    @property
    def dropped_speeds(self) -> List[str]: ...
    @property
    def point(self) -> Dict[str, float]:
        """The operating point {name: value}, dependent values solved."""
    @property
    def rate_residual(self) -> float: ...
    @property
    def rate_residual_state(self) -> str: ...
    def to_json(self) -> str:
        """The report as `dirac linearize --json` prints it."""

class StabilitySweep:
    """Eigenvalues along a parameter, as `dirac linearize --vary`."""

    @property
    def parameter(self) -> str: ...
    @property
    def states(self) -> List[str]: ...
    @property
    def values(self) -> FloatArray:
        """The values swept, as given."""
    @property
    def eigenvalues(self) -> ComplexArray:
        """values x branches [1/s]: each column one continuous branch (the CLI's CSV columns)."""
    @property
    def critical(self) -> List[Dict[str, object]]:
        """value, branch (0-based), eigenvalue, oscillatory, stabilizing, collision; by value."""
    @property
    def critical_values(self) -> FloatArray:
        """Where a branch's real part crosses zero (refined to 1e-12), ascending."""
    @property
    def stable_intervals(self) -> FloatArray:
        """k x 2: the intervals with no eigenvalue of positive real part."""
    def summary(self) -> str:
        """The critical values and stable intervals as text."""
    def to_csv(self) -> str:
        """The sweep as `dirac linearize --vary --csv` writes it."""

class TrajectoryLinearization:
    """A(t), B(t) on the constraint manifold along a run, as `dirac linearize --along`."""

    @property
    def formulation(self) -> str: ...
    @property
    def states(self) -> List[str]:
        """Independent coordinates (named ignorable ones dropped), then independent speeds."""
    @property
    def num_coordinate_states(self) -> int: ...
    @property
    def controls(self) -> List[str]: ...
    @property
    def dependent_coordinates(self) -> List[str]:
        """Chosen at the first row and kept."""
    @property
    def dependent_speeds(self) -> List[str]:
        """Chosen at the first row and kept."""
    @property
    def ignorable(self) -> List[str]: ...
    @property
    def manifold_residual(self) -> float:
        """The largest |constraint residual| of the rows as given."""
    @property
    def chart_quality(self) -> float:
        """The chart's smallest conditioning relative to the first row's (below 0.01: refused)."""
    @property
    def t(self) -> FloatArray:
        """The run's times [s] (T)."""
    @property
    def A(self) -> FloatArray:
        """T x states x states [1/s]: A[i] = dz'/dz at t[i]."""
    @property
    def B(self) -> FloatArray:
        """T x states x controls."""
    def to_json(self) -> str:
        """As `dirac linearize --along RUN.csv --json` prints it."""

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
    def linearize(
        self,
        *,
        ignorable: List[str] = [],
        speeds: List[str] = [],
        find: bool = False,
        set: Optional[SetValues] = None,
        tolerance: float = 1e-8,
        progress: Optional[Callable[[str], Optional[bool]]] = None,
    ) -> Linearization:
        """Linearizes about the scenario's state with the set= values, on the constraint manifold,
        as `dirac linearize --ignorable ... --speeds ... [--find] --set ...`.

        Derived once per model and choice of ignorable/speeds/find/tolerance [state units/s]
        (progress(stage) during that derivation); ModelError if the point is no equilibrium or
        steady motion (naming the state and by how much).
        """
    def stability_sweep(
        self,
        name: str,
        values: Union[FloatArray, List[float]],
        *,
        ignorable: List[str] = [],
        speeds: List[str] = [],
        find: bool = False,
        set: Optional[SetValues] = None,
        tolerance: float = 1e-8,
        progress: Optional[Callable[[str], Optional[bool]]] = None,
    ) -> StabilitySweep:
        """Linearizes at each of `values` of `name` (at least 2, strictly monotone), as
        `dirac linearize --vary`: branches matched, zero crossings refined to 1e-12.

        Ctrl+C raises KeyboardInterrupt. Other arguments as linearize().
        """
    def linearize_along(
        self,
        run: Union[Result, str, "os.PathLike[str]", FloatArray],
        *,
        ignorable: List[str] = [],
        speeds: List[str] = [],
        set: Optional[SetValues] = None,
        manifold_tolerance: float = 1e-6,
        progress: Optional[Callable[[str], Optional[bool]]] = None,
    ) -> TrajectoryLinearization:
        """A(t), B(t) on the constraint manifold at every row of `run`, as
        `dirac linearize --along`: a Result of run(), a path to a run's CSV, or a T x (1 + states)
        array of t and linearize_along_columns.

        The chart is chosen at the first row and kept; only the named ignorable coordinates are
        dropped; no equilibrium check. ModelError for missing state columns, a row off the
        constraint manifold beyond manifold_tolerance, or an ill-conditioned chart (naming the
        row).
        """
    @property
    def linearize_along_columns(self) -> List[str]:
        """The state columns linearize_along reads after t: coordinates, then velocities."""

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
