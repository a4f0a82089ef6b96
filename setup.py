"""The build: pyproject.toml says everything about the package; this file adds the compiled
engines (docs/compiled.md).

The modules listed in src/eterna/engines.py (`COMPILED`) are compiled with mypyc, which ships
with mypy, into one C extension group, from the same source files the pure path runs. The
install falls back to the pure package, with a warning, when there is no C compiler or the
compilation fails; `ETERNA_PURE=1` at build time makes a pure build (and a pure wheel) on purpose:
then mypy is not even installed in the build environment (it is asked for here, as a setup
requirement, only for a compiled build), which is what lets the first `make run` start in under
a minute. The build prints its progress (`eterna: [k/n] ...` lines, which
src/eterna/build_engines.py reads) and mypyc runs once per build, not for the metadata steps.
"""

from __future__ import annotations

import os
import runpy
import sys
import threading
import tomllib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
ENGINES = runpy.run_path(str(ROOT / "src" / "eterna" / "engines.py"))
PURE = os.environ.get(ENGINES["PURE_ENV"], "") not in ("", "0")
# The commands that only read the metadata (pip's first two steps): no compilation for them.
METADATA_ONLY = {"egg_info", "dist_info", "sdist"}


def compiler_requirement() -> str:
    """mypy, pinned as in the dev extra (mypyc ships with it): the compiled build's requirement."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return next(r for r in project["optional-dependencies"]["dev"] if r.startswith("mypy=="))


def progress(done: int, total: int, what: str) -> None:
    """One line of the build's progress (build_engines.py counts them)."""
    print(f"eterna: [{done}/{total}] {what}", flush=True)


class OptionalBuildExt(build_ext):
    """Build the engines if this machine can; otherwise say so and install the pure package."""

    def build_extensions(self) -> None:
        # mypyc writes one C file per module (multi_file): compile them on every core
        compile_one = self.compiler.compile
        sources_total = sum(len(ext.sources) for ext in self.extensions)
        compiled = [0]
        lock = threading.Lock()

        def compile_counted(source: str, *args: Any, **kwargs: Any) -> list[str]:
            objects = list(compile_one([source], *args, **kwargs))
            with lock:
                compiled[0] += 1
                progress(compiled[0], sources_total, f"C files compiled ({Path(source).name})")
            return objects

        def compile_all(sources: list[str], *args: Any, **kwargs: Any) -> list[str]:
            with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
                parts = pool.map(lambda s: compile_counted(s, *args, **kwargs), sources)
                return [obj for part in parts for obj in part]

        self.compiler.compile = compile_all  # type: ignore[method-assign]
        self._linked = 0
        super().build_extensions()

    def build_extension(self, ext: Any) -> None:
        super().build_extension(ext)
        self._linked += 1
        progress(self._linked, len(self.extensions), f"extensions linked ({ext.name})")

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # no compiler, no headers: the pure modules still work
            print(
                f"eterna: the compiled engines could not be built ({exc}); the pure-Python engines "
                "will run (the same rules, slower). `eterna --version` says which run.",
                file=sys.stderr,
            )


def extensions() -> list[Any]:
    commands = [arg for arg in sys.argv[1:] if not arg.startswith("-")]
    if commands and commands[0] in METADATA_ONLY:
        return []  # the metadata does not depend on the compiled modules
    if PURE:
        print("eterna: ETERNA_PURE is set: building the pure-Python package", file=sys.stderr)
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("eterna: mypyc is not available: building the pure-Python package", file=sys.stderr)
        return []
    paths = [str(Path("src", "eterna", *name.split("."))) + ".py" for name in ENGINES["COMPILED"]]
    opt_level = os.environ.get("MYPYC_OPT_LEVEL", "3")
    # The build environment may lack the optional libraries (NumPy: the encodings): their types
    # are then Any, and the `type: ignore`s written for them unused, which is no fault here.
    flags = ["--no-warn-unused-ignores"]
    print(
        f"eterna: mypyc: type-checking the engines and translating {len(paths)} modules to C...",
        flush=True,
    )
    try:
        # strict_dunder_typing: typed dunders stay fast; the group: one shared library;
        # multi_file: one C file per module, compiled in parallel (build_extensions)
        return list(
            mypycify(
                flags + paths,
                opt_level=opt_level,
                group_name=ENGINES["GROUP"],
                multi_file=True,
                strict_dunder_typing=True,
            )
        )
    except (Exception, SystemExit) as exc:  # mypyc refused: the pure package still works
        print(
            f"eterna: mypyc could not compile the engines ({exc!r}); building the pure-Python "
            "package (the same rules, slower). `eterna --version` says which run.",
            file=sys.stderr,
        )
        return []


setup(
    ext_modules=extensions(),
    cmdclass={"build_ext": OptionalBuildExt},
    setup_requires=[] if PURE else [compiler_requirement()],
)
