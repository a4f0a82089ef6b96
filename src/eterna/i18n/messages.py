"""Message catalogs: the words a player reads, in English, French and German.

A catalog is one JSON file per language and domain, `catalogs/<lang>/<domain>.json`:

    {"format": "eterna-catalog/1", "lang": "fr", "domain": "eternity",
     "messages": {"eternity.event.trick_won": "{player} remporte le pli",
                  "eternity.event.card_pledged": {"by": "trees",
                      "one": "{player} offre {card} et prend {trees} arbre",
                      "other": "{player} offre {card} et prend {trees} arbres"}}}

Keys are flat (`<domain>.<kind>.<name>`), placeholders are `str.format` fields named by a plain
identifier, and a message involving a count is a plural form: `one` and `other`, chosen by the
number in the parameter `by` names (`count` when absent), with an optional `zero` form for 0.
English is the reference: every other language falls back to it key by key. See docs/i18n.md.
"""

from __future__ import annotations

import json
import string
from collections.abc import Iterable, Mapping
from functools import cache
from importlib import resources
from typing import Any, Final

from eterna.core.errors import EternaError

FORMAT: Final = "eterna-catalog/1"
LANGS: Final[tuple[str, ...]] = ("en", "fr", "de")
DEFAULT_LANG: Final = "en"
DOMAINS: Final[tuple[str, ...]] = ("common", "eternity", "vale", "eternitium")
PLURAL_FORMS: Final[tuple[str, ...]] = ("one", "other")  # required; "zero" is optional

Message = str | dict[str, str]


class MissingMessage(EternaError, KeyError):
    """A key no catalog holds, not even the English one."""

    def __str__(self) -> str:
        return str(self.args[0])


class MissingParam(EternaError, KeyError):
    """A message rendered without a parameter its text names."""

    def __str__(self) -> str:
        return str(self.args[0])


class BadParam(EternaError, ValueError):
    """A plural message whose number parameter is not a number."""


def plural_form(lang: str, n: int) -> str:
    """The plural form (`one` or `other`) a language uses for the number `n`."""
    n = abs(n)
    if lang == "fr":  # French: 0 and 1 take the singular ("0 arbre", "1 arbre")
        return "one" if n < 2 else "other"
    return "one" if n == 1 else "other"


def placeholders(text: str) -> list[str]:
    """The field names of a `str.format` text, in order, repeats kept (ValueError if bad)."""
    return [field for _, field, _, _ in string.Formatter().parse(text) if field is not None]


def message_params(message: Message) -> set[str]:
    """The parameters a message needs: every form's placeholders and, for a plural message,
    the number that picks its form (`by`, `count` by default)."""
    if isinstance(message, str):
        return set(placeholders(message))
    names = {message.get("by", "count")}
    for form, text in message.items():
        if form != "by":
            names.update(placeholders(text))
    return names


def _read(lang: str, domain: str) -> dict[str, Message]:
    """One catalog file's messages ({} when the file does not exist)."""
    node = resources.files("eterna.i18n").joinpath("catalogs", lang, f"{domain}.json")
    if not node.is_file():
        return {}
    data = json.loads(node.read_text(encoding="utf-8"))
    if data.get("format") != FORMAT:
        raise EternaError(f"i18n catalog {lang}/{domain}.json: format is not {FORMAT!r}")
    messages: dict[str, Message] = data["messages"]
    return messages


@cache
def messages_of(lang: str) -> Mapping[str, Message]:
    """Every message of one language, all domains merged (an unknown language: {})."""
    merged: dict[str, Message] = {}
    if lang in LANGS:
        for domain in DOMAINS:
            merged.update(_read(lang, domain))
    return merged


