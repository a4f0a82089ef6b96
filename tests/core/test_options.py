"""Declared options: defaults, validation, and errors that name the fault."""

import pytest

from eterna.core.errors import BadSetup, EternaError
from eterna.core.options import (
    Option,
    option_flag,
    option_number,
    option_object,
    option_word,
    option_words,
    resolve_options,
)

DECLARED = {
    "mode": Option("mode", "a", "a mode", choices=("a", "b")),
    "cap": Option("cap", 0, "a cap", minimum=0, maximum=10),
    "flag": Option("flag", False, "a flag"),
}


def test_defaults_fill_what_is_not_given():
    assert resolve_options(DECLARED, None) == {"mode": "a", "cap": 0, "flag": False}
    assert resolve_options(DECLARED, {"cap": 3}) == {"mode": "a", "cap": 3, "flag": False}


def test_unknown_option_is_named_with_the_known_ones():
    with pytest.raises(BadSetup, match=r"unknown option\(s\) colour; this game's options: cap"):
        resolve_options(DECLARED, {"colour": "red"})


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"mode": "c"}, "must be one of 'a', 'b', not 'c'"),
        ({"cap": -1}, "must be at least 0"),
        ({"cap": 11}, "must be at most 10"),
        ({"cap": "3"}, "must be an integer"),
        ({"cap": True}, "must be an integer"),
        ({"flag": 1}, "must be a bool"),
    ],
)
def test_bad_values_are_refused_with_the_reason(given, message):
    with pytest.raises(BadSetup, match=message):
        resolve_options(DECLARED, given)


def test_bad_setup_is_an_eterna_error():
    assert issubclass(BadSetup, EternaError)


def test_typed_reads_give_each_resolved_value_as_its_type():
    declared = {
        **DECLARED,
        "sets": Option("sets", [], "some sets", kind=list, items=("x", "y")),
        "counts": Option("counts", {}, "counts by name", kind=dict),
    }
    got = resolve_options(declared, {"cap": 3, "flag": True, "sets": "y,x", "counts": {"a": 2}})
    assert option_word(got, "mode") == "a"
    assert option_number(got, "cap") == 3
    assert option_flag(got, "flag") is True
    assert option_words(got, "sets") == ["x", "y"]
    assert option_object(got, "counts") == {"a": 2}


@pytest.mark.parametrize(
    ("read", "name"),
    [
        (option_number, "flag"),  # a bool is no number
        (option_flag, "cap"),
        (option_word, "cap"),
        (option_words, "mode"),
        (option_object, "mode"),
    ],
)
def test_a_typed_read_of_the_wrong_kind_is_a_type_error(read, name):
    with pytest.raises(TypeError, match=f"option '{name}' is"):
        read(resolve_options(DECLARED, None), name)
