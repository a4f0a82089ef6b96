"""An observation is written once; its fast path is generated from that one writer.

A game's encoding (`eterna.games.<id>.encoding`) declares what a seat sees as a class `Seen` (one
typed attribute a fact: the seat's hand, the trick, the scores...) and writes every block of its
layout from a `Seen` alone, in methods taking it as `s: Seen` (`_write` and the helpers it calls).
Two functions give the facts, one line a fact each, in the declaration's order:

- `seen_in_view(view, s)`: from the view (the reference path: a spectator, or a state of
  another class);
- `seen_in_state(st, seat, s)`: from the engine's fields, for a seat: plain local assignments
  (`hands = st._hands`) and one `s.<fact> = <expression>` a fact. A fact of one argument (a
  seat's hand size, a family's cards) is a lambda, which the writer calls.

Filling a `Seen` cost the pure build a fifth of an observation (a store and a read a fact, a
list a seat), so the fast path never builds one: this module writes, between two marker
comments in the encoding class, `write_state(st, seat, m)` and a `<helper>_state` for each
writer helper, the writer's own code with each `s.<fact>` replaced by its expression from
`seen_in_state` (and each call of a lambda fact by its body), the locals those read assigned at
the top of each method as `st_<name>`. So a change to what a seat observes is one edit to the
writer (a new fact: its declaration and its line in each source), then `make observers`
(`python -m eterna.core.fastwriter --write`); `--check`, and tests/adapters/
test_fast_observe.py, fail while a fast path is stale. The Hypothesis test there holds the
two paths equal float for float, which now says: the two sources agree.

The description (`Seen`, `seen_in_view`, `seen_in_state`) may sit in a module of its own beside
the encoding (Eternitium's and the Vale's `observation.py`), which the encoding imports `Seen`
and `seen_in_state` from by name: the generator follows that import, and refuses a generated
method reading a name the encoding's module neither defines nor imports (the sources' own
names, `PH_STEAL`..., must be imported there too).

Since each `s.<fact>` becomes its whole expression, the writer reads a fact once a method
where it is used twice (binding it to a local).

An encoding subclass extends its parent's description (the Vale's version 2): its `Seen`
subclasses the parent's with the new facts, its `seen_in_state` opens with a call of the
parent's, imported by name (`from <module> import seen_in_state as base_seen_in_state`, then
`base_seen_in_state(st, seat, s)`), whose locals and facts the generator reads from that
module, and its `_write` calls `super()._write(s, m)` (generated: `super().write_state(st,
seat, m)`), narrowing its `s` with `assert isinstance(s, Seen)`, which the generated code,
holding no Seen, drops.
"""

from __future__ import annotations

import ast
import builtins
import copy
import subprocess
import sys
from pathlib import Path
from typing import Final

BEGIN: Final = (
    "    # Generated from _write and seen_in_state by `make observers` (core/fastwriter.py):"
)
END: Final = "    # End of the generated observer."
ROOT: Final = Path(__file__).resolve().parent.parent  # src/eterna
#: the encodings whose fast path is generated are found by their markers (core names no game):
#: every game's (Eternity's, Eternitium's, the Vale's and its version 2 subclass).
SEEN: Final = "s"  # the writer's parameter holding what the seat sees
PREFIX: Final = "st_"  # seen_in_state's locals, in the generated methods


def _function(body: list[ast.stmt], name: str) -> ast.FunctionDef:
    for node in body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return node
    raise ValueError(f"no function {name}")


def _class(tree: ast.Module, name: str) -> ast.ClassDef:
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            return node
    raise ValueError(f"no class {name}")


