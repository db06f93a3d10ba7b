#include "symbolic/expression_tokens.hpp"

#include <cctype>
#include <cstdio>

namespace dirac::symbolic {
namespace {

bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool IsNameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_'; }
bool IsNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// A number starting at `i`: digits and at most one '.', then optionally [eE][+-]?digits.
// Returns the end; `spelling` gets GiNaC's lexer's spelling (the exponent marker 'E', a '+'
// before an unsigned exponent), which GiNaC::numeric reads.
std::size_t ScanNumber(const std::string& text, std::size_t i, std::string& spelling) {
  const std::size_t start = i;
  std::size_t dots = 0;
  std::size_t digits = 0;
  while (i < text.size() && (IsDigit(text[i]) || text[i] == '.')) {
    if (text[i] == '.') {
      ++dots;
    } else {
      ++digits;
    }
    ++i;
  }
  auto malformed = [&](std::size_t end, const std::string& why) {
    throw ExpressionFault{start, "",
                          "malformed number '" + text.substr(start, end - start) + "': " + why};
  };
  if (dots > 1) malformed(i, "more than one '.'");
  if (digits == 0) malformed(i, "no digits");
  spelling = text.substr(start, i - start);
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    std::size_t k = i + 1;
    std::string sign = "+";
    if (k < text.size() && (text[k] == '+' || text[k] == '-')) sign = std::string(1, text[k++]);
    const std::size_t exponent_start = k;
    while (k < text.size() && IsDigit(text[k])) ++k;
    if (k == exponent_start) malformed(k, "the exponent has no digits");
    spelling += "E" + sign + text.substr(exponent_start, k - exponent_start);
    i = k;
  }
  return i;
}

}  // namespace

std::vector<Token> Tokenize(const std::string& text) {
  std::vector<Token> tokens;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    Token token;
    token.offset = i;
    if (IsNameStart(c)) {
      std::size_t j = i;
      while (j < text.size() && IsNameChar(text[j])) ++j;
      token.kind = Token::Kind::kName;
      token.text = text.substr(i, j - i);
      i = j;
    } else if (IsDigit(c) || c == '.') {
      token.kind = Token::Kind::kNumber;
      i = ScanNumber(text, i, token.text);
    } else {
      token.text = std::string(1, c);
      switch (c) {
        case '+':
        case '-':
        case '*':
        case '/':
        case '^':
          token.kind = Token::Kind::kOperator;
          break;
        case '(':
          token.kind = Token::Kind::kOpen;
          break;
        case ')':
          token.kind = Token::Kind::kClose;
          break;
        case ',':
          token.kind = Token::Kind::kComma;
          break;
        default: {
          std::string shown(1, c);
          if (!std::isprint(static_cast<unsigned char>(c))) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02X", static_cast<unsigned char>(c));
            shown = hex;
          }
          throw ExpressionFault{i, "", "unexpected character '" + shown + "'"};
        }
      }
      ++i;
    }
    tokens.push_back(std::move(token));
  }
  tokens.push_back({Token::Kind::kEnd, "", text.size()});
  return tokens;
}

std::string DescribePosition(const std::string& text, std::size_t offset) {
  std::size_t line = 1;
  std::size_t line_start = 0;
  for (std::size_t k = 0; k < offset && k < text.size(); ++k)
    if (text[k] == '\n') {
      ++line;
      line_start = k + 1;
    }
  const std::string column = "column " + std::to_string(offset - line_start + 1);
  if (line == 1 && text.find('\n') == std::string::npos) return column;
  return "line " + std::to_string(line) + ", " + column;
}

}  // namespace dirac::symbolic
