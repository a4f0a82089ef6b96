"""The project's size rule for source files (docs/architecture.md, "Size"): a module over 600
lines is split by responsibility, or listed here with the reason it stays whole. Ruff checks the
functions (C901, PLR0912, PLR0915 in pyproject.toml); this checks the files, which ruff cannot."""

from __future__ import annotations

from pathlib import Path

import eterna

MAX_LINES = 600
SRC = Path(eterna.__file__).parent

#: module (relative to src/eterna) -> why it stays over MAX_LINES
EXEMPT: dict[str, str] = {}


def test_no_source_file_passes_the_size_rule_unexplained() -> None:
    over = {
        str(path.relative_to(SRC)): n
        for path in sorted(SRC.rglob("*.py"))
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    unexplained = {name: n for name, n in over.items() if name not in EXEMPT}
    assert not unexplained, (
        f"over {MAX_LINES} lines: split by responsibility, or say why: {unexplained}"
    )
    stale = sorted(set(EXEMPT) - set(over))
    assert not stale, f"exempt but no longer over {MAX_LINES} lines: {stale}"
