"""Eternitium (Haumea Games, 2024): a deck-building race through the eras to the gem."""

from eterna.games.eternitium.cards import EternitiumAction, parse_action
from eterna.games.eternitium.game import GAME, OPTIONS, Eternitium
from eterna.games.eternitium.state import EternitiumState

__all__ = ["GAME", "OPTIONS", "Eternitium", "EternitiumAction", "EternitiumState", "parse_action"]
