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

PLAY_ITERATIONS = 500  # the `hint` command of `eterna play`: about a second or less


@dataclass(frozen=True)
class Candidate:
    """One legal move with the search's estimates for the seat that would play it."""

    action: str
    visits: int
    win: float | None  # expected win share (a shared win counts 1/k); None if never tried
    score: float | None  # expected final score of the seat; None if never tried

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def advise(
    state: GameState,
    seat: int,
    iterations: int = 1000,
    seed: int = 0,
    rollout: str = "random",
) -> list[Candidate]:
    """Every legal move of `seat`, the recommended one (most visited) first.

    Raises EternaError when the game is over or it is not `seat`'s turn.
    """
    if state.is_terminal:
        raise EternaError("the game is over: there is no move to advise")
    if state.current_player != seat:
        raise EternaError(f"it is seat {state.current_player}'s turn, not seat {seat}'s")
    agent = ISMCTSAgent(seed=seed, iterations=iterations, rollout=rollout)
    legal = state.legal_actions()
    agent.search(SeatWindow(state, seat))
    stats, scores = agent.last_stats, agent.last_scores
    out = []
    for action in legal:
        visits, win = stats.get(action, (0, 0.0))
        out.append(
            Candidate(
                action=str(action),
                visits=visits,
                win=win if visits else None,
                score=scores.get(action) if visits else None,
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
) -> Table:
    """A Rich table of the candidates, the recommended move marked: headings in `lang`, each
    move named by `label` (its words) with its notation dimmed after it."""
    from eterna.i18n import catalog

    words = catalog(lang)
    table = Table(title=title, title_justify="left", title_style="bold")
    table.add_column("", width=1)
    table.add_column(words.text("common.hint.move"), style="bold", no_wrap=True)
    if label is not None:  # the notation, to type it
        table.add_column("", style="dim", no_wrap=True)
    table.add_column(words.text("common.hint.visits"), justify="right")
    table.add_column(words.text("common.hint.win"), justify="right")
    table.add_column(words.text("common.hint.score"), justify="right")
    for number, cand in enumerate(candidates):
        named = [cand.action] if label is None else [label(cand.action), cand.action]
        table.add_row(
            "→" if number == 0 else "",
            *named,
            str(cand.visits),
            "-" if cand.win is None else f"{cand.win:.1%}",
            "-" if cand.score is None else f"{cand.score:.2f}",
        )
    return table
