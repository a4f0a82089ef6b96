"""The game-agnostic core: the contract every game, agent and front end relies on."""

from eterna.core.agent import Agent, SeatWindow, ViewAgent
from eterna.core.errors import (
    BadNotation,
    BadPosition,
    BadRecord,
    BadSetup,
    EternaError,
    IllegalAction,
)
from eterna.core.game import Action, Game, GameState, Record, View
from eterna.core.options import Option, resolve_options
from eterna.core.records import read_records, replay, write_record
from eterna.core.registry import game_ids, load_game, register

__all__ = [
    "Action",
    "Agent",
    "BadNotation",
    "BadPosition",
    "BadRecord",
    "BadSetup",
    "EternaError",
    "Game",
    "GameState",
    "IllegalAction",
    "Option",
    "Record",
    "SeatWindow",
    "View",
    "ViewAgent",
    "game_ids",
    "load_game",
    "read_records",
    "register",
    "replay",
    "resolve_options",
    "write_record",
]
