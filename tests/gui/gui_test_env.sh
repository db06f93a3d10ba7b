#!/bin/sh
# Runs one GUI test (the command after FOLDER) on a display of its own with settings of its own:
#   gui_test_env.sh FOLDER COMMAND [ARGS...]
# - Settings and data: empty folders under FOLDER (XDG_CONFIG_HOME, XDG_DATA_HOME), never the
#   user's and never another test's. CI once failed because an earlier test's saved window size
#   made a chart title break in two ("Multiplier<br>mu(t)") in a later test's export.
# - Display: a private Xvfb that picks a free display number itself and reports it when it
#   accepts connections (-displayfd), so two tests never race for one number, and nothing waits
#   for wall time. (xvfb-run -a guesses the number from lock files, and its clean-up once failed
#   with exit status 5 after the test had finished.)
# Exit status: the command's. Xvfb is stopped when the command ends.
set -eu
folder=$1
shift
rm -rf "$folder"
mkdir -p "$folder/config" "$folder/data"
mkfifo "$folder/display"
Xvfb -displayfd 3 -screen 0 1600x1000x24 -nolisten tcp 3>"$folder/display" \
  >"$folder/xvfb.log" 2>&1 &
xvfb=$!
trap 'kill "$xvfb" 2>/dev/null || true; wait "$xvfb" 2>/dev/null || true' EXIT
# Blocks until Xvfb writes its display number (or exits without one: end of file).
read -r number <"$folder/display" || true
if [ -z "${number:-}" ]; then
  echo "gui_test_env.sh: Xvfb did not start; its log:" >&2
  cat "$folder/xvfb.log" >&2
  exit 1
fi
status=0
DISPLAY=":$number" XDG_CONFIG_HOME="$folder/config" XDG_DATA_HOME="$folder/data" "$@" || status=$?
exit "$status"