class _Sources:
    """seen_in_state read as its locals and facts, each an expression; with a parent's (the
    module's `seen_in_state` may open with a call of the one it extends, imported by name)."""

    def __init__(self, fn: ast.FunctionDef, tree: ast.Module | None = None) -> None:
        args = [a.arg for a in fn.args.args]
        if args != ["st", "seat", SEEN]:
            raise ValueError("seen_in_state(st, seat, s) takes the state, the seat and the Seen")
        self.state_type = fn.args.args[0].annotation
        self.locals: dict[str, ast.expr] = {}
        self.facts: dict[str, ast.expr] = {}
        self.own: list[str] = []  # the facts this function sets itself, in order
        body = [
            node
            for node in fn.body
            if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))
        ]  # (the docstring)
        if body and _extends(body[0]) is not None and tree is not None:
            parent = _parent(tree, body.pop(0))
            self.locals.update(parent.locals)
            self.facts.update(parent.facts)
        parents = dict(self.locals)
        for node in body:
            if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
                raise ValueError(f"seen_in_state line {node.lineno}: only plain assignments")
            target = node.targets[0]
            if isinstance(target, ast.Name):
                value = self._renamed(node.value)
                if target.id in parents and ast.dump(parents[target.id]) != ast.dump(value):
                    raise ValueError(f"seen_in_state: local {target.id} differs from its parent's")
                self.locals[target.id] = value
            elif (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == SEEN
            ):
                if target.attr in self.facts:
                    raise ValueError(f"seen_in_state: s.{target.attr} is set twice")
                self.facts[target.attr] = self._renamed(node.value)
                self.own.append(target.attr)
            else:
                raise ValueError(f"seen_in_state line {node.lineno}: assign a local or s.<fact>")

    def _renamed(self, expr: ast.expr) -> ast.expr:
        """`expr` with seen_in_state's locals renamed st_<name> (none shadows the writer's)."""
        out = copy.deepcopy(expr)
        for node in ast.walk(out):
            if isinstance(node, ast.Name) and node.id in self.locals:
                node.id = PREFIX + node.id
        return out

    def needs(self, expr: ast.expr) -> set[str]:
        """The locals `expr` reads, and the locals they read in turn."""
        found: set[str] = set()
        todo = [expr]
        while todo:
            for node in ast.walk(todo.pop()):
                if isinstance(node, ast.Name) and node.id.startswith(PREFIX):
                    name = node.id[len(PREFIX) :]
                    if name in self.locals and name not in found:
                        found.add(name)
                        todo.append(self.locals[name])
        return found


def _extends(node: ast.stmt) -> str | None:
    """The name called by a statement `<name>(st, seat, s)`, the parent source it extends."""
    if (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Name)
        and [a.id for a in node.value.args if isinstance(a, ast.Name)] == ["st", "seat", SEEN]
    ):
        return node.value.func.id
    return None


def _module(name: str) -> ast.Module:
    """The parsed source of module `name` (dotted, under src/)."""
    path = ROOT.parent.joinpath(*name.split(".")).with_suffix(".py")
    return ast.parse(path.read_text())


