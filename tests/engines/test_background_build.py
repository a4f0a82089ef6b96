"""The first `make run` serves the pure engines while the compiled ones build in the background
(eterna/build_engines.py): while the build runs, a new process chooses pure and says how far it
is; once it has finished, a new process runs compiled; a failed build is said, not retried on
the same sources, and leaves the pure engines running.

The build here is a stand-in: a checkout of engines.py and build_engines.py with a `setup.py`
that writes empty files where mypyc's modules would go (compiling 65 modules takes minutes);
the real compilation is `make build`'s, and tests/engines/test_switch.py checks its result.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path

import pytest

from eterna import engines

ROOT = Path(__file__).resolve().parents[2]
ENGINES = ROOT / "src" / "eterna"

# Writes the compiled modules' files into --build-lib, three of them at once, the rest when the
# test touches `go`; exits 1 when `fail` exists.
FAKE_SETUP = """
import importlib.machinery, pathlib, runpy, sys, time
root = pathlib.Path(__file__).parent
if (root / "fail").exists():  # as setup.py says it without a C compiler
    print("eterna: the compiled engines could not be built (error: command 'gcc' failed: No "
          "such file or directory); the pure-Python engines will run (the same rules, slower).")
    sys.exit(0)
stage = pathlib.Path(sys.argv[sys.argv.index("--build-lib") + 1])
names = runpy.run_path(str(root / "src" / "eterna" / "engines.py"))["COMPILED"]
suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
for k, name in enumerate(names, 1):
    while k > 3 and not (root / "go").exists() and time.time() < {deadline}:
        time.sleep(0.05)
    target = stage / "eterna" / (name.replace(".", "/") + suffix)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(b"")
    print(f"eterna: [{{k}}/{{len(names)}}] C files compiled ({{name}})", flush=True)
(stage / ("eterna__mypyc" + suffix)).write_bytes(b"")
"""


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A checkout with the engines' switch, the builder and a stand-in setup.py."""
    (tmp_path / "src" / "eterna").mkdir(parents=True)
    for name in ("engines.py", "build_engines.py"):
        shutil.copy2(ENGINES / name, tmp_path / "src" / "eterna" / name)
    (tmp_path / "setup.py").write_text(FAKE_SETUP.format(deadline=time.time() + 60))
    mypy = f"mypy=={metadata.version('mypy')}"  # already there: the builder installs nothing
    (tmp_path / "pyproject.toml").write_text(
        f'[build-system]\nrequires = []\n\n[project.optional-dependencies]\ndev = ["{mypy}"]\n'
    )
    return tmp_path


