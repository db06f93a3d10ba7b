#pragma once
// Internal: parse once. While a ParseSession is open on a thread, ParseExpression keeps every
// text it parses with the symbols its names were bound to, and a later call with the same text
// returns that expression instead of parsing again: as is when the table binds every name of
// the text to the same value, or with the symbols swapped in (subs) when the table binds them to
// other symbols, one for one (a table from another derivation). Any other table parses anew.
// The scenario's symbols (ScenarioSymbols) are shared by the whole session (SharedSymbol), so
// every derivation of one solve reads the same expressions in the same symbols, and what is
// derived from them once (the bodies' kinematics) can be kept in a Slot and reused.
//
// A session holds GiNaC expressions: open and close it where GiNaC may run (under the symbolic
// lock in a front end with threads, dirac/symbolic_lock.hpp). Sessions nest: an inner one joins
// the session already open on its thread. dirac::ParseOnce (dirac/parse_once.hpp) is the public
// handle; LoadScenario, ParseScenario and BuildModel open one each.

#include <ginac/ginac.h>

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "symbolic/expression_tokens.hpp"

namespace dirac::symbolic {

class ParseMemo;

/// Opens the thread's parse session, or joins the one open (see above).
class ParseSession {
 public:
  ParseSession();
  ~ParseSession();
  ParseSession(const ParseSession&) = delete;
  ParseSession& operator=(const ParseSession&) = delete;

  /// True while a session is open on this thread.
  static bool Open();
  /// The symbol named `name` in the role `role` (e.g. "q", "v", "p"), the same object for the
  /// whole session; a fresh symbol when no session is open.
  static GiNaC::symbol SharedSymbol(const std::string& role, const std::string& name);
  /// A place for something derived once per session under `key` (empty at first); nullptr when
  /// no session is open.
  static std::shared_ptr<void>* Slot(const std::string& key);

 private:
  std::unique_ptr<ParseMemo> owned_;  // null for a session that joined an open one
};

/// While alive on this thread, counts the texts ParseExpression actually parses (a text returned
/// from the session's memo is not counted). For tests: "one parse per expression". A text with
/// a decimal literal has two readings (floats, or the exact rationals of ScopedExactDecimals),
/// counted apart: its key is the text after "exact: " for the second.
class ParseCounter {
 public:
  using Counts = std::map<std::string, std::size_t>;
  ParseCounter();
  ~ParseCounter();
  ParseCounter(const ParseCounter&) = delete;
  ParseCounter& operator=(const ParseCounter&) = delete;

  /// How many times each text was parsed.
  const Counts& counts() const { return counts_; }
  /// Parses in all.
  std::size_t total() const;

 private:
  friend void NoteParse(const std::string& text, const std::vector<Token>& tokens);
  Counts counts_;
  ParseCounter* previous_;
};

// Used by ParseExpression.
/// The memo's expression for `text` read with `symbols`, if it has one that fits.
std::optional<GiNaC::ex> FindParsed(const std::string& text, const GiNaC::symtab& symbols);
/// Keeps `parsed`, the expression of `text` (its `tokens`) read with `symbols`.
void StoreParsed(const std::string& text, const std::vector<Token>& tokens,
                 const GiNaC::symtab& symbols, const GiNaC::ex& parsed);
/// Counts one parse of `text` (its `tokens`) for the ParseCounter alive on this thread.
void NoteParse(const std::string& text, const std::vector<Token>& tokens);

}  // namespace dirac::symbolic
