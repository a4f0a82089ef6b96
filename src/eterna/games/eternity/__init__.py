"""Eternity (Blackrock Games, 2016): trick-taking with pledges, trees and a moving trump."""

from eterna.games.eternity.cards import EternityAction, parse_action
from eterna.games.eternity.game import GAME, OPTIONS, Eternity
from eterna.games.eternity.state import EternityState

__all__ = ["GAME", "OPTIONS", "Eternity", "EternityAction", "EternityState", "parse_action"]