def _python(*args: str, cwd: Path | None = None) -> str:
    """A new Python process's output (ETERNA_PURE unset: the build decides)."""
    env = {k: v for k, v in os.environ.items() if k != "ETERNA_PURE"}
    done = subprocess.run(
        [sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _builder(checkout: Path, command: str) -> str:
    return _python(str(checkout / "src" / "eterna" / "build_engines.py"), command, cwd=checkout)


def _new_process(checkout: Path) -> tuple[str, str]:
    """What a new process of this checkout chooses, and how `eterna --version` says it."""
    code = (
        "import runpy, sys; e = runpy.run_path(sys.argv[1]);"
        "print(e['choose']()); print(e['describe']())"
    )
    mode, line = _python("-c", code, str(checkout / "src" / "eterna" / "engines.py")).splitlines()
    return mode, line


def _status(checkout: Path) -> dict[str, object] | None:
    try:
        status = json.loads((checkout / "build" / "engines" / "status.json").read_text())
    except FileNotFoundError:
        return None
    assert isinstance(status, dict)
    return status


def _wait(checkout: Path, until: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        status = _status(checkout)
        if until == "done" and status is None:
            return
        if status is not None and until == status.get("step", "") + f"@{status.get('done')}":
            return
        if status is not None and until == status.get("state"):
            return
        if status is not None and status.get("state") == "failed":
            break
        time.sleep(0.05)
    raise AssertionError(f"the build did not reach {until!r}: {_status(checkout)}")


def test_the_next_process_after_a_background_build_runs_compiled(checkout: Path) -> None:
    assert _new_process(checkout) == (
        "pure",
        "engines: pure Python (not compiled (no C compiler at install, or a pure install; "
        "`make build` compiles))",
    )
    said = _builder(checkout, "start")
    assert "being built in the background, niced" in said
    try:
        _wait(checkout, "compiling C@3")
        mode, line = _new_process(checkout)
        assert mode == "pure"
        assert line.startswith(
            "engines: pure Python (the compiled engines are being built in the background: "
            f"compiling C: 3 of {len(engines.COMPILED)} files, "
        )
        assert line.endswith("; the next start runs them)")
        status = _status(checkout)
        assert status is not None and status["state"] == "running"
        # a second `make run` meanwhile starts no second build
        assert "being built in the background: compiling C: 3 of" in _builder(checkout, "start")
    finally:
        (checkout / "go").touch()
    _wait(checkout, "done")
    assert _new_process(checkout) == (
        "compiled",
        f"engines: compiled (mypyc, {len(engines.COMPILED)} modules)",
    )
    stage = checkout / "build" / "engines" / "stage"
    assert not [p for p in stage.rglob("*") if p.is_file()]  # every file moved into place
    assert _builder(checkout, "start") == ""  # built and fresh: nothing to start


def test_a_failed_build_is_said_and_not_retried_on_the_same_sources(checkout: Path) -> None:
    (checkout / "fail").touch()
    _builder(checkout, "start")
    _wait(checkout, "failed")
    mode, line = _new_process(checkout)
    assert mode == "pure"
    assert line == (
        "engines: pure Python (not compiled (the last build failed: the compiled engines could "
        "not be built (error: command 'gcc' failed: No such file or directory); "
        "log: build/engines/build.log; `make build` tries again))"
    )
    assert "the same rules, slower" in (checkout / "build" / "engines" / "build.log").read_text()
    status = _status(checkout)
    assert "the pure engines run: not compiled (the last build failed" in _builder(
        checkout, "start"
    )
    assert _status(checkout) == status  # not started again
    os.utime(checkout / "src" / "eterna" / "engines.py")  # the sources changed: try again
    (checkout / "fail").unlink()
    (checkout / "go").touch()
    assert "being built in the background, niced" in _builder(checkout, "start")
    _wait(checkout, "done")
    assert _new_process(checkout)[0] == "compiled"


def test_a_build_whose_process_is_gone_does_not_hold_the_engines(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A build killed half-way: its status file stays, but its pid is no build any more."""
    home = tmp_path / "engines"
    home.mkdir()
    monkeypatch.setattr(engines, "build_home", lambda: home)
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    status = {"state": "running", "pid": int(gone), "step": "compiling C", "done": 9, "total": 99}
    (home / "status.json").write_text(json.dumps(status))
    assert (engines.build_status() or {})["state"] == "interrupted"
    monkeypatch.setattr(engines, "_shared_library", lambda: None)
    problem = engines._build_problem() or ""
    assert "the last build was interrupted; `make build` tries again" in problem
    status["pid"] = os.getpid()  # alive, but not a build (a reused pid)
    (home / "status.json").write_text(json.dumps(status))
    assert (engines.build_status() or {})["state"] == "interrupted"


def test_progress_says_the_step_how_far_and_how_long() -> None:
    status = {
        "step": "compiling C",
        "done": 23,
        "total": 140,
        "unit": "files",
        "started": 100.0,
        "usual": 210,
    }
    assert engines.build_progress(status, now=170.4) == (
        "compiling C: 23 of 140 files, 1 min 10 s so far, usually about 3 min 30 s"
    )
    assert engines.build_progress({}, now=0) == "starting"
