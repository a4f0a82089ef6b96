"""The contract is typed: no `Any` in the public signatures of core (docs/architecture.md,
"The typed contract"), so mypy checks every caller of it.

Counted: each `Any` in a function's parameter and return annotations, a class's annotated
attributes, module-level annotated names and type aliases, where the name and every enclosing
class are public (dunders count) in a public module. Locals are not counted. The encodings
(NumPy arrays and memory views) are left out.
"""

from __future__ import annotations

import ast
from pathlib import Path

import eterna

CORE = Path(eterna.__file__).parent / "core"
LEFT_OUT = {"encoding.py", "fastwriter.py"}


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
    modules = [p for p in sorted(CORE.glob("*.py")) if p.name not in LEFT_OUT]
    assert len(modules) > 10
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


VALE = Path(eterna.__file__).parent / "games" / "vale"
# The Vale's engine, counted the same way (its encodings left out as core's are). Allowed: the
# card data as read from JSON (cards.py), and `AnyStep`, a step whose argument's type is not
# known: an effect, the work stack and a pending choice hold steps of several argument types
# side by side, which Python cannot say without an existential type (effects.py).
VALE_LEFT_OUT = {"encoding.py", "encoding_v2.py"}
VALE_ALLOWED = {
    ("cards.py", "RULES"),
    ("cards.py", "CARDS"),
    ("cards.py", "TILES"),
    ("effects.py", "AnyStep"),
}


def test_vale_public_signatures_hold_no_any():
    modules = [p for p in sorted(VALE.glob("*.py")) if p.name not in VALE_LEFT_OUT]
    assert len(modules) > 20
    found = [
        f"games/vale/{path.name}:{line} {name}"
        for path in modules
        for name, line in public_anys(path)
        if (path.name, name) not in VALE_ALLOWED
    ]
    assert not found, "Any in the Vale's public signatures (name the type): " + ", ".join(found)
