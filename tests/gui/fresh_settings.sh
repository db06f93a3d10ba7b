#!/bin/sh
# Runs a GUI test ("$@" after the folder) with its own empty settings and data folders under
# $1: what one test leaves in QSettings (window size, last folder, recent files) must not change
# the next one. CI once failed because an earlier test's saved window size made a chart title
# break in two ("Multiplier<br>mu(t)") in a later test's export.
set -eu
folder=$1
shift
rm -rf "$folder"
mkdir -p "$folder/config" "$folder/data"
XDG_CONFIG_HOME="$folder/config" XDG_DATA_HOME="$folder/data" exec "$@"
