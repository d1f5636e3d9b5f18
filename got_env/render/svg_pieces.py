"""The SVG of a figure cut into its artists' elements, and elements put back together.

Why: most of a part of the board picture (:func:`got_env.render.board.board_parts`) recurs
from step to step even where the part as a whole does not: the side panel changes whenever one
number in it does, but each house's chip on a track, each number in a column, is drawn again
and again. Drawing the same text again is what costs in matplotlib, so
:class:`~got_env.render.svg.SvgParts` draws each distinct piece of a part once and puts the
part's document together from the pieces' elements.

That gives the same bytes as drawing the whole part because of how matplotlib writes SVG: each
axes is one ``<g>`` of the figure, each artist one ``<g>`` inside its axes, written in drawing
order (zorder, then the order the artists were added, a stable sort), and what an artist
writes depends on that artist alone (clip paths and hatch patterns are named by a hash of what
they are, and the numbered ids of plain groups are removed before this module sees the text).
The definitions those elements refer to are written after the figure, clip paths in order of
first use, then hatch patterns in order of first use.

Nothing here trusts that blindly: :func:`split_axes` refuses a body that does not put back
together into the very text it was cut from, and :func:`defs_in_order` one whose elements name
a definition it was not given, so a matplotlib that writes otherwise makes the caller draw
whole parts again rather than a different picture.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_GROUP = re.compile(r"<g\b[^>]*>|</g>")  # markup is escaped in text and attributes
_DEF_ID = re.compile(r'<(?:clipPath|pattern) id="([^"]+)"')
_REF = re.compile(r'url\(#([^)"]+)\)')


def join_axes(axes: list[list[str]]) -> str:
    """The figure body holding, per axes in order, these artists' elements (an axes without
    any is the empty group ``<g/>``, as matplotlib writes it)."""
    return "\n".join("<g>\n" + "\n".join(elements) + "\n</g>" if elements else "<g/>"
                     for elements in axes)


def split_axes(body: str) -> list[list[str]] | None:
    """Per axes, its artists' elements in drawing order: the inverse of :func:`join_axes`.

    ``body`` is the text inside the figure's group with no indentation (what
    ``SvgParts`` keeps of a document). None when it is not exactly that: axes groups holding
    artist groups, one per line, so that :func:`join_axes` gives ``body`` back.
    """
    axes: list[list[str]] = []
    depth, start = 0, 0
    for m in _GROUP.finditer(body):
        tag = m.group()
        if tag == "</g>":
            depth -= 1
            if depth == 1:
                axes[-1].append(body[start:m.end()])
            elif depth < 0:
                return None
            continue
        closed = tag.endswith("/>")
        if depth == 0:
            axes.append([])
        elif depth == 1:
            start = m.start()
            if closed:
                axes[-1].append(tag)
        if not closed:
            depth += 1
    if depth or join_axes(axes) != body:
        return None
    return axes


def defs_by_id(defs: Iterable[str]) -> dict[str, str]:
    """Clip path and hatch pattern definitions (as matplotlib writes them) by their id."""
    out = {}
    for d in defs:
        m = _DEF_ID.match(d)
        if m:
            out[m.group(1)] = d
    return out


def defs_in_order(elements: Iterable[str], defs: dict[str, str]) -> tuple[str, ...] | None:
    """The definitions that ``elements`` (in drawing order) refer to, in the order matplotlib
    writes them: clip paths by first use, then hatch patterns by first use. None when an
    element refers to an id that ``defs`` lacks."""
    clips: dict[str, str] = {}
    patterns: dict[str, str] = {}
    for element in elements:
        for ref in _REF.findall(element):
            d = defs.get(ref)
            if d is None:
                return None
            (clips if d.startswith("<clipPath") else patterns).setdefault(ref, d)
    return (*clips.values(), *patterns.values())
