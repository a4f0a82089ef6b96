"""Typed moves: canonical notation, a bare argument, or an unambiguous prefix of a legal move.

`resolve_move(state, text)` answers the action meant, or raises the error that explains the
refusal: the engine's `IllegalAction` (naming the rule) for a well-formed move the rules forbid,
`BadNotation` for text that is no move, and `AmbiguousMove` (a BadNotation) for a prefix that
fits several legal moves.

Completion works word by word: each typed word must start the corresponding word of a legal
move (`pl s` fits `play sea-3` and `pledge sky-5`). A word that already is a complete move
(`pledge sky-1`) is taken literally, never extended to `pledge sky-12`; but a complete move
that is illegal while legal moves continue it with more words is completed (`summon ifrit`
-> `summon ifrit pay blue`, listed when several payments fit). A game without a default verb
completes a bare argument against the legal moves' arguments (`kappa` -> `claim kappa`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from eterna.core.errors import BadNotation, IllegalAction
from eterna.core.game import GameState

MAX_LISTED = 12


class AmbiguousMove(BadNotation):
    """A prefix that fits more than one legal move."""

    def __init__(self, text: str, matches: Sequence[str]) -> None:
        listed = ", ".join(matches[:MAX_LISTED])
        more = f" and {len(matches) - MAX_LISTED} more" if len(matches) > MAX_LISTED else ""
        super().__init__(f"{text!r} is ambiguous: it fits {listed}{more}; type more of it")
        self.matches = list(matches)


def refusal(state: GameState, action: Any) -> IllegalAction:
    """The engine's own explanation of why `action` is refused now (state left untouched)."""
    probe = state.clone()
    try:
        probe.apply(action)
    except IllegalAction as exc:
        return exc
    return IllegalAction(f"{action} is not a legal move now")


def _parse(state: GameState, text: str) -> Any | None:
    try:
        return state.game.parse_action(text)
    except BadNotation:
        return None


def _legal_or_refuse(state: GameState, action: Any, legal: dict[str, Any]) -> Any:
    found = legal.get(str(action))
    if found is not None:
        return found
    raise refusal(state, action)


def _starts(word: str, typed: str) -> bool:
    """`typed` abbreviates `word`; whole parts of a '+'-joined word (the Vale's payments,
    `blue+red`) are never extended: `blue` does not mean `blue+red`, `bl` may."""
    return word.startswith(typed) and not word.startswith(f"{typed}+")


def _fits(words: Sequence[str], move: Sequence[str]) -> bool:
    """Each typed word starts the corresponding word of `move` (which may have more words)."""
    if len(words) > len(move):
        return False
    return all(_starts(m, w) for w, m in zip(words, move[: len(words)], strict=True))


def _extensions(words: Sequence[str], legal: dict[str, Any]) -> list[str]:
    """The legal moves with more words than `words` whose first words are exactly `words`."""
    return [m for m in legal if len(m.split()) > len(words) and m.split()[: len(words)] == words]


@dataclass(frozen=True)
class _Typed:
    """What the player typed, read against the legal moves of the state."""

    state: GameState
    text: str
    words: list[str]  # lower case
    legal: dict[str, Any]  # notation -> legal action
    default_verb: str | None
    verb_matches: list[str]  # the action words the first word abbreviates
    full_verb: str | None  # the action word meant, when the first word names a single one

    @property
    def typed(self) -> str:
        return " ".join(self.words)

    @property
    def bare(self) -> bool:
        """One word that abbreviates no action word: a card, a target..."""
        return len(self.words) == 1 and not self.verb_matches


