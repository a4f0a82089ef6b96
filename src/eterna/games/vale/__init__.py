"""The Vale of Eternity (Mandoo Games, 2023): hunt creatures, sell or tame them, summon them."""

from eterna.games.vale.cards import ValeAction, parse_action
from eterna.games.vale.game import GAME, OPTIONS, Vale
from eterna.games.vale.state import ValeState

__all__ = ["GAME", "OPTIONS", "Vale", "ValeAction", "ValeState", "parse_action"]
