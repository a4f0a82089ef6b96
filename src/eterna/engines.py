"""Which engines run: the compiled build of the rules modules, or the same modules in pure Python.

The install compiles the modules listed in `COMPILED` with mypyc (setup.py reads this list), from
the very source files the pure path runs: there is no second implementation. At import,
`eterna/__init__.py` calls `choose()` before any of them is loaded:

- `ETERNA_PURE=1` in the environment asks for pure Python;
- otherwise the compiled modules run when every one of them was built and none is older than its
  source (an edited source file after the last build would make them disagree); when one is
  missing or stale, pure Python runs, and `describe()` says why;
- in a source checkout, while `eterna/build_engines.py` builds them (in the background on the
  first `make run`), pure Python runs too: its status file (`build/engines/status.json`, with the
  build's pid and progress) says a build is under way, and `describe()` says how far it is.

In pure mode an import hook loads each listed module from its `.py` file although a compiled one
lies beside it. The choice is made once per process (the modules' classes cannot mix: an
interpreted class cannot inherit from a compiled one). `eterna --version` and `eterna games`
report it; docs/compiled.md tells the whole story.

This module itself is never compiled, and imports nothing of Eterna's.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

# The compiled modules, relative to the eterna package: the hot loop of every search and
# simulation (the contract, the three engines, their encodings and positions, the PettingZoo
# environment's per-step work), the ISMCTS inner loop and the heuristics of the three games
# (the default search's rollouts; their agent classes stay Python classes with compiled
# methods). docs/compiled.md says what stays interpreted and why.
COMPILED: tuple[str, ...] = (
    "adapters.aec_core",
    "core.encoding",
    "core.events",
    "core.frozen",
    "core.game",
    "core.options",
    "core.position",
    "core.records",
    "core.registry",
    "core.rng",
    "core.state",
    "agents.ismcts",
    "games.eternity.cards",
    "games.eternity.deal",
    "games.eternity.encoding",
    "games.eternity.decision",
    "games.eternity.game",
    "games.eternity.heuristic",
    "games.eternity.plans",
    "games.eternity.playout",
    "games.eternity.position",
    "games.eternity.position_write",
    "games.eternity.refusals",
    "games.eternity.sampling",
    "games.eternity.state",
    "games.eternity.story",
    "games.eternity.viewing",
    "games.eternitium.board",
    "games.eternitium.cards",
    "games.eternitium.deal",
    "games.eternitium.effects",
    "games.eternitium.encoding",
    "games.eternitium.game",
    "games.eternitium.guess",
    "games.eternitium.heuristic",
    "games.eternitium.legal",
    "games.eternitium.observation",
    "games.eternitium.position",
    "games.eternitium.position_counts",
    "games.eternitium.position_write",
    "games.eternitium.refusals",
    "games.eternitium.resolve",
    "games.eternitium.rules",
    "games.eternitium.setup",
    "games.eternitium.state",
    "games.eternitium.story",
    "games.eternitium.views",
    "games.vale.abilities",
    "games.vale.artifacts",
    "games.vale.board",
    "games.vale.cards",
    "games.vale.choices",
    "games.vale.deal",
    "games.vale.effects",
    "games.vale.encoding",
    "games.vale.encoding_v2",
    "games.vale.game",
    "games.vale.heuristic",
    "games.vale.heuristic_tiles",
    "games.vale.observation",
    "games.vale.payments",
    "games.vale.perks",
    "games.vale.permanents",
    "games.vale.position",
    "games.vale.position_arts",
    "games.vale.position_steps",
    "games.vale.redeal",
    "games.vale.refusals",
    "games.vale.state",
    "games.vale.summons",
    "games.vale.tiles",
    "games.vale.views",
    "games.vale.worth",
    "games.vale.worth_artifacts",
)
GROUP = "eterna"  # mypyc's shared library: eterna__mypyc.<platform suffix>, beside the package
PURE_ENV = "ETERNA_PURE"
STALE_SLACK = 2.0  # seconds: an install writes a module's source and its build moments apart
BUILD_HOME = ("build", "engines")  # a checkout's build of the engines: status, log, staging
BUILDING = "the compiled engines are being built in the background"

_PACKAGE = Path(__file__).resolve().parent
_state: dict[str, str] = {}


def _source(name: str) -> Path:
    return _PACKAGE.joinpath(*name.split(".")).with_suffix(".py")


def _built(name: str) -> Path | None:
    """The compiled module built for `name` (eterna-relative), if any."""
    stem = _source(name).with_suffix("")
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = stem.with_name(stem.name + suffix)
        if candidate.exists():
            return candidate
    return None


def _shared_library() -> Path | None:
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = _PACKAGE.parent / f"{GROUP}__mypyc{suffix}"
        if candidate.exists():
            return candidate
    return None


def _why_pure() -> str | None:
    """None when the compiled build runs, else why pure Python does."""
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return f"{PURE_ENV}={os.environ[PURE_ENV]} asks for pure Python"
    return _build_problem()


def build_home() -> Path | None:
    """Where a source checkout builds its engines (beside setup.py), None in an installed wheel."""
    root = _PACKAGE.parent.parent
    return root.joinpath(*BUILD_HOME) if (root / "setup.py").exists() else None


def build_status() -> dict[str, Any] | None:
    """The build's status file (eterna/build_engines.py writes it), if there is one: `state`
    ("running", "failed", or "interrupted" when its process is gone), `pid`, `step`, `done` of
    `total`, `started` (epoch seconds), `usual` (seconds), `log` and, when it failed, `error`."""
    home = build_home()
    if home is None:
        return None
    try:
        status = json.loads((home / "status.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(status, dict):
        return None
    if status.get("state") == "running" and not _builder_alive(status.get("pid")):
        status["state"] = "interrupted"
    return status


def _builder_alive(pid: object) -> bool:
    """Whether `pid` is a live build (not a finished one whose number was reused)."""
    if not isinstance(pid, int) or isinstance(pid, bool) or not pid_alive(pid):
        return False
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
        stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):  # no /proc here: trust the signal
        return True
    return stat[0] != "Z" and b"build_engines" in command


def pid_alive(pid: int) -> bool:
    """Whether process `pid` exists (it may be a zombie)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, someone else's
        return True
    return True


