// GUI tests of the workbench a user lives in (issue 10), under Xvfb: every shipped scenario
// opened from the browser, played, edited, a chart zoomed and exported (PNG, SVG parsed), the
// CSV exported and parsed; the charts' interactions (pan, rectangle, reset, hover readout,
// click-to-seek, legend toggles, added columns, units and a second axis, pinned and compared
// runs); errors a user can act on (dependent and vanishing constraints, a singular edit, the
// previous result kept and marked stale, Cancel); a final time of 1e9; Save scenario as of a
// commented file; shortcuts with a spin box focused, recent files, drops, settings; and the
// `--gauge --screenshot` capture 20 times.
// The test functions are in workbench_{tour,charts,errors,habits}_gui_test.cpp, run in the order
// WorkbenchGuiTest declares them.
#include <QApplication>
#include <QTest>

#include "window/studio_application.hpp"
#include "window/workbench_gui_test.hpp"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  dirac::ui::ConfigureApplication(app);
  WorkbenchGuiTest test;
  return QTest::qExec(&test, argc, argv);
}
