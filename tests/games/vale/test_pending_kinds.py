"""A pending choice is named by a stable kind of its own, never a Python class name (issue 14):
every kind a step can ask is declared, documented, worded on the web and in the catalogs, and
the encoding's one-hot keeps the slot order it had when the kinds were class names."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import eterna
from eterna.games.vale import (
    board,
    choices,
    effects,
    tiles,  # noqa: F401  (its steps, for _step_classes)
)
from eterna.games.vale.effects import Step
from eterna.games.vale.encoding import PENDING_KINDS
from eterna.i18n import LANGS, catalog

ROOT = Path(__file__).resolve().parents[3]
STATIC_I18N = ROOT / "src" / "eterna" / "web" / "static" / "i18n"

# encoding version 1's `pending_kind` slots as they were spelt before the stable names
CLASS_NAMES_OF_VERSION_1 = (
    "stone-limit",
    "Recover",
    "ReturnToHand",
    "DiscardFromHand",
    "TakeFromDiscard",
    "DiscardFromOwnArea",
    "NamedPlayerDiscards",
    "StealPoints",
    "ChooseOne",
    "CopyInstant",
    "CopyActive",
    "ActivateOthers",
    "DiscardThenSummonFree",
    "DiscardSelfThenSummonFree",
    "other",
)


def _step_classes() -> list[type[Step]]:
    found: list[type[Step]] = []
    todo = [Step]
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            if sub.__module__.startswith("eterna.games.vale."):
                found.append(sub)
                todo.append(sub)
    return found


def _asking_steps() -> list[type[Step]]:
    """The steps that can leave a pending choice: those that answer one."""
    return [cls for cls in _step_classes() if cls.answer is not Step.answer]


def _documented_kinds() -> set[str]:
    text = (ROOT / "docs" / "vale.md").read_text("utf-8")
    section = text.split("### Pending choices", 1)[1].split("\n#", 1)[0]
    return set(re.findall(r"^\| `(\w+)` \|", section, flags=re.M))


def test_the_encoding_slots_keep_their_order() -> None:
    assert len(PENDING_KINDS) == len(CLASS_NAMES_OF_VERSION_1)
    for i, old in enumerate(CLASS_NAMES_OF_VERSION_1):
        if old == "stone-limit":
            new = board.STONE_LIMIT_STEP.kind
        elif old in ("Recover", "other"):  # Recover never asks: its slot stays, empty
            assert not getattr(effects, old, Step).kind
            new = old.lower()
        else:
            new = getattr(choices, old).kind
        assert PENDING_KINDS[i] == new, (i, old)


TILES = "eterna.games.vale.tiles"  # the Artifacts' tiles: kinds of their own, or a base one


def _tile_kinds() -> set[str]:
    """The questions only the artifact tiles ask."""
    return {cls.kind for cls in _asking_steps() if cls.__module__ == TILES} - set(PENDING_KINDS)


def test_every_artifact_tile_step_has_a_documented_kind_with_words() -> None:
    asking = [cls for cls in _asking_steps() if cls.__module__ == TILES]
    assert len(asking) == 11
    kinds = {cls.kind for cls in asking}
    assert len(kinds) == 11  # one name per step: 9 new, and 2 of the base game's questions
    assert kinds - set(PENDING_KINDS) == kinds - {"discard_from_hand", "discard_from_own_area"}
    assert kinds <= _documented_kinds()
    for lang in LANGS:
        web = json.loads((STATIC_I18N / f"{lang}.json").read_text("utf-8"))
        cat = catalog(lang)
        for kind in kinds:
            assert web.get(f"vale.pendingKind.{kind}"), (lang, kind)
            assert cat.has(f"vale.question.{kind}"), (lang, kind)


def test_every_asking_step_has_a_declared_stable_kind() -> None:
    # a subclass that keeps its parent's `kind` asks the same question (Anubis, Cerberus)
    asking = [cls for cls in _asking_steps() if "kind" in cls.__dict__ and cls.__module__ != TILES]
    assert len(asking) == 18
    kinds = {cls.kind for cls in asking}
    assert len(kinds) == len(asking)  # one name per step
    assert all(re.fullmatch(r"[a-z_]+", k) for k in kinds), kinds
    # the encoding's version 1 slots are the base game's; the Artifacts creatures' fall in "other"
    expansion = {
        "discard_up_to_from_hand",
        "put_on_deck",
        "summon_from_discard",
        "summon_free_from_hand",
        "swap_with_a_player",
    }
    assert kinds - expansion <= set(PENDING_KINDS) and not expansion & set(PENDING_KINDS)
    assert kinds == _documented_kinds() - _tile_kinds()
    for lang in LANGS:
        web = json.loads((STATIC_I18N / f"{lang}.json").read_text("utf-8"))
        cat = catalog(lang)
        for kind in kinds:
            assert web.get(f"vale.pendingKind.{kind}"), (lang, kind)
            assert cat.has(f"vale.question.{kind}"), (lang, kind)


def test_played_games_show_only_declared_kinds() -> None:
    declared = _documented_kinds()
    seen: set[str] = set()
    for players, seed, expansions in (
        (2, 1, []),
        (3, 2, []),
        (4, 3, []),
        (4, 4, []),
        (2, 5, ["artifacts"]),
        (3, 6, ["artifacts"]),
        (4, 7, ["artifacts"]),
    ):
        options = {"expansions": expansions}
        st = eterna.load_game("vale").new_game(players, seed=seed, options=options)
        rng = random.Random(seed)
        while not st.is_terminal:
            pending = st.view(st.current_player)["pending"]
            if pending is not None:
                seen.add(pending["kind"])
            st.apply(rng.choice(list(st.legal_actions())))
    assert seen <= declared, seen - declared
    assert {"stone_limit", "choose_one"} <= seen
