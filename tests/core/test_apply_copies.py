"""Each game's state class holds a copy of the contract's shell, `BaseState.apply`, and the copy
is the template's very code (its action type named), written by `make fields` (core/fields.py),
so the shell is still written once.

Why a copy: CPython 3.11 specializes a call made from interpreted code (`state.apply(a)` in the
server, the CLI, a script) to a compiled method only when the object's type is the method's own
class; a call reaching the inherited `BaseState.apply` took the generic path, some 180
instructions a call on the compiled build (docs/compiled.md, docs/performance.md). The pure
build runs the copy as it ran the template (the same count a call).
"""

from __future__ import annotations

import ast
import copy
from pathlib import Path

import pytest

import eterna
from eterna.core.registry import game_ids, load_game
from eterna.core.state import BaseState

ROOT = Path(eterna.__file__).resolve().parent
GAMES = {"eternity": 4, "vale": 2, "eternitium": 2}  # the shipped games, a player count each


def _method(path: Path, cls: str, name: str) -> ast.FunctionDef:
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.ClassDef) and node.name == cls:
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == name:
                    return item
    raise AssertionError(f"{path.name}: no {cls}.{name}")


def _code(fn: ast.FunctionDef) -> ast.FunctionDef:
    """`fn` without its docstring (comments are not in the tree)."""
    code = copy.deepcopy(fn)
    first = code.body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
        code.body = code.body[1:]
    return code


def _copy_for(action_class: str) -> ast.FunctionDef:
    """The template's code as a game's class holds it: `ActionT` named as the game's class."""
    template = _code(_method(ROOT / "core" / "state.py", "BaseState", "apply"))

    class Name(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.AST:
            return ast.Name(action_class, node.ctx) if node.id == "ActionT" else node

    game_s = Name().visit(template)
    assert isinstance(game_s, ast.FunctionDef)
    return game_s


def test_the_shipped_games_are_the_ones_checked() -> None:
    assert set(GAMES) == set(game_ids())


@pytest.mark.parametrize("game_id", GAMES)
def test_each_game_holds_the_template_s_apply(game_id: str) -> None:
    state = load_game(game_id).new_game(GAMES[game_id], seed=1)
    assert isinstance(state, BaseState)
    cls = type(state)
    assert "apply" in cls.__dict__, f"{cls.__name__} runs the inherited apply"
    action_class = cls.action_type.__name__
    want = _copy_for(action_class)
    got = _code(_method(ROOT / "games" / game_id / "state.py", cls.__name__, "apply"))
    assert ast.dump(got) == ast.dump(want), (
        f"{cls.__name__}.apply is not BaseState.apply's code: run `make fields`"
    )


def test_a_changed_template_is_a_stale_copy() -> None:
    """The check sees a difference of one statement (the test above can fail)."""
    want = _copy_for("EternityAction")
    edited = _copy_for("EternityAction")
    edited.body = edited.body[:-1]
    assert ast.dump(edited) != ast.dump(want)
    assert ast.dump(_copy_for("ValeAction")) != ast.dump(want)


def test_make_fields_writes_the_shell_into_each_game_s_state() -> None:
    """The copies are written by `make fields`, from the template, in the registered games'
    state classes, and a changed template makes every copy stale."""
    from eterna.core import fields

    held = {path.split("/")[1]: name for path, name in fields.shells()}
    assert held == {
        "eternity": "EternityState",
        "vale": "ValeState",
        "eternitium": "EternitiumState",
    }
    written = fields.shell("ValeAction")
    assert written[0] == fields.SHELL_BEGIN and written[-1] == fields.SHELL_END
    code = "\n".join(line[4:] for line in written[2:-1])
    assert ast.dump(_code(ast.parse(code).body[0])) == ast.dump(_copy_for("ValeAction"))  # type: ignore[arg-type]
    assert "ActionT" not in code