def duration(seconds: float) -> str:
    """`42 s`, `3 min 05 s`."""
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    return f"{seconds // 60} min {seconds % 60:02d} s"


def build_progress(status: dict[str, Any], now: float | None = None) -> str:
    """How far a build is, e.g. "compiling C: 23 of 73 files, 1 min 10 s so far, usually
    about 3 min 30 s"."""
    line = str(status.get("step") or "starting")
    done, total = status.get("done"), status.get("total")
    if isinstance(done, int) and isinstance(total, int) and total > 0:
        line += f": {done} of {total} {status.get('unit') or 'done'}"
    started = status.get("started")
    if isinstance(started, (int, float)):
        line += f", {duration((time.time() if now is None else now) - started)} so far"
    usual = status.get("usual")
    if isinstance(usual, (int, float)) and usual > 0:
        line += f", usually about {duration(usual)}"
    return line


def _build_problem() -> str | None:
    """None when the compiled build is complete and fresh, else what is wrong with it."""
    status = build_status()
    state = status.get("state") if status else None
    if status is not None and state == "running":
        # its finished modules may already lie beside older ones: none of them runs yet
        return f"{BUILDING}: {build_progress(status)}; the next start runs them"
    if _shared_library() is None:
        if status is not None and state in ("failed", "interrupted"):
            return _failed(status)
        return "not compiled (no C compiler at install, or a pure install; `make build` compiles)"
    for name in COMPILED:
        built = _built(name)
        if built is None:
            return f"eterna.{name} was not compiled"
        source = _source(name)
        if source.exists() and source.stat().st_mtime > built.stat().st_mtime + STALE_SLACK:
            return (
                f"eterna.{name} changed after the build (reinstall: `make build` or "
                "`pip install -e .`)"
            )
    return None


def _failed(status: dict[str, Any]) -> str:
    what = "failed" if status.get("state") == "failed" else "was interrupted"
    error = f": {status['error']}" if status.get("error") else ""
    log = f"; log: {status['log']}" if status.get("log") else ""
    return f"not compiled (the last build {what}{error}{log}; `make build` tries again)"


class _PureFinder(importlib.abc.MetaPathFinder):
    """Loads the compiled modules' names from their `.py` files."""

    def __init__(self, names: set[str]) -> None:
        self.names = names

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.names:
            return None
        source = _source(fullname.removeprefix("eterna."))
        return importlib.util.spec_from_file_location(fullname, source)


def choose() -> str:
    """Decide, once per process, which engines run; returns "compiled" or "pure"."""
    if "mode" in _state:
        return _state["mode"]
    reason = _why_pure()
    if reason is None:
        _state["mode"] = "compiled"
    else:
        _state["mode"] = "pure"
        _state["reason"] = reason
        # compiled modules may lie beside the sources (or some of them): load the sources
        sys.meta_path.insert(0, _PureFinder({f"eterna.{n}" for n in COMPILED}))
    return _state["mode"]


def compiled() -> bool:
    """Whether the compiled engines run in this process."""
    return choose() == "compiled"


def describe() -> str:
    """One line for `eterna --version` and `eterna games`."""
    if compiled():
        return f"engines: compiled (mypyc, {len(COMPILED)} modules)"
    reason = _state["reason"]
    if reason.startswith(BUILDING):  # chosen at the start: say how far the build is now
        reason = _build_problem() or (
            "the compiled engines were built after this process started; the next start runs them"
        )
    return f"engines: pure Python ({reason})"


def module_is_compiled(module: ModuleType) -> bool:
    """Whether `module` was loaded from a compiled build (for tests and reports)."""
    origin = getattr(module, "__file__", None) or ""
    return not origin.endswith(".py")
