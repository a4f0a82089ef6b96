"""Agent specs: every numeric parameter is a finite number within its documented range, checked
where specs are parsed and agents made (the CLI, the API and the arena all go through
`make_agent`), with an error that names the parameter."""

import pytest

from eterna.agents import make_agent, parse_spec
from eterna.agents.ismcts import RANGES
from eterna.arena.simulate import check_agent
from eterna.core.errors import EternaError
from eterna.core.registry import load_game

REFUSED = [
    ("ismcts:seconds=nan", "seconds"),
    ("ismcts:seconds=inf", "seconds"),
    ("ismcts:seconds=-1", "seconds"),
    ("ismcts:seconds=0", "seconds"),
    ("ismcts:seconds=1e9", "seconds"),
    ("ismcts:c=nan", "'c'"),
    ("ismcts:c=inf", "'c'"),
    ("ismcts:c=-1", " c "),
    ("ismcts:c=1000", " c "),
    ("ismcts:trust=nan", "trust"),
    ("ismcts:trust=-inf", "trust"),
    ("ismcts:trust=1000", "trust"),
    ("ismcts:iterations=0", "iterations"),
    ("ismcts:iterations=-5", "iterations"),
    ("ismcts:iterations=2.5", "iterations"),
    ("ismcts:iterations=true", "iterations"),
    ("ismcts:iterations=99999999999", "iterations"),
    ("ismcts:iterations=1e400", "iterations"),
    ("ismcts:epsilon=nan", "epsilon"),
    ("ismcts:epsilon=2", "epsilon"),
    ("ismcts:depth=-1", "depth"),
    ("ismcts:depth=1.5", "depth"),
    ("ismcts:c=true", " c "),
    ("heuristic:risk=nan", "risk"),
    ("heuristic:risk=-inf", "risk"),
    ("random:x=1", "random"),
]


@pytest.mark.parametrize(("spec", "named"), REFUSED)
def test_bad_numbers_are_refused_naming_the_parameter(spec: str, named: str) -> None:
    with pytest.raises(EternaError) as caught:
        make_agent(spec, seed=0)
    assert named in str(caught.value)
    with pytest.raises(EternaError):  # the check the CLI, the arena and the server run
        check_agent(load_game("eternity"), spec)


def test_non_finite_numbers_never_leave_the_parser() -> None:
    for text in ("nan", "inf", "-inf", "1e400", "NaN"):
        with pytest.raises(EternaError, match="finite"):
            parse_spec(f"heuristic:x={text}")


@pytest.mark.parametrize(
    "spec",
    [
        "ismcts:seconds=0.5",
        "ismcts:iterations=1",
        "ismcts:iterations=1000000",
        "ismcts:c=0,trust=-1,epsilon=1,depth=0",
        "ismcts:c=100,trust=100",
        "ismcts:iterations=200,rollout=heuristic",
    ],
)
def test_values_in_range_are_accepted(spec: str) -> None:
    make_agent(spec, seed=0)


def test_every_range_is_documented() -> None:
    with open("docs/agents.md", encoding="utf-8") as handle:
        text = handle.read()
    section = text[text.index("### Parameter ranges") :]
    for key in RANGES:
        assert f"`{key}`" in section


@pytest.mark.parametrize(
    "value", ["50_00", "\u0665\u0660", "\uff15\uff10", "1_0.5", "9" * 5000, "nan", "Infinity"]
)
def test_numbers_are_plain_ascii_decimal_only(value: str) -> None:
    """int() and float() take underscores, other scripts' digits and 4,300+ digits (then refuse
    the last with a ValueError); a spec takes plain ASCII decimal, else names the parameter."""
    with pytest.raises(EternaError, match="'iterations'") as caught:
        parse_spec(f"ismcts:iterations={value}")
    assert len(str(caught.value)) < 200


def test_plain_numbers_still_read_as_numbers() -> None:
    assert parse_spec("ismcts:iterations=5000,c=.5,trust=-1,epsilon=1e-2,rollout=heuristic") == (
        "ismcts",
        {"iterations": 5000, "c": 0.5, "trust": -1, "epsilon": 0.01, "rollout": "heuristic"},
    )
