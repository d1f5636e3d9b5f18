"""The picture as an SVG document (the replay viewer), drawn by the same functions as the PNG.

The picture is cut into parts (:func:`got_env.render.board.board_parts`: the borders, each
area's node, each area's units and tokens, the side panel, the fixed text); each part is drawn
alone on a transparent figure of the same geometry, written as SVG, and the parts are stacked in
one document (:func:`svg_document`). A part is named by a key of everything it shows, so a caller
that draws many steps of a game (:class:`SvgParts`) draws each distinct part once; the parts
that change often (the side panel, each area's tokens) are made of pieces, named the same way,
and a new part is put together from its pieces' elements, each distinct piece drawn once
(:mod:`got_env.render.svg_pieces`: the same bytes, a fifth of the time for a replay). In SVG the
fixed text is drawn directly (on top, ``FIXED_ZORDER``), not laid over as pixels, and text stays
text (``svg.fonttype: none``), which keeps documents small.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

import matplotlib
from matplotlib.backends.backend_svg import FigureCanvasSVG

from .canvas import MAP, PANEL, Part, Piece, new_board_figure
from .style import BACKGROUND, DPI, FIG_INCHES
from .svg_pieces import defs_by_id, defs_in_order, join_axes, split_axes

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

# Text as text, deterministic ids, and short font lists (the fonts matplotlib measures with).
SVG_RC = {"svg.fonttype": "none", "svg.hashsalt": "got_env", "svg.id": None,
          "font.sans-serif": ["DejaVu Sans", "sans-serif"],
          "font.monospace": ["DejaVu Sans Mono", "monospace"]}
_NO_ROTATION = re.compile(r' transform="rotate\(-0 [^)]*\)"')
_AUTO_ID = re.compile(r' id="(?:figure|axes|patch|text|line2d|LineCollection|PatchCollection)'
                      r'_\d+"')
_DEFS = re.compile(r"<clipPath .*?</clipPath>|<pattern .*?</pattern>", re.S)
_DIGITS = re.compile(r"(\d\.\d\d)\d+")  # coordinates to 1/100 pt: a third of the bytes
_INDENT = re.compile(r"\n\s+")
_BODY = re.compile(r'<g id="figure_1">\n(.*)\n </g>\n', re.S)


class SvgPart(NamedTuple):
    """A part as SVG: its elements (figure coordinates) and the definitions they refer to (clip
    paths, hatch patterns)."""

    body: str
    clips: tuple[str, ...]


class _Element(NamedTuple):
    """One artist of a piece as SVG: on which axes, its zorder, its place among the piece's
    artists, its element."""

    axes: int
    zorder: float
    index: int
    text: str


class SvgParts:
    """Draws parts as SVG, each distinct key once (one reusable transparent figure).

    A part made of pieces (``Part.pieces``) is put together from its pieces' elements, each
    distinct piece drawn once (:mod:`got_env.render.svg_pieces`): the same bytes as drawing the
    whole part, at a fraction of the cost where most pieces recur (a side panel is some fifty
    pieces; in a 6-player game 122 panels hold about 600 distinct ones). The new pieces of a
    part are drawn together on one figure, then cut apart. A piece that cannot be cut (the
    document is not as expected) is marked, and a part that holds it is drawn whole.
    ``pieces=False`` draws every part whole: the reference the tests hold the pieced drawing to.
    """

    def __init__(self, pieces: bool = True) -> None:
        self.use_pieces = pieces
        self.cache: dict[tuple, SvgPart] = {}
        self.pieces: dict[tuple, tuple[_Element, ...] | None] = {}  # None: cannot be cut
        self.defs: dict[str, str] = {}  # id -> clip path or hatch pattern the pieces use
        self._fig: tuple[Figure, Axes, Axes] | None = None

    def __call__(self, part: Part) -> SvgPart:
        got = self.cache.get(part.key)
        if got is None:
            if part.pieces is not None and self.use_pieces:
                got = self._assemble(part.pieces())
            if got is None:
                got = self._draw(part)
            self.cache[part.key] = got
        return got

    def _render(self, draw: Callable[[Axes, Axes], None]) -> tuple[str, str]:
        """(body, document) of what ``draw(map_ax, panel_ax)`` draws; the body is the figure's
        content, ids of plain groups removed, coordinates shortened, not indented."""
        if self._fig is None:
            self._fig = new_board_figure(transparent=True)
            self._fig[0].patch.set_visible(False)
            FigureCanvasSVG(self._fig[0])
        fig, map_ax, panel_ax = self._fig
        buf = io.StringIO()
        # What savefig would do around print_svg, less its general machinery (a tenth of the
        # cost of a small piece): the SVG settings for the drawing, then the figure's dpi and
        # the settings as they were. Only SVG_RC's keys are set and put back, not all of
        # rcParams copied (matplotlib.rc_context), which cost as much again.
        saved = {k: matplotlib.rcParams[k] for k in SVG_RC}
        try:
            matplotlib.rcParams.update(SVG_RC)
            draw(map_ax, panel_ax)
            fig.canvas.print_svg(buf, metadata={"Date": None})
        finally:
            fig.dpi = DPI
            matplotlib.rcParams.update(saved)
            for ax in (map_ax, panel_ax):
                for artist in [*ax.patches, *ax.texts, *ax.collections, *ax.lines]:
                    artist.remove()
        svg = buf.getvalue()
        match = _BODY.search(svg)
        body = _AUTO_ID.sub("", match.group(1)) if match else ""
        body = _NO_ROTATION.sub("", _INDENT.sub("\n", _DIGITS.sub(r"\1", body))).strip()
        return body, svg

    def _draw(self, part: Part) -> SvgPart:
        body, svg = self._render(part.draw)
        return SvgPart(body, tuple(_DEFS.findall(svg)))

    def _assemble(self, pieces: list[Piece]) -> SvgPart | None:
        """The part that is these pieces, from their elements; None if one cannot be cut."""
        new = {p.key: p for p in pieces if p.key not in self.pieces}
        if new:
            self._cut(list(new.values()))
        elements = []
        for at, p in enumerate(pieces):
            drawn = self.pieces[p.key]
            if drawn is None:
                return None
            elements += [(e.axes, e.zorder, at, e.index, e.text) for e in drawn]
        elements.sort(key=lambda e: e[:4])  # as matplotlib draws: by zorder, then as added
        clips = defs_in_order((e[4] for e in elements), self.defs)
        if clips is None:
            return None
        return SvgPart(join_axes([[e[4] for e in elements if e[0] == a] for a in (MAP, PANEL)]),
                       clips)

    def _cut(self, pieces: list[Piece]) -> None:
        """Draw ``pieces`` on one figure and keep each one's elements (``self.pieces``)."""
        artists: tuple[list, list] = ([], [])  # per axes: (zorder, added, piece, index)

        def draw(map_ax: Axes, panel_ax: Axes) -> None:
            axes = (map_ax, panel_ax)
            for n, p in enumerate(pieces):
                before = [{id(a) for a in ax.get_children()} for ax in axes]
                p.draw(map_ax, panel_ax)
                index = 0
                for k, ax in enumerate(axes):
                    for artist in ax.get_children():
                        if id(artist) not in before[k]:
                            artists[k].append((artist.get_zorder(), len(artists[k]), n, index))
                            index += 1

        body, svg = self._render(draw)
        found = _DEFS.findall(svg)
        defs = defs_by_id(found)
        split = split_axes(body)
        if (split is not None and [len(e) for e in split] == [len(a) for a in artists]
                and defs_in_order([t for e in split for t in e], defs) == tuple(found)):
            cut: list[list[_Element]] = [[] for _ in pieces]
            for k, (elements, drawn) in enumerate(zip(split, artists, strict=True)):
                # the k-th axes' elements are its artists sorted as matplotlib draws them
                for text, (zorder, _, n, index) in zip(elements, sorted(drawn), strict=True):
                    cut[n].append(_Element(k, zorder, index, text))
            self.defs.update(defs)
            for p, elements in zip(pieces, cut, strict=True):
                self.pieces[p.key] = tuple(elements)
        elif len(pieces) > 1:
            for p in pieces:  # find the one that cannot be cut: the others still can
                self._cut([p])
        else:
            self.pieces[pieces[0].key] = None


def svg_document(parts: list[SvgPart], title: str | None = None) -> str:
    """One SVG document of the picture from its parts, in drawing order."""
    width, height = FIG_INCHES[0] * 72, FIG_INCHES[1] * 72
    clips = list(dict.fromkeys(c for p in parts for c in p.clips))
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            f'width="{width:g}pt" height="{height:g}pt" viewBox="0 0 {width:g} {height:g}" '
            f'version="1.1">')
    return "\n".join([head, svg_preamble(title), *(p.body for p in parts if p.body),
                      "<defs>", *clips, "</defs>", "</svg>"])


def svg_preamble(title: str | None = None) -> str:
    """What every document starts with: the style matplotlib writes and the background."""
    width, height = FIG_INCHES[0] * 72, FIG_INCHES[1] * 72
    head = f"<title>{title}</title>" if title else ""
    return (f'{head}<defs><style type="text/css">*{{stroke-linejoin: round; stroke-linecap: '
            f'butt}}</style></defs><rect width="{width:g}" height="{height:g}" '
            f'fill="{BACKGROUND}"/>')
