#!/bin/bash
# Makes the scenario browser's thumbnails: the 3D view of each shipped scenario at the end of its
# run (dirac-studio --screenshot --scene-only in a low window: a wide view, the legend folded),
# scaled and cut to 240 x 150 (the picture read through `convert FILE.png ppm:-`, scaled by
# python3 with box averaging).
# usage: scripts/make-thumbnails.sh BUILD_DIR [SCENARIO...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
studio="$1/app/dirac-studio"
shift
files=("$@")
[ ${#files[@]} -eq 0 ] && files=("$root"/scenarios/*.yaml)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/thumb.py" <<'PY'
import struct, sys, zlib
W, H = 240, 150
data = sys.stdin.buffer.read()
fields, pos = [], 0
while len(fields) < 4:  # P6, width, height, maxval
    while data[pos:pos + 1].isspace():
        pos += 1
    end = pos
    while not data[end:end + 1].isspace():
        end += 1
    fields.append(data[pos:end])
    pos = end
pixels, w, h = data[pos + 1:], int(fields[1]), int(fields[2])
s = max(W / w, H / h)  # cover, then cut the middle
x0, y0 = (w * s - W) / 2, (h * s - H) / 2
rows = []
for j in range(H):
    ya, yb = int((j + y0) / s), max(int((j + y0) / s) + 1, int((j + 1 + y0) / s))
    row = bytearray([0])
    for i in range(W):
        xa, xb = int((i + x0) / s), max(int((i + x0) / s) + 1, int((i + 1 + x0) / s))
        acc, n = [0, 0, 0], 0
        for y in range(ya, min(yb, h)):
            base = 3 * (y * w)
            for x in range(xa, min(xb, w)):
                k = base + 3 * x
                acc[0] += pixels[k]; acc[1] += pixels[k + 1]; acc[2] += pixels[k + 2]; n += 1
        row += bytes(c // max(n, 1) for c in acc)
    rows.append(bytes(row))
def chunk(tag, body):
    return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body))
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 8, 2, 0, 0, 0))
png += chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b"")
open(sys.argv[1], "wb").write(png)
PY
for file in "${files[@]}"; do
  name=$(basename "$file" .yaml)
  xvfb-run -a -s "-screen 0 1600x1000x24" "$studio" "$file" --size 1600x500 --scene-only \
    --screenshot "$tmp/$name.png" > "$tmp/$name.log" 2>&1 || { cat "$tmp/$name.log"; exit 1; }
  convert "$tmp/$name.png" ppm:- | python3 "$tmp/thumb.py" "$root/resources/thumbnails/$name.png"
  echo "$name"
done