def resolve_move(
    state: GameState,
    text: str,
    verbs: Sequence[str] = (),
    default_verb: str | None = None,
) -> Any:
    """The legal action `text` means, or the error explaining why it is refused.

    `verbs` are the action words of the game's notation (e.g. play, pledge), `default_verb`
    what a bare argument means (`sea-3` -> `play sea-3`).
    """
    words = text.lower().split()
    if not words:
        raise BadNotation("type a move (e.g. 'play sea-3'), or 'help' to list them")
    typed = " ".join(words)
    legal = {str(a): a for a in state.legal_actions()}
    if typed in legal:
        return legal[typed]
    verb_matches = [v for v in verbs if v.startswith(words[0])]
    full_verb = words[0] if words[0] in verbs else None
    if full_verb is None and len(verb_matches) == 1:
        full_verb = verb_matches[0]
    move = _Typed(state, text, words, legal, default_verb, verb_matches, full_verb)
    found = _literal(move)
    if found is None:
        found = _bare_argument(move)
    if found is None:
        found = _prefix(move)
    if found is None:
        _refuse(move)
    return found


def _literal(move: _Typed) -> Any | None:
    """A complete move, possibly with an abbreviated action word: taken literally."""
    words, legal = move.words, move.legal
    literal = " ".join([move.full_verb, *words[1:]]) if move.full_verb is not None else move.typed
    action = _parse(move.state, literal)
    if action is None:
        return None
    if str(action) not in legal:
        # Whole words that begin longer legal moves (`summon ifrit` -> `summon ifrit pay
        # blue`): completed like a prefix. A word is never extended (`sky-1` stays sky-1).
        longer = _extensions(literal.split(), legal)
        if len(longer) == 1:
            return legal[longer[0]]
        if longer:
            raise AmbiguousMove(move.text.strip(), longer)
    return _legal_or_refuse(move.state, action, legal)


def _bare_argument(move: _Typed) -> Any | None:
    """A bare argument: `sea-3` means `play sea-3`."""
    if move.default_verb is None or not move.bare:
        return None
    action = _parse(move.state, f"{move.default_verb} {move.typed}")
    if action is None:
        return None
    if str(action) in move.legal:
        return move.legal[str(action)]
    others = [m for m in move.legal if m.split(" ", 1)[-1] == move.typed]
    error = refusal(move.state, action)
    if others:
        error = IllegalAction(
            f"{error}; you may {' or '.join(others)} instead",
            key=error.key,
            params=error.params,
            rule=error.rule,
        )
    raise error


def _prefix(move: _Typed) -> Any | None:
    """A prefix of legal moves, word by word; a bare prefix also completes the default verb's."""
    words, legal, default_verb = move.words, move.legal, move.default_verb
    fits = [m for m in legal if _fits(words, m.split())]
    if default_verb is not None and len(words) == 1:
        fits += [
            m
            for m in legal
            if m.startswith(f"{default_verb} ") and m not in fits and _fits(words, m.split()[1:])
        ]
    # Without a default verb, a bare argument completes against every legal move's argument
    # (`kappa` -> `claim kappa` while hunting); a whole argument beats a longer one.
    if default_verb is None and move.bare and not fits:
        typed = move.typed
        named = [m for m in legal if len(m.split()) > 1 and m.split()[1] == typed]
        fits = named or [m for m in legal if len(m.split()) > 1 and m.split()[1].startswith(typed)]
    if len(fits) == 1:
        return legal[fits[0]]
    if fits:
        raise AmbiguousMove(move.text.strip(), fits)
    return None


def _refuse(move: _Typed) -> NoReturn:
    """Nothing legal fits: if the action word is clear, explain with a refused move it could
    be; else say what a move looks like."""
    state, legal, words = move.state, move.legal, move.words
    if move.full_verb is not None:
        arguments = dict.fromkeys(m.split(" ", 1)[1] for m in legal if " " in m)
        for argument in arguments:
            if _fits(words[1:], argument.split()):
                action = _parse(state, f"{move.full_verb} {argument}")
                if action is not None and str(action) not in legal:
                    raise refusal(state, action)
    if move.default_verb is None and move.bare:
        raise BadNotation(
            f"{move.text.strip()!r} names no legal move now; type 'help' to list them"
        )
    try:
        state.game.parse_action(move.typed)
    except BadNotation as exc:
        if move.full_verb is None:  # the engine's message says what a move looks like
            raise BadNotation(f"{exc} (type 'help' to list the legal moves)") from None
    raise BadNotation(f"{move.text.strip()!r} fits no legal move now; type 'help' to list them")
