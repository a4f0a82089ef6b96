"""A rule's fast form on a hot path, generated from its one declaration.

A rule is one function (Eternity's follow rule, `must_follow`), which the engine calls. Where a
benchmark shows that the call itself costs a hot path too much on the pure build (a Python call
costs some 300 instructions, more than the rule's own test), that path may hold the rule's fast
form instead: the function's body, one `return <expression>`, with its parameters replaced by
the call's arguments, written by this module after a marker comment that names the call:

    # fast form of must_follow(hands, b, led, self._trump), generated (core/inline.py)
    must = led if hands[b + led] else self._trump if hands[b + self._trump] else -1

`python -m eterna.core.inline --write` writes every such statement from the function it names
(defined in the same module, or in a module of Eterna it imports from); `--check`, and
tests/core/test_inline.py, fail while one disagrees with its function. A change to the rule is
still one edit, to the function, then `--write`. An argument is evaluated where its parameter
appears, so each must be a name, a constant or an attribute of a name (nothing that calls).
"""

from __future__ import annotations

import ast
import copy
import re
import sys
from pathlib import Path
from typing import Final

from eterna.core.fastwriter import formatted

ROOT: Final = Path(__file__).resolve().parent.parent  # src/eterna
MARKER: Final = re.compile(r"^\s*# fast form of (\w+)\((.*)\), generated \(core/inline\.py\)$")


def _rule(tree: ast.Module, name: str, *, imported: bool = True) -> ast.FunctionDef:
    """The function `name` of the module `tree`, or of a module of Eterna it imports from."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return node
    for node in tree.body if imported else []:
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("eterna."):
            path = ROOT.parent.joinpath(*str(node.module).split(".")).with_suffix(".py")
            if path.is_file():
                try:
                    return _rule(ast.parse(path.read_text()), name, imported=False)
                except ValueError:
                    continue
    raise ValueError(f"no function {name} in the module or in those it imports from")


def _returned(fn: ast.FunctionDef) -> ast.expr:
    """The expression of a rule whose body is a docstring and one `return <expression>`."""
    body = [
        n for n in fn.body if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))
    ]
    if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
        raise ValueError(f"{fn.name}: a rule with a fast form is one `return <expression>`")
    return body[0].value


def _plain(arg: ast.expr) -> bool:
    """A name, a constant or `<name>.<attribute>`: free to evaluate more than once."""
    if isinstance(arg, ast.Attribute):
        return isinstance(arg.value, ast.Name)
    return isinstance(arg, (ast.Name, ast.Constant))


def fast_form(fn: ast.FunctionDef, args: list[ast.expr]) -> ast.expr:
    """`fn`'s returned expression with each parameter replaced by its argument."""
    params = [a.arg for a in fn.args.args]
    if len(params) != len(args) or not all(_plain(a) for a in args):
        raise ValueError(f"{fn.name}: {len(params)} arguments, each a name or an attribute")
    bound = dict(zip(params, args, strict=True))

    class Substitute(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.AST:
            return copy.deepcopy(bound[node.id]) if node.id in bound else node

    form = Substitute().visit(copy.deepcopy(_returned(fn)))
    assert isinstance(form, ast.expr)
    return form


def rewrite(path: Path) -> tuple[str, str]:
    """The module's text as it is and as `--write` writes it (ruff-formatted)."""
    text = path.read_text()
    tree = ast.parse(text)
    lines = text.split("\n")
    statements = {node.lineno: node for node in ast.walk(tree) if isinstance(node, ast.stmt)}
    # from the last marker up, so that a rewritten statement never moves the ones above it
    for k in reversed(range(len(lines))):
        found = MARKER.match(lines[k])
        if not found:
            continue
        stmt = statements.get(k + 2)  # the statement on the marker's next line (1-based)
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
            raise ValueError(f"{path.name}:{k + 2}: the marker precedes `<target> = <form>`")
        call = ast.parse(f"{found[1]}({found[2]})", mode="eval").body
        assert isinstance(call, ast.Call)
        form = fast_form(_rule(tree, found[1]), call.args)
        indent = lines[k][: len(lines[k]) - len(lines[k].lstrip())]
        new = f"{indent}{ast.unparse(stmt.targets[0])} = {ast.unparse(form)}"
        lines[k + 1 : stmt.end_lineno] = [new]
    return text, formatted("\n".join(lines), path)


def marked() -> list[Path]:
    """The game modules holding a generated fast form."""
    return [
        path
        for path in sorted(ROOT.glob("games/*/*.py"))
        if any(MARKER.match(line) for line in path.read_text().split("\n"))
    ]


def main(argv: list[str]) -> int:
    """--write: rewrite each stale fast form; --check: name them, failing if any."""
    if argv not in (["--write"], ["--check"]):
        print("usage: python -m eterna.core.inline --check | --write", file=sys.stderr)
        return 2
    stale = 0
    for path in marked():
        text, want = rewrite(path)
        if text == want:
            continue
        name = path.relative_to(ROOT).as_posix()
        if argv == ["--write"]:
            path.write_text(want)
            print(f"eterna: wrote the fast forms of {name}")
        else:
            print(
                f"{name}: a fast form disagrees with its rule: python -m eterna.core.inline --write"
            )
            stale += 1
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
