"""The errors every game raises for bad input. Nothing else escapes for bad input."""

from __future__ import annotations


class EternaError(Exception):
    """Base of every error Eterna raises on purpose."""


class IllegalAction(EternaError):
    """A well-formed action the rules forbid now; the message names the rule.

    `key` and `params`, when a game gives them, say the same for translation: a front end
    shows the catalog message `key` (`<game>.refusal.<rule>`) with `params` (card ids,
    families, seats) in the player's language, and keeps `rule` (the rulebook reference) for
    a "why?" detail.
    """

    def __init__(
        self,
        message: str,
        *,
        key: str | None = None,
        params: dict[str, object] | None = None,
        rule: str | None = None,
    ) -> None:
        super().__init__(message)
        self.key = key
        self.params = dict(params or {})
        self.rule = rule


class BadNotation(EternaError):
    """Text that is not an action of this game at all."""


class BadSetup(EternaError):
    """A `setup`, option or player count that cannot start a game."""


class BadPosition(BadSetup):
    """A position (docs/positions.md) that is malformed or impossible; `field` names the
    place at fault (`hands[2][0]`, `rng`; empty for the document as a whole)."""

    MAX_MESSAGE = 600  # characters: a message may quote input, and input may be hostile

    def __init__(self, message: str, *, field: str = "") -> None:
        if len(message) > self.MAX_MESSAGE:
            message = message[: self.MAX_MESSAGE] + "\u2026"
        super().__init__(message)
        self.field = field[: self.MAX_MESSAGE]


class BadRecord(EternaError):
    """A record that cannot be replayed (wrong game, malformed, or an action it refuses)."""
