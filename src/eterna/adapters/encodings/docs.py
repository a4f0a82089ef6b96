"""docs/encodings.md's layout tables, written from each encoding's declared layout.

Each table sits between `<!-- layout: <key> -->` and `<!-- /layout -->` in the page; `render`
rewrites every such table from the declaration (`eterna.core.layout.markdown`), the rest of the
page untouched. tests/adapters/test_layout.py fails when the page is stale; rewrite it with

    python -m eterna.adapters.encodings.docs [docs/encodings.md]
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from eterna.adapters.encodings import encoding_class
from eterna.core.encoding import Encoding
from eterna.core.layout import Layout, markdown

#: the tables of the page: marker key -> (game id, encoding version)
TABLES: dict[str, tuple[str, int]] = {
    "eternity": ("eternity", 1),
    "vale-1": ("vale", 1),
    "vale-2": ("vale", 2),
    "eternitium": ("eternitium", 1),
}
_SECTION = re.compile(r"(<!-- layout: ([\w-]+) -->\n)(.*?)(<!-- /layout -->)", re.S)


def layout_of(cls: type[Encoding]) -> Layout:
    layout: Layout = getattr(cls, "layout")  # noqa: B009 (each game's class declares it)
    return layout


def render(page: str) -> str:
    """`page` with every marked layout table rewritten from its declaration."""

    def table(match: re.Match[str]) -> str:
        key = match.group(2)
        if key not in TABLES:
            raise KeyError(f"unknown layout {key!r}; known: {', '.join(TABLES)}")
        game_id, version = TABLES[key]
        text = markdown(layout_of(encoding_class(game_id, version=version)))
        return f"{match.group(1)}{text}\n{match.group(4)}"

    return _SECTION.sub(table, page)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    path = Path(args[0] if args else "docs/encodings.md")
    page = path.read_text(encoding="utf-8")
    new = render(page)
    if new != page:
        path.write_text(new, encoding="utf-8")
        print(f"{path}: layout tables rewritten")
    else:
        print(f"{path}: up to date")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
