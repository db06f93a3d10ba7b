#pragma once
/// @file view_controls.hpp
/// The 3D view's own text controls, drawn by VTK in the overlay layer (so the frame read back is
/// what the screen shows): the button that folds the scene's legend away, in the lower right
/// corner, and a one-line hint centred under the view's top row.

#include <vtkSmartPointer.h>

#include <string>

class vtkRenderer;
class vtkTextActor;

namespace dirac::ui {

class ViewControls {
 public:
  ViewControls();
  ~ViewControls();

  /// Adds both actors to `overlay` (again after its props were removed).
  void AddTo(vtkRenderer* overlay) const;
  /// Places them for a view of `width` x `height` device pixels; the hint goes under the top
  /// row, or `top_depth` pixels down if the scene's text reaches further (DrawnScene).
  void Place(int width, int height, int top_depth = 0);

  /// The legend button: hidden without a legend; its text says what a click does.
  void ShowLegendButton(bool has_legend, bool legend_shown);
  /// Whether the device pixel (x, y), y up from the bottom as VTK counts, is on the button.
  bool OnLegendButton(vtkRenderer* overlay, int x, int y) const;
  /// The button's box in device pixels (x0, x1, y0, y1, y up); false if it is hidden.
  bool LegendButtonBox(vtkRenderer* overlay, double box[4]) const;

  /// Sizes the scene's `legend` text (14 px, down to 9) so its longest line fits `width` device
  /// pixels of `overlay`'s view (VTK text does not wrap: a long line was cut at the right edge).
  /// Where it does not fit even at 9 px, its lines are broken between words (continuation
  /// lines start with kContinuation; a later call joins them again first).
  static void FitLegendWidth(vtkTextActor* legend, vtkRenderer* overlay, double width);
  static constexpr const char* kContinuation = "   ";
  /// Any text the same way, from `full` px down to 9 (the view's message: 16).
  static void FitTextWidth(vtkTextActor* text, vtkRenderer* overlay, double width, int full);
  /// Sizes the hint the same way to `width` device pixels (at the narrowest window its ends
  /// were cut off).
  void FitHintWidth(vtkRenderer* overlay, double width);

  /// The hint ("" hides it).
  void SetHint(const std::string& hint);
  const std::string& hint() const { return hint_text_; }

 private:
  vtkSmartPointer<vtkTextActor> legend_button_;
  vtkSmartPointer<vtkTextActor> hint_;
  std::string hint_text_;
  int button_x_ = 0, button_y_ = 0;  // the legend button's anchor (its lower right corner)
};

}  // namespace dirac::ui
