#include "panels/constraint_panel.hpp"

#include <QStringList>

#include <algorithm>
#include <cctype>

namespace dirac::ui {
namespace {

const char* const kGood = "#1e8449";
const char* const kWarn = "#b9770e";
const char* const kBad = "#c0392b";
const char* const kMuted = "#5a5f6a";

QString Q(const std::string& s) { return QString::fromStdString(s); }

bool IsSymbolChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.';
}

QString Code(const QString& html) { return "<span class='code'>" + html + "</span>"; }

QString Check(bool ok, const QString& yes, const QString& no) {
  return ok ? QStringLiteral("<span style='color:%1'>✔ %2</span>").arg(kGood, yes)
            : QStringLiteral("<span style='color:%1'>✘ %2</span>").arg(kWarn, no);
}

QString M(std::size_t k) { return QStringLiteral("M<sub>%1</sub>").arg(k); }

QString Heading(const QString& text) { return "<p class='h'>" + text + "</p>"; }

// "∂/∂q2 + ∂/∂v1" from components along M_0's coordinates.
QString VectorField(const std::vector<std::string>& components,
                    const std::vector<std::string>& coordinates) {
  QStringList terms;
  for (std::size_t i = 0; i < components.size(); ++i) {
    const std::string& c = components[i];
    if (c == "0" || c.empty()) continue;
    const QString d = "∂/∂" + (i < coordinates.size() ? Q(coordinates[i]).toHtmlEscaped()
                                                      : QString("z%1").arg(i + 1));
    if (c == "1") {
      terms << (terms.isEmpty() ? d : "+ " + d);
    } else if (c == "-1") {
      terms << (terms.isEmpty() ? "−" + d : "− " + d);
    } else {
      const bool compound = c.find_first_of("+-", 1) != std::string::npos;
      const QString coefficient = compound ? "(" + ExpressionHtml(c) + ")" : ExpressionHtml(c);
      terms << (terms.isEmpty() ? "" : "+ ") + coefficient + "·" + d;
    }
  }
  return terms.isEmpty() ? QStringLiteral("0") : terms.join(' ');
}

// "q4 - (C4*q2/C2) = 0" reads better as "q4 = C4*q2/C2" (and "v3 - (0) = 0" as "v3 = 0").
std::string SolvedForm(const std::string& constraint) {
  const std::string tail = ") = 0";
  const std::size_t open = constraint.find(" - (");
  if (open == std::string::npos || open == 0 || constraint.size() < tail.size() ||
      constraint.compare(constraint.size() - tail.size(), tail.size(), tail) != 0)
    return constraint;
  const std::string name = constraint.substr(0, open);
  if (!std::all_of(name.begin(), name.end(), IsSymbolChar)) return constraint;
  const std::size_t begin = open + 4;
  const std::string value = constraint.substr(begin, constraint.size() - tail.size() - begin);
  int depth = 0;  // the parentheses must be the outer pair, not "(a) - (b)"
  for (char c : value) {
    depth += c == '(' ? 1 : c == ')' ? -1 : 0;
    if (depth < 0) return constraint;
  }
  return depth == 0 ? name + " = " + value : constraint;
}

const char* OutcomeColor(dirac::ChainOutcome outcome) {
  return outcome == dirac::ChainOutcome::kStabilized ? kGood : kBad;
}

QString Style() {
  return QStringLiteral(
             "<style>"
             "body { font-size: 10pt; }"
             "p { margin-top: 2px; margin-bottom: 2px; }"
             "p.h { font-weight: 600; margin-top: 10px; margin-bottom: 3px; color: #2c3e50; }"
             ".code { font-family: 'DejaVu Sans Mono', monospace; }"
             ".muted { color: %1; }"
             "td { padding-right: 10px; padding-bottom: 2px; }"
             "</style>")
      .arg(kMuted);
}

}  // namespace

