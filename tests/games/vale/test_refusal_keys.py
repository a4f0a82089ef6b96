"""Refusals name their catalog key, parameters and rule (docs/i18n.md), the English message
unchanged; payments are told as {red, blue, purple} mappings (rules §5.3.2, §5.4, Q15)."""

from __future__ import annotations

from typing import Any

import pytest
from vale_helpers import acting

from eterna.core.errors import IllegalAction
from eterna.i18n import describe_refusal

CASES = [
    (
        {"hands": [["boulder"], []], "areas": [[], ["boreas"]], "stones": [["red", "red"], []]},
        "summon boulder pay red+red+purple",
        "summon boulder pay purple+red+red: you do not hold purple+red+red: you hold red+red "
        "(rules §5.3.2)",
        "vale.refusal.stones_not_held",
        {"payment": {"red": 2, "blue": 0, "purple": 1}, "held": {"red": 2, "blue": 0, "purple": 0}},
        "Vous n'avez pas 2 pierres rouges et 1 pierre violette : vous avez 2 pierres rouges.",
    ),
    (
        {"hands": [["ifrit"], []], "stones": [["red", "purple"], []]},
        "summon ifrit pay red",
        "summon ifrit pay red: red is worth 1; ifrit costs 2 (rules §5.3.2)",
        "vale.refusal.summon_underpaid",
        {"payment": {"red": 1, "blue": 0, "purple": 0}, "value": 1, "card": "ifrit", "cost": 2},
        "Le paiement (1 pierre rouge) vaut 1, mais Ifrit coûte 2.",
    ),
    (
        {"hands": [["ifrit"], []], "stones": [["red", "purple", "purple", "purple"], []]},
        "summon ifrit pay red+purple+purple+purple",
        "summon ifrit pay purple+purple+purple+red: a red stone is superfluous: ifrit costs 2 "
        "and the rest covers it (rules Q15: no stone the cost does not need; no change is given)",
        "vale.refusal.summon_superfluous",
        {"stone": "red", "card": "ifrit", "cost": 2},
        "Une pierre rouge est superflue : Ifrit coûte 2 et le reste suffit "
        "(on ne rend pas la monnaie).",
    ),
    (
        {"areas": [["imp"], []], "stones": [["red", "red", "red", "purple"], []]},
        "remove imp pay red",
        "remove imp pay red: red is worth 1; removing costs 3 in this round (rules §5.3.2)",
        "vale.refusal.remove_underpaid",
        {"payment": {"red": 1, "blue": 0, "purple": 0}, "value": 1, "cost": 3},
        "Le paiement (1 pierre rouge) vaut 1, mais retirer une carte coûte 3 à cette manche.",
    ),
    (
        {"areas": [["imp"], []], "stones": [["red", "red", "red", "purple"], []]},
        "remove imp pay red+purple",
        "remove imp pay purple+red: a red stone is superfluous: removing costs 3 in this round "
        "and the rest covers it (rules Q15: no stone the cost does not need; no change is given)",
        "vale.refusal.remove_superfluous",
        {"stone": "red", "cost": 3},
        "Une pierre rouge est superflue : un retrait coûte 3 et le reste suffit "
        "(on ne rend pas la monnaie).",
    ),
    (
        {"areas": [["imp"], []]},
        "remove kappa pay red",
        "remove kappa pay red: kappa is not in your area (rules §5.4)",
        "vale.refusal.remove_not_in_area",
        {"card": "kappa"},
        "Kappa n'est pas dans votre zone.",
    ),
    (
        {"claimed": [["ifrit", "kappa"], []]},
        "end-turn",
        "end-turn: sell or tame your claimed cards first: ifrit, kappa (rules §5.2)",
        "vale.refusal.claimed_first",
        {"cards": ["ifrit", "kappa"]},
        "Vendez ou apprivoisez d'abord vos cartes revendiquées : Ifrit et Kappa.",
    ),
]


@pytest.mark.parametrize(("setup", "action", "message", "key", "params", "french"), CASES)
def test_refusals_carry_key_params_and_rule(
    setup: dict[str, Any],
    action: str,
    message: str,
    key: str,
    params: dict[str, Any],
    french: str,
) -> None:
    st = acting(**setup)
    with pytest.raises(IllegalAction) as caught:
        st.apply(action)
    err = caught.value
    assert str(err) == message
    assert (err.key, err.params) == (key, params)
    assert err.rule
    assert describe_refusal(err.key, err.params, "fr", ["Alice", "Bob"]) == french
