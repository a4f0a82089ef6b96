"""Each field of a game state is declared once: its annotation in the class body says its type
and how a clone gets it. The rest follows from that declaration (docs/engines.md, "Fields"):

- `__slots__` and `clone`, written into the class by `make fields` (this module:
  `python -m eterna.core.fields --write`) between two marker comments, because the compiled
  build needs them written out (mypyc cannot run a decorator that makes methods at run time,
  and a written-out clone compiles to straight C). `--check` (and tests/core/
  test_clone_declarations.py) fails when a written part disagrees with the declaration;
- the position I/O: `BaseState.to_fields()` and `BaseState.from_fields(start, fields)` read and
  fill every declared field by name, and refuse a reader that misses or invents one;
- `__init__` stays the rules' own: the opening value of each field (a test checks it sets
  every declared field).

`make fields` also writes the contract's shell, `BaseState.apply`, into each game's state class
between two markers of its own, from the template's code with the class's `action_type` named:
CPython 3.11 specializes a call made from interpreted code to a compiled method only when the
method is the object's own class's (docs/compiled.md), so on the compiled build an inherited
`apply` cost 0.86x; the copy is written, never edited, and `--check` fails when it is stale.

How a clone gets a field, by its annotation:

    x: int                        the same object (an immutable value: an int, a tuple...)
    x: Shared[list[int]]          the same object: a list never changed in place
    x: Copied[list[int]]          a shallow copy (`value.copy()`: a list of immutable items)
    x: Copied2[list[list[int]]]   a copy of each inner list
    x: Annotated[Arts | None, clone_arts]   what the function returns for it

A bare `list[...]`, `dict[...]` or `set[...]` is refused: a mutable field says how it is cloned.
"""

from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Final, TypeAlias, TypeVar

T = TypeVar("T")

SHARE: Final = "share"
COPY: Final = "copy"
COPY2: Final = "copy2"

Shared: TypeAlias = Annotated[T, SHARE]  # the same object, for a list never changed in place
Copied: TypeAlias = Annotated[T, COPY]  # a shallow copy
Copied2: TypeAlias = Annotated[T, COPY2]  # a list of lists: each inner list copied

BEGIN: Final = "    # Generated from the fields declared above by `make fields` (core/fields.py):"
END: Final = "    # End of the generated part."
SHELL_BEGIN: Final = "    # BaseState.apply, written by `make fields` (core/fields.py):"
SHELL_END: Final = "    # End of the written shell."
ROOT: Final = Path(__file__).resolve().parent.parent  # src/eterna
_MUTABLE: Final = ("list", "dict", "set")


@dataclass(frozen=True)
class Field:
    name: str
    kind: str  # SHARE, COPY, COPY2, or the name of a function that clones the value


def _kind(note: ast.expr, where: str) -> str:
    if isinstance(note, ast.Subscript) and isinstance(note.value, ast.Name):
        head = note.value.id
        if head == "Shared":
            return SHARE
        if head == "Copied":
            return COPY
        if head == "Copied2":
            return COPY2
        if head == "Annotated":
            args = note.slice.elts if isinstance(note.slice, ast.Tuple) else []
            if len(args) == 2 and isinstance(args[1], ast.Name):
                return args[1].id
            raise ValueError(f"{where}: Annotated[type, function] names the cloning function")
        if head in _MUTABLE:
            raise ValueError(
                f"{where}: a mutable field says how a clone gets it (Copied[...], Copied2[...] "
                "or Annotated[..., function])"
            )
    return SHARE


def _class(tree: ast.Module, name: str) -> ast.ClassDef:
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            return node
    raise ValueError(f"no class {name}")


def declared(path: str, name: str) -> tuple[Field, ...]:
    """The fields class `name` of module `path` (under src/eterna) declares, in order."""
    source = (ROOT / path).read_text()
    return _declared(_class(ast.parse(source), name), f"{path}:{name}")


def _declared(cls: ast.ClassDef, where: str) -> tuple[Field, ...]:
    fields = []
    for node in cls.body:
        if not (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)):
            continue
        note = node.annotation
        if node.value is not None or (
            isinstance(note, ast.Subscript)
            and isinstance(note.value, ast.Name)
            and note.value.id == "ClassVar"
        ):
            continue
        name = node.target.id
        fields.append(Field(name, _kind(note, f"{where}.{name}")))
    return tuple(fields)


def _clone_line(f: Field) -> str:
    value = f"self.{f.name}"
    if f.kind == COPY:
        value += ".copy()"
    elif f.kind == COPY2:
        value = f"[x.copy() for x in {value}]"
    elif f.kind != SHARE:
        value = f"{f.kind}({value})"
    return f"        new.{f.name} = {value}"


def generated(fields: tuple[Field, ...], root: bool) -> list[str]:
    """The lines `make fields` writes between the markers of a class declaring `fields`."""
    slots = [f'        "{f.name}",' for f in sorted(fields, key=lambda f: f.name)]
    first = "type(self).__new__(type(self))" if root else "super().clone()"
    return [
        BEGIN,
        "    # do not edit; edit the declaration and run it again.",
        "    __slots__ = (",
        *slots,
        "    )",
        "",
        "    def clone(self) -> Self:",
        '        """An independent copy: each field as its declaration says."""',
        f"        new = {first}",
        *(_clone_line(f) for f in fields),
        "        return new",
        "",
        END,
    ]


