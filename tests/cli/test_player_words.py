"""The option help a player reads is player words (issue 32): the lobby's help texts and
`eterna games` say what an option does, never a developer's note (a rules-digest reference, "the
rulebook was not found", "a safety net for simulations"); the notes stay in the declarations'
`doc` and in docs/."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from eterna.cli import app
from eterna.core.registry import game_ids, load_game
from eterna.i18n import LANGS, catalog
from eterna.server.lobby_words import missions, option_words

DEVELOPER_NOTES = re.compile(
    r"digest|Q-?[A-Z]?\d|§|unverified|non vérifié|ungeprüft|rulebook was not found|"
    r"safety net|garde-fou|sicherheitsnetz|simulation",
    re.IGNORECASE,
)


@pytest.mark.parametrize("lang", LANGS)
def test_the_lobbys_option_help_is_player_words(lang: str) -> None:
    for game_id in game_ids():
        game = load_game(game_id)
        said = option_words(game, catalog(lang))
        for name, words in said.items():
            assert words["help"], (lang, game_id, name)
            assert not DEVELOPER_NOTES.search(words["help"]), (lang, game_id, name, words["help"])
        for mission in missions(game, catalog(lang)):
            assert not DEVELOPER_NOTES.search(mission["text"]), (lang, mission)


@pytest.mark.parametrize("lang", LANGS)
def test_eterna_games_says_the_lobbys_help(lang: str) -> None:
    result = CliRunner().invoke(app, ["games", "--lang", lang], env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    assert not DEVELOPER_NOTES.search(result.output), result.output
    help_text = option_words(load_game("eternity"), catalog(lang))["tie_break"]["help"]
    assert help_text[:40] in result.output
