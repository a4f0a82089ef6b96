"""The Vale's redeal for a search (`ValeState._determinize`): where the cards a seat cannot see
lie, a copy with them dealt again, and the last resort for a question few redeals fit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from eterna.games.vale import artifacts as art

if TYPE_CHECKING:
    from eterna.games.vale.state import ValeState


def unseen_by(st: ValeState, seat: int) -> tuple[list[int], list[tuple[int, int]]]:
    """The cards `seat` cannot place, and where they lie: (seat, -1) for a card in that
    seat's hand, (seat, -2) in its shelter (the Artifacts), (-1, index) in the deck."""
    slots: list[tuple[int, int]] = []
    pool: list[int] = []
    secret = st.secret
    for s in range(st._n):
        if s == seat:
            continue
        for c in st.hands[s]:
            if secret >> c & 1:
                pool.append(c)
                slots.append((s, -1))
        if st.arts is not None:
            art.unseen_in_shelter(st, s, pool, slots)
    for i, c in enumerate(st.draw_pile):
        if c != st.known_top:
            pool.append(c)
            slots.append((-1, i))
    return pool, slots


def redealt(
    st: ValeState, base: ValeState, seat: int, pool: list[int], slots: list[tuple[int, int]]
) -> ValeState:
    """A copy of `base` with the unseen cards dealt in `pool`'s order to `slots`."""
    new = base.clone()
    secret = st.secret
    hands = [[c for c in h if s == seat or not secret >> c & 1] for s, h in enumerate(new.hands)]
    shelters = None if new.arts is None else art.seen_shelters(new.arts, seat, secret)
    new_secret = secret
    for c in pool:
        new_secret &= ~(1 << c)
    for (s, i), c in zip(slots, pool, strict=True):
        if s < 0:
            new.draw_pile[i] = c
            continue
        new_secret |= 1 << c
        if i == -1:
            hands[s].append(c)
        else:
            assert shelters is not None
            shelters[s].append(c)
    new.hands = [sorted(h) for h in hands]
    if new.arts is not None and shelters is not None:
        new.arts.shelters = [sorted(h) for h in shelters]
    new.secret = new_secret
    new._legal_cache = None
    choice = new.choice
    if choice is not None and choice.asks_another(seat):
        # another seat's pending choice may list cards of its (now redealt) hand: ask again
        new.choice = None
        choice.resume(new)
        new._run()
    return new


def redealt_asking(
    st: ValeState, base: ValeState, seat: int, pool: list[int], slots: list[tuple[int, int]]
) -> ValeState:
    """The last resort of `ValeState._determinize`, for a question few redeals fit: each unseen card
    in turn (in `pool`'s random order) is swapped into the chooser's first hidden slot until
    the question is asked again. The real hand is never looked at; if no single card
    brings the question back, the last redeal stands without it."""
    chooser = st.choice.chooser if st.choice is not None else -1
    mine = [k for k, (s, _) in enumerate(slots) if s == chooser]
    new = redealt(st, base, seat, pool, slots)
    if not mine:
        return new
    first = mine[0]
    for k in range(len(pool)):
        dealt = pool[:]
        dealt[first], dealt[k] = dealt[k], dealt[first]
        new = redealt(st, base, seat, dealt, slots)
        if asks_alike(new, st):
            return new
    return new


def asks_alike(guess: ValeState, real: ValeState) -> bool:
    """Whether `guess` waits on the same seat for the same card's question as `real`."""
    a, b = guess.choice, real.choice
    return (
        a is not None and b is not None and (a.chooser, a.seat, a.src) == (b.chooser, b.seat, b.src)
    )
