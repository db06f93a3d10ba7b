#!/bin/bash
# Makes the scenario browser's thumbnails: the 3D view of each shipped scenario at the end of its
# run (dirac-studio --screenshot --scene-only), cut to 240 x 150 (ImageMagick's convert).
# usage: scripts/make-thumbnails.sh BUILD_DIR [SCENARIO...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
studio="$1/app/dirac-studio"
shift
files=("$@")
[ ${#files[@]} -eq 0 ] && files=("$root"/scenarios/*.yaml)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for file in "${files[@]}"; do
  name=$(basename "$file" .yaml)
  xvfb-run -a -s "-screen 0 1600x1000x24" "$studio" "$file" --size 1280x800 --scene-only \
    --screenshot "$tmp/$name.png" > "$tmp/$name.log" 2>&1 || { cat "$tmp/$name.log"; exit 1; }
  convert "$tmp/$name.png" -resize '240x150^' -gravity center -extent 240x150 \
    "$root/resources/thumbnails/$name.png"
  echo "$name"
done
