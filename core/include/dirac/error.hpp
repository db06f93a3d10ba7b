#pragma once
/// @file error.hpp
/// Root of every exception the engine throws.

#include <cstddef>
#include <stdexcept>
#include <string>

namespace dirac {

/// Root of all Dirac Studio exceptions; `what()` is a human-readable message.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A scenario file (or a --set override) is malformed. The message has the form
/// "FILE:LINE: message", naming the offending symbol where there is one.
class ScenarioError : public Error {
 public:
  /// @param file   scenario path (may be empty for in-memory scenarios)
  /// @param line   1-based line, 0 when unknown
  /// @param symbol offending symbol or key, may be empty
  ScenarioError(std::string file, std::size_t line, std::string symbol, const std::string& message);
  const std::string& file() const { return file_; }
  std::size_t line() const { return line_; }
  const std::string& symbol() const { return symbol_; }

 private:
  std::string file_;
  std::size_t line_;
  std::string symbol_;
};

/// The model cannot be handled (e.g. singular constraint matrix, degenerate Lagrangian where a
/// regular one is required).
class ModelError : public Error {
 public:
  using Error::Error;
};

/// An integrator or solver failed (SUNDIALS flag translated into a message).
class NumericalError : public Error {
 public:
  using Error::Error;
};

/// A file could not be written or read.
class IoError : public Error {
 public:
  using Error::Error;
};

}  // namespace dirac
