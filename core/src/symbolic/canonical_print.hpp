#pragma once
// Internal: printing GiNaC expressions in an order that does not depend on the address layout.
//
// GiNaC orders the terms of a sum and the factors of a product by hash values, and those hashes
// mix in addresses (of type_info names and the like), so `std::cout << e` prints the same
// expression with its terms in a different order from run to run under address randomisation.
// The printers here use GiNaC's own formats (default and LaTeX) but sort the terms of every sum
// and the factors of every product by their own canonical text, so equal expressions print the
// same bytes in every run.

#include <ginac/ginac.h>

#include <string>

namespace dirac::symbolic {

/// The canonical text of `e` in GiNaC's default (ginsh-parsable) syntax. Thread-safe to the
/// extent GiNaC printing is; does not throw except std::bad_alloc.
std::string CanonicalString(const GiNaC::ex& e);

/// The canonical text of `e` in GiNaC's LaTeX syntax.
std::string CanonicalLatex(const GiNaC::ex& e);

/// A total order on expressions that depends only on their structure and symbol names (never on
/// addresses): compares CanonicalString. For sorting sets of expressions before they are used.
struct CanonicalLess {
  bool operator()(const GiNaC::ex& a, const GiNaC::ex& b) const {
    return CanonicalString(a) < CanonicalString(b);
  }
};

}  // namespace dirac::symbolic
