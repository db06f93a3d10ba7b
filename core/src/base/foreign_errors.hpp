#pragma once
// Internal: one place where exceptions that are not dirac::Error (GiNaC's std::domain_error
// "power::eval(): division by zero", pole_error, CLN's overflow, std::out_of_range ...) become
// dirac errors naming the scenario file, so that no derivation fault reaches the user as an
// "internal error". std::bad_alloc passes unchanged (the caller reports memory itself).
// Used as a function-try-block around the entry points of the derivations:
//
//   std::shared_ptr<const Model> BuildModel(const Scenario& scenario) try {
//     ...
//   } catch (...) {
//     base::RethrowNamingFile(scenario.source_file, "deriving the equations");
//   }

#include <new>
#include <stdexcept>
#include <string>

#include "dirac/derivation_control.hpp"
#include "dirac/error.hpp"

namespace dirac::base {

/// "FILE: message", unless the message already names FILE (or FILE is empty).
inline std::string NamingFile(const std::string& file, const std::string& message) {
  if (file.empty() || message.find(file) != std::string::npos) return message;
  return file + ": " + message;
}

/// Call only inside a catch block. Rethrows the exception being handled: a ScenarioError,
/// DerivationCancelled or std::bad_alloc unchanged; another dirac::Error as the same type with FILE
/// named; any other std::exception as ModelError "FILE: while STAGE: what"; anything else
/// unchanged.
[[noreturn]] inline void RethrowNamingFile(const std::string& file, const std::string& stage) {
  try {
    throw;
  } catch (const DerivationCancelled&) {
    throw;
  } catch (const ScenarioError&) {
    throw;
  } catch (const ModelError& e) {
    throw ModelError(NamingFile(file, e.what()));
  } catch (const NumericalError& e) {
    throw NumericalError(NamingFile(file, e.what()));
  } catch (const IoError& e) {
    throw IoError(NamingFile(file, e.what()));
  } catch (const Error& e) {
    throw Error(NamingFile(file, e.what()));
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    throw ModelError(NamingFile(file, "while " + stage + ": " + e.what() +
                                          " (the scenario's expressions lead to an undefined "
                                          "or unrepresentable value)"));
  }
}

}  // namespace dirac::base