QString ExpressionHtml(const std::string& s) {
  QString out;
  std::size_t i = 0;
  auto previous_is_operand = [&](std::size_t at) {
    std::size_t k = at;
    while (k > 0 && s[k - 1] == ' ') --k;
    if (k == 0) return false;
    // 1.5e-07: the sign of an exponent, not a binary operator.
    if ((s[k - 1] == 'e' || s[k - 1] == 'E') && k >= 2 &&
        std::isdigit(static_cast<unsigned char>(s[k - 2])) && k == at)
      return false;
    return IsSymbolChar(s[k - 1]) || s[k - 1] == ')' || s[k - 1] == '\'';
  };
  while (i < s.size()) {
    const char c = s[i];
    if (c == '^' && i + 1 < s.size()) {
      std::string exponent;
      std::size_t j = i + 1;
      if (s[j] == '(') {
        int depth = 0;
        std::size_t k = j;
        for (; k < s.size(); ++k) {
          if (s[k] == '(') ++depth;
          if (s[k] == ')' && --depth == 0) break;
        }
        exponent = s.substr(j + 1, k - j - 1);
        i = std::min(k + 1, s.size());
      } else {
        std::size_t k = j;
        while (k < s.size() && IsSymbolChar(s[k])) ++k;
        exponent = s.substr(j, k - j);
        i = k;
      }
      out += "<sup>" + ExpressionHtml(exponent) + "</sup>";
      continue;
    }
    if (c == '*') {
      out += "·";
    } else if (c == '!' && i + 1 < s.size() && s[i + 1] == '=') {
      out += " ≠";
      ++i;
    } else if ((c == '-' || c == '+') && previous_is_operand(i)) {
      if (!out.endsWith(' ')) out += ' ';
      out += c == '-' ? "−" : "+";
      if (i + 1 < s.size() && s[i + 1] != ' ') out += ' ';
    } else if (c == '-') {
      out += "−";
    } else {
      out += QString(QChar::fromLatin1(c)).toHtmlEscaped();
    }
    ++i;
  }
  return out;
}

std::vector<std::string> EliminatedCoordinates(const dirac::ConstraintChain& chain) {
  std::vector<std::string> out;
  for (const dirac::ConstraintStep& step : chain.steps) {
    for (const std::string& name : step.solved_for) {
      if (!name.empty() && std::find(out.begin(), out.end(), name) == out.end())
        out.push_back(name);
    }
  }
  return out;
}

