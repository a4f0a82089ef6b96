"""A rule's fast form on a hot path is generated from its one function (core/inline.py): the
forms written in the engines are current, and the generator writes what the function says."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

from eterna.core import inline


def test_every_fast_form_is_what_its_rule_says() -> None:
    marked = {p.relative_to(inline.ROOT).as_posix() for p in inline.marked()}
    # Eternity's follow rule in its legal moves and its random playout (docs/performance.md)
    assert {"games/eternity/state.py", "games/eternity/playout.py"} <= marked
    stale = [path for path in inline.marked() if len(set(inline.rewrite(path))) > 1]
    assert not stale, "python -m eterna.core.inline --write"


def _rule(source: str) -> ast.FunctionDef:
    fn = ast.parse(textwrap.dedent(source)).body[0]
    assert isinstance(fn, ast.FunctionDef)
    return fn


def test_a_fast_form_is_the_rule_with_its_arguments() -> None:
    rule = _rule(
        '''
        def must_follow(hands, b, led, trump):
            """doc"""
            return led if hands[b + led] else trump if hands[b + trump] else -1
        '''
    )
    call = ast.parse("must_follow(hs, p * 3, self._led, 2)", mode="eval").body
    assert isinstance(call, ast.Call)
    with pytest.raises(ValueError, match="each a name or an attribute"):  # p * 3 is not plain
        inline.fast_form(rule, call.args)
    call = ast.parse("must_follow(hs, b, self._led, 2)", mode="eval").body
    assert isinstance(call, ast.Call)
    assert ast.unparse(inline.fast_form(rule, call.args)) == (
        "self._led if hs[b + self._led] else 2 if hs[b + 2] else -1"
    )


def test_a_rule_with_a_fast_form_is_one_expression() -> None:
    rule = _rule(
        """
        def must_follow(hands, b, led, trump):
            if hands[b + led]:
                return led
            return trump
        """
    )
    with pytest.raises(ValueError, match="one `return <expression>`"):
        inline.fast_form(rule, [ast.Name("x"), ast.Name("y"), ast.Name("z"), ast.Name("t")])


def test_a_stale_fast_form_is_rewritten(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "def rule(a: int, b: int) -> int:\n"
        "    return a if a > b else b\n"
        "\n"
        "\n"
        "def use(x: int, y: int) -> int:\n"
        "    # fast form of rule(x, y), generated (core/inline.py)\n"
        "    m = x\n"
        "    return m\n"
    )
    text, want = inline.rewrite(module)
    assert text != want
    assert "    m = x if x > y else y\n" in want
    module.write_text(want)
    assert len(set(inline.rewrite(module))) == 1
