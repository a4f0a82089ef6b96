"""`ETERNA_PURE=1 python -m build --wheel` makes a pure wheel: no compiled module in it, every
engine source there, installable anywhere (docs/compiled.md, "Wheels"). The compiled wheel takes
the whole compilation (about 1.5 minutes), so it is built by hand, not here (its check: the same
install then `eterna --version`, docs/compiled.md)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from eterna import engines

ROOT = Path(__file__).resolve().parents[2]


def test_the_pure_wheel_holds_the_sources_and_no_build(tmp_path: Path) -> None:
    source = tmp_path / "src"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(
            ".venv", ".git", "build", "dist", "test-output", "data", "*.so", "__pycache__", ".*"
        ),
    )
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--outdir", str(tmp_path / "dist"), "."],
        cwd=source,
        env={**os.environ, "ETERNA_PURE": "1"},
        capture_output=True,
        check=True,
        timeout=600,
    )
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    assert wheel.name == "eterna-0.1.0-py3-none-any.whl"
    names = set(zipfile.ZipFile(wheel).namelist())
    assert not [n for n in names if n.endswith((".so", ".pyd", ".c"))]
    for name in engines.COMPILED:
        assert f"eterna/{name.replace('.', '/')}.py" in names, name
    assert "eterna/engines.py" in names
    # the web client's files the server reads: each page and the parts it writes into them
    web = ROOT / "src" / "eterna" / "web"
    for path in [*web.glob("*.html"), *web.glob("parts/*.html"), *web.glob("static/js/*.js")]:
        assert f"eterna/{path.relative_to(ROOT / 'src' / 'eterna').as_posix()}" in names, path
