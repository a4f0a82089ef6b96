"""The command line's modules depend on each other one way, so no import cycle comes back.

`eterna.cli` (the package) imports `app` and every command module and registers the commands;
`app` imports no command; a command imports the shared modules, never another command.
"""

from __future__ import annotations

import ast
from pathlib import Path

from typer.testing import CliRunner

import eterna.cli
from eterna.cli import COMMANDS, app

CLI = Path(eterna.cli.__file__).parent
SHARED = {"eterna.cli.common", "eterna.cli.options", "eterna.cli.reports"}


def _cli_imports(path: Path) -> set[str]:
    """The `eterna.cli` modules a file imports."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    modules = {f"eterna.cli.{p.stem}" for p in CLI.glob("*.py") if p.stem != "__init__"}
    return found & modules


def test_every_command_module_is_registered_in_help_order() -> None:
    files = {p.stem for p in CLI.glob("*_cmd.py")}
    assert {module.__name__.rpartition(".")[2] for module in COMMANDS} == files
    result = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "200", "NO_COLOR": "1"})
    listed = [line.split()[1] for line in result.output.splitlines() if line.startswith("│ ")]
    names = [module.__name__.rpartition(".")[2].removesuffix("_cmd") for module in COMMANDS]
    assert [name for name in listed if name in names] == names


def test_app_and_shared_modules_import_no_command() -> None:
    for name in ("app", "common", "options", "reports"):
        imported = _cli_imports(CLI / f"{name}.py")
        assert not {m for m in imported if m.endswith("_cmd")}, f"{name}.py imports {imported}"
        assert "eterna.cli.app" not in imported or name == "app", f"{name}.py imports app"


def test_a_command_imports_no_other_command() -> None:
    for path in sorted(CLI.glob("*_cmd.py")):
        imported = {m for m in _cli_imports(path) if m.endswith("_cmd")}
        assert not imported, f"{path.name} imports {imported}"
