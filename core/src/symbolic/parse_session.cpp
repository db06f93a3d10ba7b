#include "symbolic/parse_session.hpp"

#include <set>
#include <unordered_map>
#include <utility>

#include "dirac/parse_once.hpp"
#include "symbolic/expression_parser.hpp"

namespace dirac::symbolic {

class ParseMemo {
 public:
  // A name of the text and what the table bound it to when the text was parsed.
  struct NameBinding {
    std::string name;
    bool present = false;
    GiNaC::ex value;
  };
  struct Entry {
    GiNaC::ex parsed;
    std::vector<NameBinding> bindings;
  };
  using Map = std::unordered_map<std::string, std::vector<Entry>>;

  // Texts without a decimal literal read the same with and without ScopedExactDecimals; the
  // others are kept apart by the reading in force.
  Map any, exact, floating;
  std::map<std::string, GiNaC::symbol> symbols;
  std::map<std::string, std::shared_ptr<void>> slots;
};

namespace {

thread_local ParseMemo* active_parse_memo = nullptr;
thread_local ParseCounter* active_parse_counter = nullptr;

// True if a number of the text is a decimal (it reads otherwise under ScopedExactDecimals).
bool HasDecimal(const std::vector<Token>& tokens) {
  for (const Token& t : tokens)
    if (t.kind == Token::Kind::kNumber && t.text.find_first_of(".eE") != std::string::npos)
      return true;
  return false;
}

// The memo's expression re-bound to `table`, or nullopt when the table binds a name otherwise
// than one symbol for another, one for one.
std::optional<GiNaC::ex> Rebind(const ParseMemo::Entry& entry, const GiNaC::symtab& table) {
  GiNaC::exmap swap;
  bool values = false;  // a name bound to an expression that is not a symbol
  std::vector<GiNaC::ex> now;
  now.reserve(entry.bindings.size());
  for (const ParseMemo::NameBinding& b : entry.bindings) {
    const auto it = table.find(b.name);
    if ((it != table.end()) != b.present) return std::nullopt;
    if (!b.present) continue;
    const GiNaC::ex& value = it->second;
    values = values || !GiNaC::is_a<GiNaC::symbol>(b.value);
    now.push_back(value);
    if (value.is_equal(b.value)) continue;
    if (!GiNaC::is_a<GiNaC::symbol>(value) || !GiNaC::is_a<GiNaC::symbol>(b.value))
      return std::nullopt;
    swap[b.value] = value;
  }
  if (swap.empty()) return entry.parsed;
  // A swap inside an expression bound by value would reach symbols the text did not name.
  if (values) return std::nullopt;
  std::size_t k = 0;
  for (std::size_t i = 0; i < entry.bindings.size(); ++i) {
    if (!entry.bindings[i].present) continue;
    std::size_t m = 0;
    for (std::size_t j = 0; j < i; ++j) {
      if (!entry.bindings[j].present) continue;
      if (now[k].is_equal(now[m]) != entry.bindings[i].value.is_equal(entry.bindings[j].value))
        return std::nullopt;
      ++m;
    }
    ++k;
  }
  return entry.parsed.subs(swap, GiNaC::subs_options::no_pattern);
}

}  // namespace

ParseSession::ParseSession() {
  if (active_parse_memo) return;
  owned_ = std::make_unique<ParseMemo>();
  active_parse_memo = owned_.get();
}

ParseSession::~ParseSession() {
  if (owned_) active_parse_memo = nullptr;
}

bool ParseSession::Open() { return active_parse_memo != nullptr; }

GiNaC::symbol ParseSession::SharedSymbol(const std::string& role, const std::string& name) {
  if (!active_parse_memo) return GiNaC::symbol(name);
  auto& symbols = active_parse_memo->symbols;
  const std::string key = role + '\x1f' + name;
  auto it = symbols.find(key);
  if (it == symbols.end()) it = symbols.emplace(key, GiNaC::symbol(name)).first;
  return it->second;
}

std::shared_ptr<void>* ParseSession::Slot(const std::string& key) {
  return active_parse_memo ? &active_parse_memo->slots[key] : nullptr;
}

ParseCounter::ParseCounter() : previous_(active_parse_counter) { active_parse_counter = this; }
ParseCounter::~ParseCounter() { active_parse_counter = previous_; }

std::size_t ParseCounter::total() const {
  std::size_t n = 0;
  for (const auto& [text, count] : counts_) n += count;
  return n;
}

void NoteParse(const std::string& text, const std::vector<Token>& tokens) {
  if (!active_parse_counter) return;
  const bool exact = ExactDecimalsInScope() && HasDecimal(tokens);
  ++active_parse_counter->counts_[exact ? "exact: " + text : text];
}

std::optional<GiNaC::ex> FindParsed(const std::string& text, const GiNaC::symtab& symbols) {
  ParseMemo* memo = active_parse_memo;
  if (!memo) return std::nullopt;
  for (const ParseMemo::Map* map :
       {&memo->any, ExactDecimalsInScope() ? &memo->exact : &memo->floating}) {
    const auto it = map->find(text);
    if (it == map->end()) continue;
    for (const ParseMemo::Entry& entry : it->second)
      if (auto e = Rebind(entry, symbols)) return e;
  }
  return std::nullopt;
}

void StoreParsed(const std::string& text, const std::vector<Token>& tokens,
                 const GiNaC::symtab& symbols, const GiNaC::ex& parsed) {
  ParseMemo* memo = active_parse_memo;
  if (!memo) return;
  const bool decimal = HasDecimal(tokens);
  std::set<std::string> seen;
  ParseMemo::Entry entry{parsed, {}};
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const Token& t = tokens[i];
    const bool call = i + 1 < tokens.size() && tokens[i + 1].kind == Token::Kind::kOpen;
    if (t.kind != Token::Kind::kName || call || !seen.insert(t.text).second) continue;
    const auto it = symbols.find(t.text);
    entry.bindings.push_back(
        {t.text, it != symbols.end(), it != symbols.end() ? it->second : GiNaC::ex()});
  }
  ParseMemo::Map& map = !decimal                 ? memo->any
                        : ExactDecimalsInScope() ? memo->exact
                                                 : memo->floating;
  map[text].push_back(std::move(entry));
}

}  // namespace dirac::symbolic

namespace dirac {

ParseOnce::ParseOnce() : session_(std::make_unique<symbolic::ParseSession>()) {}
ParseOnce::~ParseOnce() = default;

}  // namespace dirac