def _defining(tree: ast.Module, name: str) -> ast.Module:
    """The module that defines `name` (a function or class): `tree` itself, or the module
    `tree` imports it from under its own name (`from <module> import name`), followed on. So
    an encoding may keep its description (`Seen`, `seen_in_view`, `seen_in_state`) in a module
    of its own and its writer, with the generated fast path, in the class that imports it."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef) and node.name == name:
            return tree
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                if alias.name == name and alias.asname in (None, name):
                    return _defining(_module(node.module), name)
    raise ValueError(f"no {name} defined or imported by name")


def _parent(tree: ast.Module, call: ast.stmt) -> _Sources:
    """The sources of the parent `seen_in_state` that `call` calls: the function of that name
    in the module it is imported from (`from <module> import seen_in_state as <name>`)."""
    name = _extends(call)
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                if (alias.asname or alias.name) == name and alias.name == "seen_in_state":
                    parent = _defining(_module(node.module), "seen_in_state")
                    return _Sources(_function(parent.body, "seen_in_state"), parent)
    raise ValueError(f"seen_in_state extends {name}, which no `from ... import` names")


def _is_narrowing(stmt: ast.stmt) -> bool:
    """`assert isinstance(s, ...)`: the writer of a subclass narrowing the parent's Seen to
    its own (for the type checker; the generated code holds no Seen)."""
    return (
        isinstance(stmt, ast.Assert)
        and isinstance(stmt.test, ast.Call)
        and isinstance(stmt.test.func, ast.Name)
        and stmt.test.func.id == "isinstance"
        and isinstance(stmt.test.args[0], ast.Name)
        and stmt.test.args[0].id == SEEN
    )


class _Inline(ast.NodeTransformer):
    """A writer method over `s: Seen` made into one over the state."""

    def __init__(self, sources: _Sources, writers: set[str]) -> None:
        self.sources = sources
        self.writers = writers
        self.used: set[str] = set()  # seen_in_state's locals the method needs

    def _fact(self, node: ast.Attribute) -> ast.expr:
        fact = self.sources.facts.get(node.attr)
        if fact is None:
            raise ValueError(f"line {node.lineno}: seen_in_state does not set s.{node.attr}")
        self.used |= self.sources.needs(fact)
        return copy.deepcopy(fact)

    def visit_Call(self, node: ast.Call) -> ast.AST:
        """s.<fact>(x) of a fact of one argument (`s.<fact> = lambda t: ...`): its body, with
        x in place of t."""
        f = node.func
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == SEEN:
            fact = self._fact(f)
            if not (isinstance(fact, ast.Lambda) and len(fact.args.args) == len(node.args)):
                raise ValueError(f"line {node.lineno}: s.{f.attr} is not a lambda of that arity")
            bound: dict[str, ast.AST] = {
                a.arg: self.visit(x) for a, x in zip(fact.args.args, node.args, strict=True)
            }
            body = fact.body
            for sub in ast.walk(body):
                for field, value in ast.iter_fields(sub):
                    if isinstance(value, ast.Name) and value.id in bound:
                        setattr(sub, field, copy.deepcopy(bound[value.id]))
                    elif isinstance(value, list):
                        value[:] = [
                            copy.deepcopy(bound[v.id])
                            if isinstance(v, ast.Name) and v.id in bound
                            else v
                            for v in value
                        ]
            if isinstance(body, ast.Name) and body.id in bound:
                return copy.deepcopy(bound[body.id])
            return body
        passes_seen = any(isinstance(a, ast.Name) and a.id == SEEN for a in node.args)
        self.generic_visit(node)
        if (  # super().<writer>(s, ...): the parent's generated twin, over the state
            passes_seen
            and isinstance(f, ast.Attribute)
            and isinstance(f.value, ast.Call)
            and isinstance(f.value.func, ast.Name)
            and f.value.func.id == "super"
        ):
            if f.attr == "_write":  # (s, m) -> (st, seat, m)
                node.args.insert(1, ast.Name("seat", ast.Load()))
            f.attr = _twin(f.attr)
        return node

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        if isinstance(node.value, ast.Name) and node.value.id == SEEN:
            fact = self._fact(node)
            if isinstance(fact, ast.Lambda):
                raise ValueError(f"line {node.lineno}: s.{node.attr} is a lambda: call it")
            return fact
        if (  # self.<writer>: its generated twin
            isinstance(node.value, ast.Name)
            and node.value.id == "self"
            and node.attr in self.writers
        ):
            return ast.Attribute(ast.Name("self", ast.Load()), _twin(node.attr), node.ctx)
        self.generic_visit(node)
        return node

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id == SEEN and not isinstance(node.ctx, ast.Load):
            raise ValueError(f"line {node.lineno}: a writer never rebinds `{SEEN}`, its Seen")
        if node.id == SEEN:  # passed on to a writer helper: the state instead
            return ast.Name("st", node.ctx)
        return node


def _twin(name: str) -> str:
    """The generated method of writer method `name`."""
    return "write_state" if name == "_write" else f"{name}_state"


def _writers(cls: ast.ClassDef) -> list[ast.FunctionDef]:
    """The class's methods taking `s: Seen`, in order."""
    return [
        node
        for node in cls.body
        if isinstance(node, ast.FunctionDef)
        and len(node.args.args) > 1
        and node.args.args[1].arg == SEEN
    ]


def _method(fn: ast.FunctionDef, sources: _Sources, writers: set[str]) -> ast.FunctionDef:
    inline = _Inline(sources, writers)
    new = copy.deepcopy(fn)
    body = [
        inline.visit(stmt)
        for stmt in new.body
        if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant))
        and not _is_narrowing(stmt)
    ]
    # `seat = s.seat` in the writer is the method's own `seat` parameter here
    body = [
        stmt
        for stmt in body
        if not (
            isinstance(stmt, ast.Assign)
            and isinstance(stmt.value, ast.Name)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
            and stmt.targets[0].id == stmt.value.id
        )
    ]
    order = list(sources.locals)  # the locals in seen_in_state's order
    prelude: list[ast.stmt] = [
        ast.Assign([ast.Name(PREFIX + name, ast.Store())], copy.deepcopy(sources.locals[name]))
        for name in order
        if name in inline.used
    ]
    args = new.args.args
    state = ast.arg("st", copy.deepcopy(sources.state_type))
    if fn.name == "_write":  # (self, s, m) -> (self, st, seat, m)
        args[1:2] = [state, ast.arg("seat", ast.Name("int", ast.Load()))]
    else:
        args[1] = state
    doc = f"Generated from `{fn.name}`: what `seen_in_state` reads, written as there."
    new.name = _twin(fn.name)
    new.body = [ast.Expr(ast.Constant(doc)), *prelude, *body]
    new.decorator_list = []
    return new