def rewrite(path: str, name: str) -> tuple[str, str]:
    """The module's text as it is and as `make fields` writes it."""
    file = ROOT / path
    text = file.read_text()
    lines = text.split("\n")
    cls = _class(ast.parse(text), name)
    try:
        begin = lines.index(BEGIN, cls.lineno)
        end = lines.index(END, begin)
    except ValueError:
        raise ValueError(f"{path}:{name} lacks the generated part's markers") from None
    root = not any(isinstance(b, ast.Subscript | ast.Name) and _base(b) for b in cls.bases)
    new = generated(_declared(cls, f"{path}:{name}"), root)
    out = "\n".join([*lines[:begin], *new, *lines[end + 1 :]])
    return text, out


def _base(node: ast.expr) -> bool:
    """A base class that declares fields itself (its clone is extended)."""
    target = node.value if isinstance(node, ast.Subscript) else node
    return isinstance(target, ast.Name) and target.id in {c for _, c in classes()}


def classes() -> list[tuple[str, str]]:
    """Every class that declares fields: (its module's path under src/eterna, its name), found
    by the generated part's first marker in its body."""
    found = []
    for file in sorted(ROOT.rglob("*.py")):
        text = file.read_text()
        if BEGIN not in text.split("\n"):
            continue
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef) and any(
                text.split("\n")[i] == BEGIN for i in range(node.lineno, node.end_lineno or 0)
            ):
                found.append((file.relative_to(ROOT).as_posix(), node.name))
    return found


def _template() -> list[str]:
    """`BaseState.apply`'s lines (core/state.py), its docstring left out."""
    text = (ROOT / "core" / "state.py").read_text()
    for node in _class(ast.parse(text), "BaseState").body:
        if isinstance(node, ast.FunctionDef) and node.name == "apply":
            lines = text.split("\n")[node.lineno - 1 : node.end_lineno]
            doc = node.body[0]
            if isinstance(doc, ast.Expr) and isinstance(doc.value, ast.Constant):
                first, last = doc.lineno - node.lineno, (doc.end_lineno or 0) - node.lineno
                lines = lines[:first] + lines[last + 1 :]
            return lines
    raise ValueError("core/state.py: BaseState has no apply")


def _action_class(cls: ast.ClassDef, where: str) -> str:
    """The action class a state class names by `action_type = X` in its own body."""
    for node in cls.body:
        if isinstance(node, ast.AnnAssign):
            target: ast.expr = node.target
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
        else:
            continue
        if (
            isinstance(target, ast.Name)
            and target.id == "action_type"
            and isinstance(node.value, ast.Name)
        ):
            return node.value.id
    raise ValueError(f"{where}: a class that holds the shell names its action_type in its body")


def shell(action_class: str) -> list[str]:
    """The lines `make fields` writes between the shell's markers: the template's code with the
    type variable `ActionT` named as the game's action class."""
    body = [re.sub(r"\bActionT\b", action_class, line) for line in _template()]
    return [
        SHELL_BEGIN,
        "    # do not edit; edit BaseState.apply and run it again.",
        *body,
        "",
        SHELL_END,
    ]


def shells() -> list[tuple[str, str]]:
    """Every class that holds the written shell: (its module's path, its name)."""
    found = []
    for file in sorted(ROOT.rglob("*.py")):
        text = file.read_text()
        lines = text.split("\n")
        if SHELL_BEGIN not in lines:
            continue
        for node in ast.parse(text).body:
            if (
                isinstance(node, ast.ClassDef)
                and SHELL_BEGIN in lines[node.lineno : node.end_lineno]
            ):
                found.append((file.relative_to(ROOT).as_posix(), node.name))
    return found


def rewrite_shell(path: str, name: str) -> tuple[str, str]:
    """The module's text as it is and with class `name`'s shell written afresh."""
    text = (ROOT / path).read_text()
    lines = text.split("\n")
    cls = _class(ast.parse(text), name)
    begin = lines.index(SHELL_BEGIN, cls.lineno)
    end = lines.index(SHELL_END, begin)
    new = shell(_action_class(cls, f"{path}:{name}"))
    return text, "\n".join([*lines[:begin], *new, *lines[end + 1 :]])


def _rewrites() -> list[tuple[str, str, str]]:
    """(path, class, part) for every part `make fields` writes: a class's fields or its shell."""
    return [(p, n, "fields") for p, n in classes()] + [(p, n, "shell") for p, n in shells()]


def _rewrite(path: str, name: str, part: str) -> tuple[str, str]:
    return rewrite(path, name) if part == "fields" else rewrite_shell(path, name)


def stale() -> list[str]:
    """The classes whose written parts disagree with their declaration or the template."""
    out = []
    for path, name, part in _rewrites():
        text, want = _rewrite(path, name, part)
        if text != want:
            out.append(f"{path}:{name}")
    return out


def main(argv: list[str]) -> int:
    if argv == ["--write"]:
        for path, name, part in _rewrites():
            text, want = _rewrite(path, name, part)
            if text != want:
                (ROOT / path).write_text(want)
                print(f"eterna: wrote the {part} part of {path}:{name}")
        return 0
    if argv == ["--check"]:
        bad = stale()
        for where in bad:
            print(
                f"{where}: __slots__, clone or apply disagrees with the declaration or "
                "BaseState.apply: run `make fields`"
            )
        return 1 if bad else 0
    print("usage: python -m eterna.core.fields --check | --write", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
