"""`eterna serve` on the command line: its options, and bad databases refused in one line."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from eterna.cli import app


def test_serve_help_names_its_options() -> None:
    result = CliRunner().invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--host", "--port", "--database-url", "--data-dir", "--bot-delay"):
        assert option in result.output


def test_a_bad_database_is_one_line_and_exit_2(tmp_path: Path) -> None:
    runner = CliRunner()
    bad_url = runner.invoke(app, ["serve", "--database-url", "nonsense://"])
    assert bad_url.exit_code == 2
    assert "Error: cannot open the database" in bad_url.output
    assert "Traceback" not in bad_url.output
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    bad_dir = runner.invoke(app, ["serve", "--data-dir", str(blocker / "data")])
    assert bad_dir.exit_code == 2
    assert "Error: cannot use the data folder" in bad_dir.output
