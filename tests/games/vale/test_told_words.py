"""The Vale told in sentences (issue 32): a named player's card is not a second "chooses a
player to name", no "gains 0 points", no "a Earth card", every told line capitalised."""

from __future__ import annotations

from vale_helpers import acting, legal

from eterna.i18n import LANGS, catalog, describe_event, event_lines

NAMES = ["bob", "Chloé"]  # a name chosen in lower case still starts its sentence capitalised


def test_a_named_players_card_is_its_own_question() -> None:
    st = acting(hands=[["ember"], []], areas=[[], ["kappa"]], stones=[["purple", "red"], []])
    told = st.event_count()
    pay = next(a for a in legal(st) if a.startswith("summon ember pay "))
    st.apply(pay)
    st.apply("target seat-1")
    asked = [e for e in st.events_since(told, None) if e["kind"] == "effect_choice"]
    assert [e["question"] for e in asked] == ["name_a_player", "name_a_player.card"]
    for lang in LANGS:
        first, second = (describe_event("vale", e, lang, NAMES) for e in asked)
        assert first != second and first[0].isupper() and second[0].isupper(), (first, second)
    assert describe_event("vale", asked[0], "en", NAMES) == "Ember: bob chooses a player to name"
    assert describe_event("vale", asked[1], "en", NAMES) == (
        "Ember of bob: Chloé chooses a card of their area to discard"
    )


def test_no_points_are_said_as_none() -> None:
    event = {"kind": "points_gained", "seat": 1, "points": 0, "score": 12}
    said = {lang: describe_event("vale", event, lang, NAMES) for lang in LANGS}
    assert said == {
        "en": "Chloé gains no points (score 12)",
        "fr": "Chloé ne gagne aucun point (score : 12)",
        "de": "Chloé erhält keine Punkte (Stand: 12)",
    }
    with_source = describe_event("vale", {**event, "source": "ember"}, "en", NAMES)
    assert with_source == "Ember: Chloé gains no points (score 12)"
    assert "0" not in describe_event("vale", {**event, "points": 3}, "en", NAMES)[:5]


def test_a_family_needs_no_article() -> None:
    for lang in LANGS:
        cat = catalog(lang)
        earth = cat.text("vale.family.earth")
        for key in ("vale.pending.attack_name", "vale.pending.attack_discard"):
            text = cat.text(key, family=earth)
            assert f"a {earth}" not in text and f"une carte {earth}" not in text, text


def test_every_line_starts_capitalised() -> None:
    event = {"kind": "card_sold", "seat": 0, "card": "ifrit"}
    for lang in LANGS:
        (line,) = event_lines("vale", event, lang, NAMES)
        assert line.startswith("Bob "), line
