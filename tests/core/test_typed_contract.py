"""The contract is typed: no `Any` in the public signatures of core (docs/architecture.md,
"The typed contract"), so mypy checks every caller of it.

Counted: each `Any` in a function's parameter and return annotations, a class's annotated
attributes, module-level annotated names and type aliases, where the name and every enclosing
class are public (dunders count) in a public module. Locals are not counted. Every module of
core is counted, its encoding too (tests/core/test_typed_encodings.py counts the games'
encodings); the games are counted too, and the card data their casts trust is checked against
its TypedDicts.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

from tests.typed_dicts import check_typed, fits

import eterna
from eterna.games.eternitium.cards import DATA as ETERNITIUM_DATA
from eterna.games.eternitium.typeddicts import (
    EternitiumCardsFile,
    EternitiumMission,
    EternitiumPrimitive,
    EternitiumTechnology,
)
from eterna.games.vale.cards import ARTIFACTS as VALE_ARTIFACTS
from eterna.games.vale.cards import DATA as VALE_DATA
from eterna.games.vale.typeddicts import ValeArtifactsFile, ValeCardData, ValeCardsFile

CORE = Path(eterna.__file__).parent / "core"


def _anys(node: ast.AST) -> int:
    return sum(
        (isinstance(n, ast.Name) and n.id == "Any")
        or (isinstance(n, ast.Attribute) and n.attr == "Any")
        or (isinstance(n, ast.Constant) and isinstance(n.value, str) and "Any" in n.value)
        for n in ast.walk(node)
    )


def _public(name: str) -> bool:
    return not name.startswith("_") or (name.startswith("__") and name.endswith("__"))


def public_anys(path: Path) -> list[tuple[str, int]]:
    """(name, line) of each public signature or attribute of `path` that holds `Any`."""
    found: list[tuple[str, int]] = []

    def visit(body: list[ast.stmt], prefix: str, in_class: bool) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _public(node.name):
                a = node.args
                annotated = [
                    arg.annotation
                    for arg in (*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg)
                    if arg is not None and arg.annotation is not None
                ]
                if node.returns is not None:
                    annotated.append(node.returns)
                if any(_anys(x) for x in annotated):
                    found.append((prefix + node.name, node.lineno))
            elif isinstance(node, ast.ClassDef) and _public(node.name):
                visit(node.body, f"{prefix}{node.name}.", True)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                if _public(node.target.id) and _anys(node.annotation):
                    found.append((prefix + node.target.id, node.lineno))
            elif (
                isinstance(node, ast.Assign)
                and not in_class
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, (ast.Subscript, ast.BinOp))
                and _public(node.targets[0].id)
                and _anys(node.value)
            ):
                found.append((node.targets[0].id, node.lineno))  # a type alias

    visit(ast.parse(path.read_text(encoding="utf-8")).body, "", False)
    return found


def test_core_public_signatures_hold_no_any():
    modules = sorted(CORE.glob("*.py"))
    assert len(modules) > 10 and CORE / "encoding.py" in modules
    found = [
        f"core/{path.name}:{line} {name}"
        for path in modules
        if _public(path.stem) or path.stem == "__init__"
        for name, line in public_anys(path)
    ]
    assert not found, "Any in the contract's public signatures (name the type): " + ", ".join(found)


def test_the_count_sees_an_any(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from typing import Any\n"
        "Alias = dict[str, Any]\n"
        "def f(x: Any) -> int: ...\n"
        "def _private(x: Any) -> None: ...\n"
        "class C:\n"
        "    value: Any\n"
        "    def method(self) -> list[Any]: ...\n"
        "def g(x: int) -> None:\n"
        "    y: Any = x\n",
        encoding="utf-8",
    )
    assert [name for name, _ in public_anys(sample)] == ["Alias", "f", "C.value", "C.method"]


GAMES = Path(eterna.__file__).parent / "games"
# Every game's modules, counted the same way, their encodings aside (tests/core/
# test_typed_encodings.py counts those, with core's). The one `Any` allowed: the Vale's
# `AnyStep`, a step whose argument's type is not known: an effect, the work stack and a pending
# choice hold steps of several argument types side by side, which Python cannot say without an
# existential type (vale/effects.py). The card data read from JSON is typed by TypedDicts
# (checked below), no longer `Any`.
GAMES_ALLOWED = {("vale/effects.py", "AnyStep")}


def test_games_public_signatures_hold_no_any():
    modules = [p for p in sorted(GAMES.rglob("*.py")) if not p.name.startswith("encoding")]
    assert len(modules) > 60
    found = [
        f"games/{where}:{line} {name}"
        for path in modules
        for where in (path.relative_to(GAMES).as_posix(),)
        for name, line in public_anys(path)
        if (where, name) not in GAMES_ALLOWED
    ]
    assert not found, "Any in a game's public signatures (name the type): " + ", ".join(found)
    still = {(where, name) for where, _ in GAMES_ALLOWED for name, _ in public_anys(GAMES / where)}
    assert still == GAMES_ALLOWED  # each exception is still needed


def test_the_card_data_is_what_its_typed_dicts_say():
    """The card data files are typed by a `cast` at import (vale/cards.py, eternitium/cards.py):
    each file holds exactly the keys of its TypedDicts (vale/typeddicts.py,
    eternitium/typeddicts.py, interpreted: their optional keys are kept at run time), every
    value of its declared type; a key a reader reads that the data lacks is a mypy error."""
    data = GAMES / "vale" / "data"
    for name, typed in (("cards.json", ValeCardsFile), ("artifacts.json", ValeArtifactsFile)):
        check_typed(json.loads((data / name).read_text("utf-8")), typed, f"vale/{name}")
    cards = GAMES / "eternitium" / "data" / "cards.json"
    check_typed(json.loads(cards.read_text("utf-8")), EternitiumCardsFile, "eternitium")
    # every optional key is met somewhere (a TypedDict declares nothing the data never holds)
    vale_cards = [*VALE_DATA["cards"], *VALE_ARTIFACTS["creatures"]]
    assert set().union(*vale_cards) == set(ValeCardData.__annotations__)
    technologies = ETERNITIUM_DATA["technologies"]
    assert set().union(*technologies) == set(EternitiumTechnology.__annotations__)
    primitives = [op for t in technologies for op in (*t["effect"], *t.get("ai_effect", []))]
    assert set().union(*primitives) == set(EternitiumPrimitive.__annotations__)
    missions = ETERNITIUM_DATA["missions"].values()
    assert set().union(*missions) == set(EternitiumMission.__annotations__)


def test_the_card_check_sees_a_wrong_value():
    card = {"id": "x", "name": "X", "family": "fire", "cost": 1, "set": "base"}
    check_typed(card, ValeCardData, "card")
    for wrong in ({**card, "cost": "1"}, {**card, "colour": "red"}, {"id": "x"}):
        assert not fits(wrong, ValeCardData, "card")
    assert fits({"op": "draw", "portals": "any"}, EternitiumPrimitive, "op")
    assert not fits({"op": "draw", "portals": 3}, EternitiumPrimitive, "op")
