"""Every refusal path of the Vale's summon names the rule that refused (issue 32): not in the
hand (§5.3), the area full (§5.3.1), an instant effect that cannot be applied in full, whatever
is paid (Q1, Q14: nobody to name, or another step), then the payment (§5.3.2, Q15). A summon no
payment could make legal is never refused for its payment."""

from __future__ import annotations

from typing import Any

import pytest
from vale_helpers import acting, legal

from eterna.core.errors import IllegalAction
from eterna.i18n import LANGS, describe_refusal

NAMES = ["Alice", "Bob"]
RICH = ["purple", "blue", "red", "red"]  # 11 stones' worth: Ember costs 7
WATER_AT_BOB = [[], ["kappa"]]  # someone Ember may name


def refused(action: str, **setup: Any) -> IllegalAction:
    st = acting(**setup)
    assert action not in legal(st)
    with pytest.raises(IllegalAction) as caught:
        st.apply(action)
    return caught.value


CASES = [
    # (setup, action, key, rule)
    (
        {"hands": [["ember"], []], "stones": [RICH, []]},
        "summon ifrit",
        "summon_not_in_hand",
        "§5.3",
    ),
    (
        {"hands": [["ember"], []], "areas": [["imp", "kappa", "ifrit"], []], "stones": [RICH, []]},
        "summon ember pay purple+blue",
        "area_full",
        "§5.3.1",
    ),
    (
        {"hands": [["ember"], []], "stones": [RICH, []]},
        "summon ember",
        "summon_nobody_to_name",
        "Q1, Q14",
    ),
    (
        {"hands": [["ember"], []], "stones": [RICH, []]},
        "summon ember pay purple+blue+red+red",
        "summon_nobody_to_name",
        "Q1, Q14",
    ),
    (
        {"hands": [["forest-spirit"], []], "stones": [RICH, []]},
        "summon forest-spirit",
        "summon_instant_blocked",
        "Q1, Q14",
    ),
    (
        {"hands": [["ember"], []], "areas": WATER_AT_BOB, "stones": [RICH, []]},
        "summon ember",
        "summon_underpaid",
        "§5.3.2",
    ),
    (
        {"hands": [["ember"], []], "areas": WATER_AT_BOB, "stones": [["red"], []]},
        "summon ember pay red+red",
        "stones_not_held",
        "§5.3.2",
    ),
    (
        {"hands": [["ember"], []], "areas": WATER_AT_BOB, "stones": [RICH, []]},
        "summon ember pay purple+blue+red",
        "summon_superfluous",
        "Q15",
    ),
]


@pytest.mark.parametrize(("setup", "action", "key", "rule"), CASES)
def test_each_summon_refusal_names_its_rule(
    setup: dict[str, Any], action: str, key: str, rule: str
) -> None:
    err = refused(action, **setup)
    assert (err.key, err.rule) == (f"vale.refusal.{key}", rule), str(err)
    assert f"(rules {rule}" in str(err)
    for lang in LANGS:
        text = describe_refusal(err.key, err.params, lang, NAMES)
        assert text[0].isupper() and "{" not in text, (lang, text)


def test_ember_refused_for_the_family_to_name_not_for_its_payment() -> None:
    """The issue's case: with 9 stones' worth, a click on Ember (no payment) said "Paying no
    stones is worth 0, but Ember costs 7 (5.3.2)"; the summon was refused because no other
    player held a Water-family card to name."""
    err = refused("summon ember", hands=[["ember"], []], stones=[RICH, []])
    assert err.params == {"card": "ember", "family": "water"}
    assert describe_refusal(err.key, err.params, "en", NAMES) == (
        "No player you may name has a card of the Water family in their area, so Ember cannot "
        "be summoned: its instant effect must be applied in full."
    )
    assert "Eau" in describe_refusal(err.key, err.params, "fr", NAMES)
    assert "Wasser" in describe_refusal(err.key, err.params, "de", NAMES)


def test_ember_with_a_family_to_name_is_summoned() -> None:
    st = acting(hands=[["ember"], []], areas=WATER_AT_BOB, stones=[RICH, []])
    assert any(a.startswith("summon ember pay ") for a in legal(st))