QString ConstraintChainHtml(const dirac::ConstraintChain& chain) {
  QString left, right;

  // The chain in one line: M_0 (dim 6) ⊃ M_1 (dim 5) ⊃ M_2 (dim 4) = M_f.
  QStringList links;
  for (const dirac::ConstraintStep& step : chain.steps)
    links << QStringLiteral("%1 <span class='muted'>(dim %2)</span>")
                 .arg(M(step.index))
                 .arg(step.dimension);
  QString line = links.join(" ⊃ ");
  if (chain.outcome == dirac::ChainOutcome::kStabilized) line += " = M<sub>f</sub>";
  left += QStringLiteral("<p style='font-size:12pt'>%1</p>").arg(line);
  left += QStringLiteral("<p class='muted'>%1</p>").arg(Q(chain.formulation).toHtmlEscaped());
  QStringList coordinates;
  for (const std::string& z : chain.coordinates) coordinates << Q(z).toHtmlEscaped();
  left += QStringLiteral("<p class='muted'>coordinates of M<sub>0</sub>: %1</p>")
              .arg(Code(coordinates.join(", ")));

  // Each step and the constraints it adds.
  left += Heading("Steps (Gotay–Nester–Hinds)");
  left += "<table cellspacing='0'>";
  for (const dirac::ConstraintStep& step : chain.steps) {
    left += QStringLiteral(
                "<tr><td><b>%1</b></td><td>dim %2 <span class='muted'>· rank E<sub>%3</sub> = "
                "%4 · dim E<sub>%3</sub><sup>⊥</sup> = %5</span></td></tr>")
                .arg(M(step.index))
                .arg(step.dimension)
                .arg(step.index)
                .arg(step.tangent_sections)
                .arg(step.orthogonal_dimension);
    for (std::size_t k = 0; k < step.new_constraints.size(); ++k) {
      QString row = Code(ExpressionHtml(step.new_constraints[k]));
      if (k < step.solved_as.size() && step.solved_as[k] != step.new_constraints[k])
        row += " &nbsp;⇒&nbsp; " + Code(ExpressionHtml(step.solved_as[k]));
      if (k < step.residual_columns.size()) {
        row += QStringLiteral(" <span class='muted'>[%1]</span>")
                   .arg(Q(step.residual_columns[k]).toHtmlEscaped());
      }
      left += QStringLiteral("<tr><td></td><td>new constraint for %1: %2</td></tr>")
                  .arg(M(step.index + 1), row);
    }
    if (step.new_constraints.empty() && step.index + 1 == chain.steps.size() &&
        chain.outcome == dirac::ChainOutcome::kStabilized) {
      left += "<tr><td></td><td class='muted'>no new constraint: the chain stops</td></tr>";
    }
  }
  left += "</table>";

  left += Heading("Verdict");
  left += QStringLiteral("<p style='color:%1; font-weight:600'>%2</p>")
              .arg(OutcomeColor(chain.outcome), Q(chain.verdict).toHtmlEscaped());

  if (chain.outcome == dirac::ChainOutcome::kStabilized) {
    left += Heading("Final constraints (M<sub>f</sub> in M<sub>0</sub>)");
    if (chain.final_constraints.empty())
      left += "<p class='muted'>none: M<sub>f</sub> = M<sub>0</sub></p>";
    for (const std::string& f : chain.final_constraints)
      left += "<p>" + Code(ExpressionHtml(SolvedForm(f))) + "</p>";
    const auto eliminated = EliminatedCoordinates(chain);
    if (!eliminated.empty()) {
      QStringList names;
      for (const std::string& name : eliminated) names << Q(name).toHtmlEscaped();
      left += QStringLiteral(
                  "<p class='muted'>%1 %2 from the other coordinates on "
                  "M<sub>f</sub>: not free initial conditions.</p>")
                  .arg(Code(names.join(", ")), names.size() == 1 ? "follows" : "follow");
    }

    // Omega on E_f.
    right += Heading("Ω on E<sub>f</sub>");
    right += QStringLiteral("<p>rank %1 &nbsp; %2</p>")
                 .arg(chain.final_rank)
                 .arg(Check(chain.symplectic, "symplectic", "presymplectic (degenerate)"));
    if (!chain.symplectic) {
      right += "<p>" +
               Check(chain.symplectic_modulo_gauge, "symplectic modulo the gauge directions",
                     "not symplectic even modulo the gauge directions") +
               "</p>";
    }
    if (!chain.validity_conditions.empty()) {
      QStringList conditions;
      for (const std::string& v : chain.validity_conditions) conditions << ExpressionHtml(v);
      right += "<p class='muted'>valid where " + Code(conditions.join("; ")) + "</p>";
    }

    // Gauge directions.
    right += Heading(
        QStringLiteral("Gauge directions (ker Ω ∩ E<sub>f</sub>): %1").arg(chain.gauge.size()));
    if (chain.gauge.empty()) {
      right += "<p class='muted'>none: the dynamics on M<sub>f</sub> is unique</p>";
    } else {
      right += "<p>" +
               Check(chain.configuration_dynamics_unique,
                     "all fibre-only: the configuration motion is unique",
                     "some move the configuration: genuine gauge freedom") +
               "</p>";
      right += "<p class='muted'>free function = value integrated, along its direction:</p>";
      for (const dirac::GaugeDirection& g : chain.gauge) {
        right += QStringLiteral("<p>&nbsp;&nbsp;%1 &nbsp;along %2 %3</p>")
                     .arg(Code(Q(g.name).toHtmlEscaped() + "&nbsp;=&nbsp;" +
                               ExpressionHtml(g.value.empty() ? "0" : g.value)),
                          Code(VectorField(g.components, chain.coordinates)),
                          g.fibre_only ? QStringLiteral("<span class='muted'>(fibre only)</span>")
                                       : QStringLiteral("<span style='color:%1'>(moves the "
                                                        "configuration)</span>")
                                             .arg(kWarn));
      }
    }

    // Dynamics on M_f.
    right += Heading("Dynamics on M<sub>f</sub>");
    right += "<table cellspacing='0'>";
    for (const dirac::DerivedEquation& eq : chain.dynamics) {
      right += QStringLiteral("<tr><td>%1</td><td>%2</td></tr>")
                   .arg(Code(Q(eq.label).toHtmlEscaped() + " ="), Code(ExpressionHtml(eq.text)));
    }
    right += "</table>";

    // Numeric cross-check.
    right += Heading("Numeric cross-check");
    const dirac::NumericCrossCheck& check = chain.check;
    right += QStringLiteral("<p>%1 points sampled on M<sub>f</sub>: %2, max |φ| = %3</p>")
                 .arg(check.points)
                 .arg(Check(check.ranks_agree, "ranks agree with the symbolic verdict",
                            "ranks DISAGREE with the symbolic verdict"))
                 .arg(QString::number(check.max_constraint_value, 'g', 3));
    for (const std::string& m : check.messages)
      right += QStringLiteral("<p style='color:%1'>%2</p>").arg(kWarn, Q(m).toHtmlEscaped());
  }

  return "<html><head>" + Style() +
         "</head><body><table width='100%' cellspacing='0'><tr>"
         "<td width='50%' valign='top'>" +
         left + "</td><td width='50%' valign='top'>" + right + "</td></tr></table></body></html>";
}