class Catalog:
    """The messages of one language, falling back to English key by key."""

    def __init__(self, lang: str) -> None:
        self.lang = lang if lang in LANGS else DEFAULT_LANG
        self._own = messages_of(self.lang)
        self._english = messages_of(DEFAULT_LANG)

    def __repr__(self) -> str:
        return f"Catalog({self.lang!r})"

    def has(self, key: str) -> bool:
        """Whether `key` has a message in this language or in English."""
        return key in self._own or key in self._english

    def keys(self) -> frozenset[str]:
        """Every key this catalog can render (its own and English's)."""
        return frozenset(self._own) | frozenset(self._english)

    def _message(self, key: str) -> tuple[Message, str]:
        if key in self._own:
            return self._own[key], self.lang
        if key in self._english:
            return self._english[key], DEFAULT_LANG
        raise MissingMessage(f"i18n: no message {key!r} in {self.lang!r} nor in English")

    def text(self, key: str, **params: Any) -> str:
        """The message `key` with its placeholders filled from `params`.

        A plural message picks its form from the number in its `by` parameter (`count` by
        default): its `zero` form for 0 if it has one, else the language's `one` or `other`.
        Raises MissingMessage for an unknown key and MissingParam, naming the key and the
        parameter, when a placeholder has no value; extra parameters are ignored.
        """
        message, lang = self._message(key)
        if isinstance(message, dict):
            by = message.get("by", "count")
            if by not in params:
                raise MissingParam(f"i18n: message {key!r} needs the parameter {by!r}")
            try:
                n = int(params[by])
            except (TypeError, ValueError):
                raise BadParam(
                    f"i18n: message {key!r}: the parameter {by!r} must be a number, "
                    f"not {params[by]!r}"
                ) from None
            message = (
                message["zero"] if n == 0 and "zero" in message else message[plural_form(lang, n)]
            )
        try:
            return message.format_map(params)
        except KeyError as err:
            raise MissingParam(
                f"i18n: message {key!r} needs the parameter {err.args[0]!r}"
            ) from None

    def get(self, key: str, default: str, **params: Any) -> str:
        """`text(key, **params)`, or `default` when no catalog holds `key`."""
        return self.text(key, **params) if self.has(key) else default

    def join(self, items: Iterable[str]) -> str:
        """A list in words: "a", "a and b", "a, b and c" (in this language)."""
        words = list(items)
        if not words:
            return self.text("common.list.none")
        if len(words) == 1:
            return words[0]
        return self.text("common.list.and", first=", ".join(words[:-1]), last=words[-1])

    def card_name(self, game: str, card_id: str) -> str:
        """The name a player reads for a card (`<game>.card.<id>.name`)."""
        return self.text(f"{game}.card.{card_id}.name")

    def card_text(self, game: str, card_id: str) -> str:
        """The effect text of a card (`<game>.card.<id>.text`)."""
        return self.text(f"{game}.card.{card_id}.text")

    def card_names(self, game: str, card_ids: Iterable[str]) -> str:
        """Several cards named as a list in words ("Sky 13, Sea 2 and Earth 7")."""
        return self.join(self.card_name(game, c) for c in card_ids)


@cache
def catalog(lang: str) -> Catalog:
    """The catalog of `lang` (cached); an unknown language gives the English one."""
    if lang not in LANGS:
        return catalog(DEFAULT_LANG)
    return Catalog(lang)


def negotiate(header: str | None, supported: Iterable[str] = LANGS) -> str:
    """The best supported language for an HTTP Accept-Language header (English otherwise).

    "fr-CH, fr;q=0.9, de;q=0.8" gives "fr"; weights order the choices, ties keep the header's
    order; a region falls back to its language; q=0 excludes; "*" stands for English.
    """
    choices = tuple(supported)
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate((header or "").split(",")):
        tag, _, rest = part.strip().partition(";")
        weight = 1.0
        for param in rest.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        lang = tag.strip().lower().split("-")[0].split("_")[0]
        if lang == "*":
            lang = DEFAULT_LANG
        if lang in choices and weight > 0:
            ranked.append((-weight, index, lang))
    return min(ranked)[2] if ranked else DEFAULT_LANG
