"""GameState.public_notation: what other seats learn of an action (used by front ends' logs)."""

import eterna


def test_public_notation_default_is_the_notation() -> None:
    state = eterna.load_game("eternity").new_game(players=3, seed=1)
    action = state.legal_actions()[0]
    assert state.public_notation(action) == str(action)


def test_eternitium_keep_after_a_skip_is_private() -> None:
    # docs/eternitium.md, Determinization: "A `keep` is not public."
    state = eterna.load_game("eternitium").new_game(players=2, seed=3)
    game = eterna.load_game("eternitium")
    assert state.public_notation(game.parse_action("keep none")) is None
    assert state.public_notation(game.parse_action("end")) == "end"