def _module_names(tree: ast.Module) -> set[str]:
    """The names a module binds at its top (definitions, assignments, imports) and builtins."""
    found = set(dir(builtins))
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            found.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            found |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            found |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return found


def _free_names(fn: ast.FunctionDef) -> set[str]:
    """The names a generated method reads that it does not bind itself."""
    bound = {a.arg for a in fn.args.args}
    read: set[str] = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Name):
            (read if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
    return read - bound


def facts(text: str) -> list[str]:
    """The facts class `Seen` of the module `text` declares (its annotated attributes; the
    class defined there or imported by name)."""
    seen = _class(_defining(ast.parse(text), "Seen"), "Seen")
    return [
        node.target.id
        for node in seen.body
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
    ]


def generated(text: str, class_name: str) -> list[str]:
    """The lines written between the markers of class `class_name` of the module `text`."""
    tree = ast.parse(text)
    described = _defining(tree, "seen_in_state")
    sources = _Sources(_function(described.body, "seen_in_state"), described)
    if sources.own != facts(text):
        raise ValueError("seen_in_state sets each fact Seen declares, once, in its order")
    cls = _class(tree, class_name)
    writers = _writers(cls)
    if not writers or writers[0].name != "_write":
        raise ValueError(f"{class_name}: the first writer method is _write(self, s, m)")
    names = {w.name for w in writers}
    lines = [BEGIN, "    # do not edit; edit the writer or seen_in_state and run it again."]
    known = _module_names(tree)
    for w in writers:
        method = ast.fix_missing_locations(_method(w, sources, names))
        unknown = _free_names(method) - known
        if unknown:  # (a source in a module of its own reads a name this one lacks)
            raise ValueError(f"{class_name}.{method.name} reads {sorted(unknown)}: import them")
        lines += ["", *("    " + line for line in ast.unparse(method).split("\n"))]
    return [*lines, "", END]


def rewrite(path: str, class_name: str) -> tuple[str, str]:
    """The module's text as it is and as `make observers` writes it (ruff-formatted)."""
    file = ROOT / path
    text = file.read_text()
    lines = text.split("\n")
    try:
        begin = lines.index(BEGIN)
        end = lines.index(END, begin)
    except ValueError:
        raise ValueError(f"{path}:{class_name} lacks the generated observer's markers") from None
    new = "\n".join([*lines[:begin], *generated(text, class_name), *lines[end + 1 :]])
    return text, formatted(new, file)


def formatted(text: str, file: Path) -> str:
    """`text` as ruff formats the module `file` (the generators write what the linter checks)."""
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--stdin-filename", str(file), "-"],
        input=text,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def marked() -> list[tuple[str, str]]:
    """(module path under src/eterna, class name) of every encoding holding a generated fast
    path: the class whose body holds the BEGIN marker."""
    found = []
    for path in sorted(ROOT.glob("games/*/*.py")):
        text = path.read_text()
        if BEGIN not in text:
            continue
        line = text[: text.index(BEGIN)].count("\n") + 1
        # the last class opening above the marker (an empty pair of markers, before the first
        # `make observers`, follows the class's last statement)
        classes = [
            node
            for node in ast.parse(text).body
            if isinstance(node, ast.ClassDef) and node.lineno < line
        ]
        if classes:
            found.append((path.relative_to(ROOT).as_posix(), classes[-1].name))
    return found


def stale() -> list[str]:
    """The encodings whose generated fast path disagrees with their writer."""
    return [f"{p}:{c}" for p, c in marked() if len(set(rewrite(p, c))) > 1]


def main(argv: list[str]) -> int:
    """--write: rewrite each stale fast path; --check: name them, failing if any."""
    if argv not in (["--write"], ["--check"]):
        print("usage: python -m eterna.core.fastwriter --check | --write", file=sys.stderr)
        return 2
    stale = 0
    for path, name in marked():
        text, want = rewrite(path, name)
        if text == want:
            continue
        if argv == ["--write"]:
            (ROOT / path).write_text(want)
            print(f"eterna: wrote the fast observer of {path}:{name}")
        else:
            print(f"{path}:{name}: the fast observer disagrees with its writer: make observers")
            stale += 1
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
