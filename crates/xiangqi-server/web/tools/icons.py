#!/usr/bin/env python3
"""Draws the site's icon: web/favicon.svg with the seal's 象 as an outline, so
that no browser or renderer needs a CJK font to show it, and the PNG icons a
home screen asks for (web/icons/), rendered from that same drawing.

    pip install fonttools         # reads the font once, here
    apt-get install librsvg2-bin  # rsvg-convert renders the PNGs
    python3 web/tools/icons.py [path/to/NotoSerifCJK-Bold.ttc]

Run it again after changing the drawing below; commit what it writes.
"""

import subprocess
import sys
import tempfile
from pathlib import Path

from fontTools.pens.boundsPen import BoundsPen
from fontTools.pens.svgPathPen import SVGPathPen
from fontTools.pens.transformPen import TransformPen
from fontTools.ttLib import TTCollection, TTFont

WEB = Path(__file__).resolve().parent.parent
FONT = "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc"
GLYPH = "象"
# The seal, in the icon's 64-unit square: the glyph's box is centred here and
# scaled to this height (what a 30-unit bold serif glyph covers).
CENTRE = (32.0, 32.0)
HEIGHT = 27.0


def simplified_chinese(path):
    """The Simplified Chinese face of a collection (or the one face of a plain font)."""
    if path.endswith(".ttc"):
        faces = TTCollection(path).fonts
        for face in faces:
            if "SC" in face["name"].getDebugName(1):
                return face
        return faces[0]
    return TTFont(path)


def glyph_path(font):
    glyphs = font.getGlyphSet()
    glyph = glyphs[font.getBestCmap()[ord(GLYPH)]]
    bounds = BoundsPen(glyphs)
    glyph.draw(bounds)
    x0, y0, x1, y1 = bounds.bounds
    scale = HEIGHT / (y1 - y0)
    # Font units go up; SVG's go down.
    dx = CENTRE[0] - scale * (x0 + x1) / 2
    dy = CENTRE[1] + scale * (y0 + y1) / 2
    svg = SVGPathPen(glyphs, ntos=lambda v: f"{v:.2f}".rstrip("0").rstrip("."))
    glyph.draw(TransformPen(svg, (scale, 0, 0, -scale, dx, dy)))
    return svg.getCommands()


def drawing(path):
    return f"""<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">
  <title>Xiangqi</title>
  <circle cx="32" cy="32" r="30" fill="#fbf3e0" stroke="#6b4a25" stroke-width="3"/>
  <circle cx="32" cy="32" r="24" fill="none" stroke="#b3261e" stroke-width="2.5"/>
  <!-- {GLYPH}, drawn from Noto Serif CJK SC Bold by web/tools/icons.py -->
  <path fill="#b3261e" d="{path}"/>
</svg>
"""


def maskable(path):
    """A launcher crops a maskable icon to any shape inside its middle 80%: the
    seal is shrunk into that circle on a background that fills the square."""
    return f"""<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">
  <rect width="64" height="64" fill="#f6f1e7"/>
  <g transform="translate(32 32) scale(0.75) translate(-32 -32)">
    <circle cx="32" cy="32" r="30" fill="#fbf3e0" stroke="#6b4a25" stroke-width="3"/>
    <circle cx="32" cy="32" r="24" fill="none" stroke="#b3261e" stroke-width="2.5"/>
    <path fill="#b3261e" d="{path}"/>
  </g>
</svg>
"""


def render(svg_file, png_file, size):
    subprocess.run(
        ["rsvg-convert", "-w", str(size), "-h", str(size), "-o", str(png_file), str(svg_file)],
        check=True,
    )


def main():
    path = glyph_path(simplified_chinese(sys.argv[1] if len(sys.argv) > 1 else FONT))
    favicon = WEB / "favicon.svg"
    favicon.write_text(drawing(path), encoding="utf-8")
    icons = WEB / "icons"
    icons.mkdir(exist_ok=True)
    for size in (192, 512):
        render(favicon, icons / f"icon-{size}.png", size)
    with tempfile.TemporaryDirectory() as tmp:
        square = Path(tmp) / "maskable.svg"
        square.write_text(maskable(path), encoding="utf-8")
        render(square, icons / "icon-maskable-512.png", 512)


if __name__ == "__main__":
    main()
