"""Whether a value built or read at run time is what its TypedDict declares, shared by the
views' tests (tests/games/*/test_views*.py) and the card data's (tests/core/
test_typed_contract.py). The TypedDicts they read live in interpreted modules, so their
optional keys are kept on the compiled build too."""

from __future__ import annotations

import types
import typing
from typing import Any, NotRequired, get_args, get_origin, get_type_hints, is_typeddict


def check_keys(value: object, typed: Any, where: str = "") -> set[str]:
    """`value` is a dict holding every required key of the TypedDict `typed` and no key it does
    not declare (its values unchecked); its keys."""
    where = where or typed.__name__
    assert isinstance(value, dict), (where, value)
    keys = set(value)
    assert typed.__required_keys__ <= keys, (where, typed.__required_keys__ - keys)
    assert keys <= typed.__required_keys__ | typed.__optional_keys__, (where, keys)
    return keys


def check_typed(value: object, typed: Any, where: str) -> None:
    """`check_keys`, and each value of the type its key declares."""
    check_keys(value, typed, where)
    assert isinstance(value, dict)
    hints = get_type_hints(typed)
    for key, item in value.items():
        check_value(item, hints[key], f"{where}.{key}")


def check_value(value: object, hint: Any, where: str) -> None:
    """`value` is of the type `hint` (the forms the TypedDicts use: TypedDicts, lists,
    dicts, unions, None, str, int, bool)."""
    origin = get_origin(hint)
    if origin is NotRequired:
        check_value(value, get_args(hint)[0], where)
    elif origin in (typing.Union, types.UnionType):
        errors = []
        for option in get_args(hint):
            try:
                check_value(value, option, where)
            except AssertionError as exc:
                errors.append(exc)
            else:
                return
        raise AssertionError(f"{where}: {value!r} is none of {hint}: {errors}")
    elif hint is type(None):
        assert value is None, (where, value)
    elif is_typeddict(hint):
        check_typed(value, hint, where)
    elif origin is list:
        assert isinstance(value, list), (where, value)
        for i, item in enumerate(value):
            check_value(item, get_args(hint)[0], f"{where}[{i}]")
    elif origin is dict:
        assert isinstance(value, dict), (where, value)
        key_type, value_type = get_args(hint)
        for key, item in value.items():
            check_value(key, key_type, f"{where} key")
            check_value(item, value_type, f"{where}[{key!r}]")
    elif hint is int:
        assert isinstance(value, int) and not isinstance(value, bool), (where, value)
    else:
        assert hint in (str, bool), (where, hint)
        assert type(value) is hint, (where, value, hint)


def fits(value: object, hint: Any, where: str = "") -> bool:
    """Whether `check_value` takes `value` as a `hint`."""
    try:
        check_value(value, hint, where)
    except AssertionError:
        return False
    return True
