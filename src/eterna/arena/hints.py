"""Move hints for a human: what the ISMCTS agent would play from a seat's point of view.

`advise(state, seat)` searches through a `SeatWindow` only (the seat's view, the legal actions
and determinizations), so a hint never depends on cards the seat cannot see: for a fixed seed,
swapping every hidden card gives the same hint. Used by `eterna hint`, by the `hint` command of
`eterna play`, and available to any other front end.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from rich.table import Table

from eterna.agents.ismcts import ISMCTSAgent
from eterna.core.agent import SeatWindow
from eterna.core.errors import EternaError
from eterna.core.game import GameState
from eterna.i18n.names import seat_number

PLAY_ITERATIONS = 500  # the `hint` command of `eterna play`: about a second or less


@dataclass(frozen=True)
class Candidate:
    """One legal move with the search's estimates for the seat that would play it."""

    action: str
    visits: int
    win: float | None  # expected win share (a shared win counts 1/k); None if never tried
    # (a solo game with a goal: the share of the search's lines that reach it)
    score: float | None  # expected final score of the seat; None if never tried
    # A solo game with a goal (GameState.solo_goal), else None: the expected progress towards
    # it in [0, 1] and the expected amount left (Eternitium: Era cards) where the search stopped
    goal: float | None = None
    left: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def advise(
    state: GameState,
    seat: int,
    iterations: int = 1000,
    seed: int = 0,
    rollout: str | None = None,
    seconds: float | None = None,
) -> list[Candidate]:
    """Every legal move of `seat`, the recommended one (most visited) first.

    `rollout` None: random rollouts, except in a solo game with a goal measure
    (`GameState.solo_goal`, e.g. solo Eternitium), where random play never comes near the goal
    and the game's heuristic plays the lines out; there each move is valued by the goal's
    progress (`goal`, `left`) and `win` is the share of lines that reach it. `seconds` caps
    the search's time (the iterations done by then count). Raises EternaError when the game is
    over or it is not `seat`'s turn.
    """
    if state.is_terminal:
        raise EternaError("the game is over: there is no move to advise")
    if state.current_player != seat:
        turn, asked = seat_number(state.current_player or 0), seat_number(seat)
        raise EternaError(f"it is seat {turn}'s turn, not seat {asked}'s")
    if rollout is None:
        solo = state.players == 1 and state.solo_goal() is not None
        rollout = "heuristic" if solo else "random"
    agent = ISMCTSAgent(seed=seed, iterations=iterations, rollout=rollout)
    agent.max_seconds = seconds
    legal = state.legal_actions()
    agent.search(SeatWindow(state, seat))
    stats, scores, goals = agent.last_stats, agent.last_scores, agent.last_goals
    out = []
    for action in legal:
        visits, win = stats.get(action, (0, 0.0))
        goal, left, reached = goals.get(action, (None, None, None))
        out.append(
            Candidate(
                action=str(action),
                visits=visits,
                win=(win if reached is None else reached) if visits else None,
                score=scores.get(action) if visits else None,
                goal=goal,
                left=left,
            )
        )
    # The agent's choice first (with heuristic rollouts the root's sequential halving may pick
    # a move no more visited than another), then by visits; stable: ties keep the legal order.
    choice = str(agent.last_choice) if agent.last_choice is not None else None
    out.sort(key=lambda c: (c.action != choice, -c.visits))
    return out


def hint_table(
    candidates: list[Candidate],
    title: str = "Hint",
    lang: str = "en",
    label: Callable[[str], str] | None = None,
    game: str | None = None,
) -> Table:
    """A Rich table of the candidates, the recommended move marked: headings in `lang`, each
    move named by `label` (its words) with its notation dimmed after it. A solo game with a
    goal shows, instead of the win chance and score, the share of lines reaching the goal and
    what is left of it (headed by `<game>.hint.left`, e.g. Eternitium's Era cards left)."""
    from eterna.i18n import catalog

    words = catalog(lang)
    solo = any(c.left is not None for c in candidates)
    table = Table(title=title, title_justify="left", title_style="bold")
    table.add_column("", width=1)
    table.add_column(words.text("common.hint.move"), style="bold", no_wrap=True)
    if label is not None:  # the notation, to type it
        table.add_column("", style="dim", no_wrap=True)
    table.add_column(words.text("common.hint.visits"), justify="right")
    if solo:
        left = f"{game}.hint.left"
        table.add_column(words.text("common.hint.success"), justify="right")
        table.add_column(
            words.text(left if game and words.has(left) else "common.hint.left"), justify="right"
        )
    else:
        table.add_column(words.text("common.hint.win"), justify="right")
        table.add_column(words.text("common.hint.score"), justify="right")
    for number, cand in enumerate(candidates):
        named = [cand.action] if label is None else [label(cand.action), cand.action]
        second = cand.left if solo else cand.score
        table.add_row(
            "→" if number == 0 else "",
            *named,
            str(cand.visits),
            "-" if cand.win is None else f"{cand.win:.1%}",
            "-" if second is None else f"{second:.{1 if solo else 2}f}",
        )
    return table