QString RegularModelHtml(const dirac::Model& model, const dirac::Scenario& scenario) {
  QString html = "<html><head>" + Style() + "</head><body>";
  html += QStringLiteral("<p class='muted'>%1</p>").arg(Q(model.formulation()).toHtmlEscaped());
  html +=
      "<p><b>Regular Lagrangian</b>: M<sub>f</sub> = M<sub>0</sub> after the second-order "
      "condition; index 1: the multipliers are solved with the accelerations (ODE, or the "
      "index-1 DAE with simulation.method idas). No constraint algorithm is needed "
      "(det ∂²L/∂v∂v ≠ 0), so there are no hidden constraints and no gauge freedom.</p>";
  if (!scenario.constraints.empty()) {
    // The model's multiplier and residual columns, in constraint order.
    const std::vector<std::string> multipliers =
        model.ColumnsOfKind(dirac::ColumnKind::kMultiplier);
    const std::vector<std::string> residuals =
        model.ColumnsOfKind(dirac::ColumnKind::kConstraintResidual);
    auto column = [](const std::vector<std::string>& columns, std::size_t r) {
      return r < columns.size() ? Code(Q(columns[r]).toHtmlEscaped()) : QStringLiteral("—");
    };
    html += Heading("Nonholonomic constraints ⟨ω<sup>r</sup>(q), v⟩ = 0");
    html += "<table cellspacing='0'>";
    for (std::size_t r = 0; r < scenario.constraints.size(); ++r) {
      const dirac::ConstraintSpec& c = scenario.constraints[r];
      html += QStringLiteral(
                  "<tr><td>%1</td><td>%2</td><td class='muted'>multiplier %3, "
                  "residual column %4</td></tr>")
                  .arg(Q(c.name).toHtmlEscaped(), Code(ExpressionHtml(c.form) + " = 0"),
                       column(multipliers, r), column(residuals, r));
    }
    html += "</table>";
  }
  return html + "</body></html>";
}

ConstraintPanel::ConstraintPanel(QWidget* parent) : QTextBrowser(parent) {
  setObjectName("constraints.panel");
  setOpenLinks(false);
  setReadOnly(true);
  setFrameShape(QFrame::NoFrame);
  document()->setDocumentMargin(8);
  ShowMessage(tr("No scenario loaded."));
}

void ConstraintPanel::SetModel(const dirac::Model* model, const dirac::Scenario& scenario) {
  if (!model) {
    ShowMessage(tr("Deriving the model…"));
    return;
  }
  const dirac::ConstraintChain* chain = model->constraint_chain();
  has_chain_ = chain != nullptr;
  setHtml(chain ? ConstraintChainHtml(*chain) : RegularModelHtml(*model, scenario));
}

void ConstraintPanel::ShowMessage(const QString& message) {
  has_chain_ = false;
  setHtml("<p style='color:" + QString(kMuted) + "'>" + message.toHtmlEscaped() + "</p>");
}

}  // namespace dirac::ui
