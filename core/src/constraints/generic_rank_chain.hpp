#pragma once
// Internal: the constraint algorithm's chain of a large Lagrange–Dirac system, decided from
// generic ranks alone (symbolic/generic_rank.hpp) instead of the exact symbolic elimination,
// whose cost grows faster than exponentially with the size.
//
// Two structures are recognised, on TQ or on a Lie algebroid E (TQ: k = n):
//  - regular: W = D2D2L of full generic rank k and m constraint forms of generic rank m. Then
//    M_0 = E (dim n + k) with rank rho^-1(TM_0) = 2k - m, the constraints themselves define
//    M_1 (dim n + k - m), the algorithm stops there (the saddle matrix [W -A^T; A 0] is regular),
//    Omega on E_f has rank 2k - 2m (symplectic) and there is no gauge freedom;
//  - affine in the velocities on TQ without constraints, L = theta(q).v - H(q) with
//    B = d theta of full generic rank n: M_f = M_0 = TQ, Omega has rank n (symplectic modulo
//    the n fibre directions, which are gauge), and q' solves B(q) q' = dH (seed D §6.3).

#include <optional>

#include "dirac/constrained_system.hpp"
#include "dirac/scenario.hpp"

namespace dirac::constraints {

/// Dimension of M_0 up to which the exact symbolic chain is tried first (every shipped scenario:
/// at most 12, the charged particle); a smaller system whose elimination exceeds the symbolic
/// work bound falls back to the generic ranks too.
inline constexpr std::size_t kMaxExactChainDimension = 12;

/// Which structure GenericRankChain found.
enum class ChainStructure { kRegular, kAffineInVelocities };

/// The chain of a Lagrange–Dirac scenario (formulation auto, lagrange_dirac or
/// constraint_algorithm; no vakonomic, second-order or optimal-control block) with one of the
/// two structures above, and the structure; nullopt for any other scenario (the exact algorithm
/// then applies). Each verdict's way (exact determinant or numeric rank) is in chain.decisions.
/// Throws ScenarioError for bad expressions.
std::optional<std::pair<ConstraintChain, ChainStructure>> GenericRankChain(
    const Scenario& scenario);

/// True if the scenario's M_0 is above kMaxExactChainDimension.
bool AboveExactChainSize(const Scenario& scenario);

}  // namespace dirac::constraints
