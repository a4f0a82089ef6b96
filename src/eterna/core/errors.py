"""The errors every game raises for bad input. Nothing else escapes for bad input."""

from __future__ import annotations


class EternaError(Exception):
    """Base of every error Eterna raises on purpose."""


class IllegalAction(EternaError):
    """A well-formed action the rules forbid now; the message names the rule."""


class BadNotation(EternaError):
    """Text that is not an action of this game at all."""


class BadSetup(EternaError):
    """A `setup`, option or player count that cannot start a game."""


class BadRecord(EternaError):
    """A record that cannot be replayed (wrong game, malformed, or an action it refuses)."""
