"""Which engines run (eterna/engines.py): the build's modules when they are all there and fresh,
the pure ones when ETERNA_PURE=1 asks or the build is missing or stale, never a mix."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib import import_module
from pathlib import Path

import pytest

import eterna
from eterna import engines

ROOT = Path(__file__).resolve().parents[2]


def _run(code: str, **env: str) -> str:
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return out.stdout.strip()


def test_every_listed_module_runs_on_the_chosen_path() -> None:
    """All compiled or all pure: an interpreted class cannot inherit from a compiled one."""
    want = engines.compiled()
    for name in engines.COMPILED:
        module = import_module(f"eterna.{name}")
        assert engines.module_is_compiled(module) is want, name


# Game modules left interpreted: the Eternity view's, Eternitium's and the Vale's TypedDicts (mypyc
# does not keep their optional keys, docs/compiled.md) and position checks and rests read once per
# position.
INTERPRETED_GAME_MODULES = {
    "games.eternity.views",
    "games.eternitium.typeddicts",
    "games.eternitium.position_checks",
    "games.eternitium.position_rest",
    "games.vale.position_checks",
    "games.vale.typeddicts",
}


def test_every_game_module_is_compiled_or_named_as_interpreted() -> None:
    """A module split out of a compiled engine joins COMPILED (or says here why not): left out,
    it would run interpreted on the compiled build without a word."""
    games = ROOT / "src" / "eterna" / "games"
    found = {
        f"games.{path.parent.name}.{path.stem}"
        for path in games.glob("*/*.py")
        if path.stem != "__init__"
    }
    listed = {name for name in engines.COMPILED if name.startswith("games.")}
    assert listed <= found, sorted(listed - found)
    assert found - listed == INTERPRETED_GAME_MODULES, sorted(found - listed)


def test_ci_runs_the_compiled_build() -> None:
    """CI (.ci/run sets ETERNA_EXPECT_COMPILED) must test the build, not fall back quietly."""
    if os.environ.get("ETERNA_EXPECT_COMPILED") != "1" or os.environ.get("ETERNA_PURE"):
        assert engines.describe()  # a machine without a compiler: either path is right
        return
    assert engines.compiled(), engines.describe()


def test_eterna_pure_asks_for_the_pure_engines() -> None:
    code = (
        "import eterna, eterna.engines as e, eterna.core.state as s;"
        "print(e.compiled(), e.module_is_compiled(s), e.describe())"
    )
    assert _run(code, ETERNA_PURE="1") == (
        "False False engines: pure Python (ETERNA_PURE=1 asks for pure Python)"
    )
    assert _run(code, ETERNA_PURE="0").startswith(str(engines._build_problem() is None))


def test_version_says_which_engines_run() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "eterna", "--version"],
        cwd=ROOT,
        env={**os.environ, "ETERNA_PURE": "1"},
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    assert out.splitlines() == [
        f"eterna {eterna.__version__}",
        "engines: pure Python (ETERNA_PURE=1 asks for pure Python)",
    ]


def test_a_stale_or_missing_build_falls_back_to_pure(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A source edited after the build: the compiled modules would disagree with it."""
    monkeypatch.delenv("ETERNA_PURE", raising=False)
    lib = tmp_path / "eterna__mypyc.so"
    lib.write_bytes(b"")
    built = tmp_path / "state.so"
    built.write_bytes(b"")
    # an hour before the oldest source (not before now: a checkout's files may be older)
    old = min(engines._source(name).stat().st_mtime for name in engines.COMPILED) - 3600
    os.utime(built, (old, old))
    monkeypatch.setattr(engines, "_shared_library", lambda: lib)
    monkeypatch.setattr(engines, "_built", lambda name: built)
    assert "changed after the build" in (engines._why_pure() or "")
    os.utime(built, None)  # built after its source: fresh
    assert engines._why_pure() is None
    monkeypatch.setattr(engines, "_built", lambda name: None)
    assert "was not compiled" in (engines._why_pure() or "")
    monkeypatch.setattr(engines, "_shared_library", lambda: None)
    assert "not compiled" in (engines._why_pure() or "")
