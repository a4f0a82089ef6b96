"""The build: pyproject.toml says everything about the package; this file adds the compiled
engines (docs/compiled.md).

The modules listed in src/eterna/engines.py (`COMPILED`) are compiled with mypyc, which ships
with mypy, into one C extension group, from the same source files the pure path runs. The
install falls back to the pure package, with a warning, when there is no C compiler or the
compilation fails; `ETERNA_PURE=1` at build time makes a pure build (and a pure wheel) on purpose.
"""

from __future__ import annotations

import os
import runpy
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
ENGINES = runpy.run_path(str(ROOT / "src" / "eterna" / "engines.py"))


class OptionalBuildExt(build_ext):
    """Build the engines if this machine can; otherwise say so and install the pure package."""

    def build_extensions(self) -> None:
        # mypyc writes one C file per module (multi_file): compile them on every core
        compile_one = self.compiler.compile

        def compile_all(sources: list[str], *args: Any, **kwargs: Any) -> list[str]:
            if len(sources) < 2:
                return list(compile_one(sources, *args, **kwargs))
            with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
                parts = pool.map(lambda s: compile_one([s], *args, **kwargs), sources)
                return [obj for part in parts for obj in part]

        self.compiler.compile = compile_all  # type: ignore[method-assign]
        super().build_extensions()

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
    if os.environ.get(ENGINES["PURE_ENV"], "") not in ("", "0"):
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


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
