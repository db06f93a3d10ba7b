#pragma once
/// @file gauge_two_form.hpp
/// The gauge two-form of a nonholonomic flow (seed D Prop 2.7, Thm 3.14): along the flow phi_t
/// of a regular Lagrangian with constraints on Delta_Q = {(q, v) : omega(q) v = 0},
///   phi_t^*(i^* Omega_L) = i^* Omega_L + B_t,   B_t = int_0^t phi_s^* d(i^* beta) ds,
/// beta = -mu_r omega^r dq (the constraint force; with d/dt dL/dv - dL/dq = mu_r omega^r).
/// Both sides are computed independently: the left from the flow Jacobian Phi_t (variational
/// equation integrated with the motion), the right by integrating B_t; their difference is
/// reported. B_t = 0 for holonomic constraints and unconstrained systems (Remark 2.9).
/// The GUI and CLI use the model's capability (Model::gauge_two_form(), derived once with the
/// model); this header is the scenario-level entry. Layer: lagrange_dirac.

#include <string>

#include "dirac/scenario_spec.hpp"
#include "dirac/simulation_types.hpp"
#include "dirac/trajectory.hpp"

namespace dirac {

/// Integrates the motion from the scenario's initial point x0 (projected onto Delta_Q) with its
/// flow Jacobian and the gauge two-form on T_x0 Delta_Q (an orthonormal basis T, d = 2n - m).
/// Columns: t, the coordinates and velocities; B_ij (i < j): B_t on the admissible subbundle
/// K = {w in T Delta_Q : omega(q) dq = 0} of Thm 3.14 (orthonormal basis, dim 2n - 2m);
/// B_norm (max |B_ij| on K), B_full_norm (on T Delta_Q), omega_change
/// (max |Phi^T Omega Phi - Omega| on T Delta_Q), identity_residual
/// (max |Phi^T Omega Phi - Omega - B_t| on T Delta_Q).
/// Derives the flow with GiNaC on every call (one thread at a time); for repeated runs use
/// BuildModel(scenario)->gauge_two_form()->Compute(input). `progress` is called after every 2% of
/// the samples and at least every 5 ms of wall time, also from inside one long output step; when
/// it returns false the computation stops at once and the rows so far are returned. The
/// derivation has cancellation checkpoints (DerivationScope). Throws ModelError for degenerate
/// Lagrangians, algebroids or when the solved multipliers are not available (systems too large
/// for the symbolic solve), NumericalError if IDAS fails.
Trajectory ComputeGaugeTwoForm(const Scenario& scenario, const SimulationInput& input,
                               const SimulationProgress& progress = {});

}  // namespace dirac
