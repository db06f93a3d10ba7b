#include "scenes/view_controls.hpp"

#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>

#include <algorithm>

namespace dirac::ui {
namespace {

// Light text on a dark box with a frame: a button's look on the dark view.
void StyleAsButton(vtkTextActor* text, double r, double g, double b) {
  vtkTextProperty* p = text->GetTextProperty();
  p->SetFontSize(14);
  p->SetColor(0.94, 0.95, 0.97);
  p->SetBackgroundColor(r, g, b);
  p->SetBackgroundOpacity(0.9);
  p->SetFrame(true);
  p->SetFrameColor(0.45, 0.49, 0.56);
  p->SetJustificationToRight();
}

}  // namespace

ViewControls::ViewControls()
    : legend_button_(vtkSmartPointer<vtkTextActor>::New()),
      hint_(vtkSmartPointer<vtkTextActor>::New()) {
  StyleAsButton(legend_button_, 0.16, 0.17, 0.21);
  legend_button_->GetTextProperty()->SetVerticalJustificationToBottom();
  legend_button_->VisibilityOff();
  StyleAsButton(hint_, 0.17, 0.43, 0.57);
  hint_->GetTextProperty()->SetJustificationToCentered();
  hint_->GetTextProperty()->SetBold(true);
  hint_->GetTextProperty()->SetVerticalJustificationToTop();
  hint_->VisibilityOff();
}

ViewControls::~ViewControls() = default;

void ViewControls::AddTo(vtkRenderer* overlay) const {
  overlay->AddActor2D(legend_button_);
  overlay->AddActor2D(hint_);
}

void ViewControls::Place(int width, int height, int top_depth) {
  button_x_ = width - 12;
  button_y_ = 12;
  legend_button_->SetDisplayPosition(button_x_, button_y_);
  // Centred under the top row (the time on the left, a scene's readout on the right).
  hint_->SetDisplayPosition(width / 2, height - std::max(62, top_depth + 8));
}

void ViewControls::ShowLegendButton(bool has_legend, bool legend_shown) {
  legend_button_->SetInput(legend_shown ? " Hide legend " : " Legend ");
  legend_button_->SetVisibility(has_legend);
}

bool ViewControls::LegendButtonBox(vtkRenderer* overlay, double box[4]) const {
  if (!legend_button_->GetVisibility()) return false;
  legend_button_->GetBoundingBox(overlay, box);  // about the actor's position
  box[0] += button_x_;
  box[1] += button_x_;
  box[2] += button_y_;
  box[3] += button_y_;
  return true;
}

bool ViewControls::OnLegendButton(vtkRenderer* overlay, int x, int y) const {
  double box[4];  // x0, x1, y0, y1 in display pixels
  if (!LegendButtonBox(overlay, box)) return false;
  return x >= box[0] - 3 && x <= box[1] + 3 && y >= box[2] - 3 && y <= box[3] + 3;
}

void ViewControls::FitTextWidth(vtkTextActor* text, vtkRenderer* overlay, double width, int full) {
  if (!text || !text->GetInput() || !overlay->GetRenderWindow()) return;
  constexpr int kSmallest = 9;  // [px]
  vtkTextProperty* p = text->GetTextProperty();
  p->SetFontSize(full);
  double box[4];  // x0, x1, y0, y1
  text->GetBoundingBox(overlay, box);
  const double wide = box[1] - box[0];
  if (!(wide > width) || !(width > 0.0)) return;
  // Text does not scale exactly with its size (hinting, the frame's padding): from the
  // proportional guess down until it fits.
  for (int size = std::max(kSmallest, static_cast<int>(full * width / wide));; --size) {
    p->SetFontSize(size);
    text->GetBoundingBox(overlay, box);
    if (box[1] - box[0] <= width || size == kSmallest) return;
  }
}

void ViewControls::FitLegendWidth(vtkTextActor* legend, vtkRenderer* overlay, double width) {
  if (!legend || !legend->GetInput() || !overlay->GetRenderWindow()) return;
  // A legend wrapped before (a narrower view) is whole again first: continuation lines start
  // with kContinuation.
  std::string text = legend->GetInput();
  const std::string joint = "\n" + std::string(kContinuation);
  for (std::size_t at; (at = text.find(joint)) != std::string::npos;)
    text.replace(at, joint.size(), " ");
  legend->SetInput(text.c_str());
  FitTextWidth(legend, overlay, width, 14);
  double box[4];
  legend->GetBoundingBox(overlay, box);
  if (box[1] - box[0] <= width) return;
  // Still too wide at the smallest size (a 1012 px window at QT_SCALE_FACTOR=1.5: the lines ran
  // out of the view): each line broken between words where it would pass `width`.
  auto wide = [&](const std::string& line) {
    legend->SetInput(line.c_str());
    legend->GetBoundingBox(overlay, box);
    return box[1] - box[0] > width;
  };
  std::string wrapped, line;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string source = text.substr(start, end - start);
    line.clear();
    std::size_t word = 0;
    while (word <= source.size()) {
      const std::size_t space = std::min(source.find(' ', word), source.size());
      const std::string next = source.substr(word, space - word);
      const std::string longer = line.empty() ? next : line + " " + next;
      if (!line.empty() && wide(longer)) {
        wrapped += line + "\n";
        line = std::string(kContinuation) + next;
      } else {
        line = longer;
      }
      word = space + 1;
    }
    wrapped += line;
    if (end < text.size()) wrapped += "\n";
    start = end + 1;
  }
  legend->SetInput(wrapped.c_str());
}

void ViewControls::FitHintWidth(vtkRenderer* overlay, double width) {
  if (hint_->GetVisibility()) FitTextWidth(hint_, overlay, width, 14);
}

void ViewControls::SetHint(const std::string& hint) {
  hint_text_ = hint;
  hint_->SetInput((" " + hint + " ").c_str());
  hint_->SetVisibility(!hint.empty());
}

}  // namespace dirac::ui
