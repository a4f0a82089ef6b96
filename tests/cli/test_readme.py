"""Every example of README.md runs as written (issue 32): its `eterna` commands in order, in a
fresh folder (so `records/eternity-7.json`, `runs.jsonl` and `mine.txt` are what the earlier
commands wrote, as for a reader), its Python API block and its research block.

A few numbers are capped to keep the test fast where the README leaves them to the reader
(`CAPS`: games, iterations, seconds); an interactive game is left at its first move (`quit`,
which saves its record as the end of a game does). The commands that cannot run here are
listed in `NOT_RUN` with the reason; a README command in neither list fails the test, so a new
example cannot go untested.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import eterna
from eterna.cli import app

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text("utf-8")
ENV = {"COLUMNS": "160", "NO_COLOR": "1", "ETERNA_LANG": "en"}
PROGRAM = ".venv/bin/eterna "
# (a README command's words, their capped stand-in): only counts the reader chooses
CAPS = {
    "--games 1000": "--games 6",
    "--games 200 --players 4": "--games 4 --players 4 --workers 1",
    "--agents ismcts,heuristic,random,random --games 200": (
        "--agents ismcts:iterations=2,heuristic,random,random --games 4 --workers 1 --no-save"
    ),
    "--iterations 2000": "--iterations 100",
}
# commands that start something long-lived or outside this machine's reach
NOT_RUN = {
    "serve --port 8080 --data-dir /var/lib/eterna": "a server that runs until stopped",
    "serve --host 0.0.0.0": "a server on PostgreSQL",
    "--backend ray": "starts a Ray cluster (tests/arena/test_backends.py runs the backend)",
}


def sh_blocks(text: str) -> list[str]:
    return re.findall(r"```sh\n(.*?)```", text, flags=re.S)


def commands(text: str) -> list[str]:
    """The README's `eterna` commands in order, continuation lines joined, a leading `$ `
    and trailing comments dropped (comments start after two spaces and a `#`)."""
    out = []
    for block in sh_blocks(text):
        for line in re.split(r"(?<!\\)\n", block):
            line = line.removeprefix("$ ")
            if line.startswith(PROGRAM):
                out.append(re.sub(r"\s+# .*$", "", line))
    return out


def capped(command: str) -> str:
    for words, stand_in in CAPS.items():
        command = command.replace(words, stand_in)
    return command.replace("\\\n", " ")


def test_the_readme_lists_the_examples_this_test_knows() -> None:
    found = commands(README)
    assert len(found) >= 15, found
    assert any("hint records/eternity-7.json" in c for c in found)
    for words in NOT_RUN:
        assert any(words in c for c in found), words
    for words in CAPS:
        assert any(words in c for c in found), words


def test_every_eterna_command_of_the_readme_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    ran = []
    for command in commands(README):
        if any(words in command for words in NOT_RUN):
            continue
        line = capped(command).removeprefix(PROGRAM)
        line, _, target = line.partition(" > ")
        args = shlex.split(line)
        # the game of records/eternity-7.json is played to its end by its first legal move
        # each time, as a reader plays it; the other games stop at their first move (`quit`
        # saves the record as the end does); a stepped replay goes on at each Enter
        if args[0] == "play":
            feed = "1\n" * 400 if "--seed 7" in line and "eternity " in line else "quit\n"
        else:
            feed = "\n" * 400
        result = runner.invoke(app, args, input=feed, env=ENV)
        assert result.exit_code == 0, (command, result.output, result.exception)
        if target:
            Path(target.strip()).write_text(result.stdout, "utf-8")
        ran.append((args[0], result.output))
    said = dict(ran)
    assert "engines:" in said["--version"]
    assert "Recommended:" in said["hint"], said["hint"]
    record = json.loads(Path("records/eternity-7.json").read_text("utf-8"))
    assert eterna.load_game("eternity").from_record(record).is_terminal  # played to its end
    assert Path("runs.jsonl").is_file()
    assert Path("mine.txt").read_text("utf-8").strip()
    assert any(name == "position" and "Recommended:" in out for name, out in ran)
    assert len(ran) == len(commands(README)) - len(NOT_RUN)


def test_the_python_api_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    block = re.search(r"## Python API\n\n```python\n(.*?)```", README, flags=re.S)
    assert block is not None
    exec(compile(block.group(1), "README.md", "exec"), {})
    printed = capsys.readouterr().out
    assert printed.startswith("["), printed  # the scores, then the winners


def test_the_research_example_runs() -> None:
    block = re.search(r"## Research interfaces.*?```python\n(.*?)```", README, flags=re.S)
    assert block is not None
    scope: dict[str, object] = {}
    exec(compile(block.group(1), "README.md", "exec"), scope)
    assert {"e", "game", "g", "obs", "info"} <= set(scope)


def test_the_training_example_runs_briefly(tmp_path: Path) -> None:
    line = next(
        c for block in sh_blocks(README) for c in block.splitlines() if "train_eternity" in c
    )
    args = shlex.split(re.sub(r"\s+# .*$", "", line))[1:]
    args = [a if a != "90" else "1" for a in args] + ["--eval", "4"]
    done = subprocess.run(
        [sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
