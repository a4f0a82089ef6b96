"""The catalog checker: every problem a translator or a tool should fix, as plain lines.

`problems()` compares every language with English, the reference: keys missing or extra,
placeholders that differ, plural forms incomplete or inconsistent, placeholders that are not
plain identifiers, text that `str.format` cannot parse, keys filed under the wrong domain.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import resources

from eterna.i18n.messages import (
    DEFAULT_LANG,
    DOMAINS,
    FORMAT,
    LANGS,
    PLURAL_FORMS,
    Message,
    placeholders,
)


def _load_domain(lang: str, domain: str, out: list[str]) -> dict[str, Message]:
    """One catalog file's messages, reporting a missing or malformed file."""
    where = f"{lang}/{domain}.json"
    node = resources.files("eterna.i18n").joinpath("catalogs", lang, f"{domain}.json")
    if not node.is_file():
        out.append(f"{where}: the file is missing")
        return {}
    try:
        data = json.loads(node.read_text(encoding="utf-8"))
    except ValueError as err:
        out.append(f"{where}: not valid JSON ({err})")
        return {}
    if data.get("format") != FORMAT or data.get("lang") != lang or data.get("domain") != domain:
        out.append(f"{where}: the header must say format {FORMAT!r}, lang and domain")
    messages = data.get("messages")
    if not isinstance(messages, dict):
        out.append(f"{where}: no 'messages' object")
        return {}
    for key in messages:
        if not key.startswith(domain + "."):
            out.append(f"{where}: key {key!r} does not start with {domain + '.'!r}")
    return messages


def _fields(lang: str, key: str, message: object, out: list[str]) -> set[str] | None:
    """The placeholder names of one message (all forms), reporting malformed ones."""
    if isinstance(message, str):
        texts = [message]
    elif isinstance(message, dict):
        forms = [f for f in message if f not in ("by", "zero")]
        if sorted(forms) != sorted(PLURAL_FORMS):
            out.append(
                f"{lang}: {key}: plural forms {sorted(forms)}, expected one and other "
                "(and zero, optional)"
            )
        texts = [t for f, t in message.items() if f != "by"]
    else:
        out.append(f"{lang}: {key}: a message is a string or a plural object")
        return None
    names: set[str] = set()
    for text in texts:
        if not isinstance(text, str):
            out.append(f"{lang}: {key}: a plural form is not a string")
            return None
        try:
            found = placeholders(text)
        except ValueError as err:
            out.append(f"{lang}: {key}: str.format cannot read it ({err})")
            return None
        for name in found:
            if not name.isidentifier():
                out.append(f"{lang}: {key}: placeholder {{{name}}} is not a plain name")
        names.update(found)
    if isinstance(message, dict):
        by = message.get("by", "count")
        if by not in names and texts:
            names.add(by)  # a form may leave the number out ("un pli"), the key still needs it
    return names


def _compare(
    lang: str, english: Mapping[str, Message], other: Mapping[str, Message], out: list[str]
) -> None:
    for key in sorted(set(english) - set(other)):
        out.append(f"{lang}: missing key {key}")
    for key in sorted(set(other) - set(english)):
        out.append(f"{lang}: key {key} is not in English (unknown key)")
    for key in sorted(set(english) & set(other)):
        ref = _fields(DEFAULT_LANG, key, english[key], [])
        mine = _fields(lang, key, other[key], out)
        if ref is None or mine is None:
            continue
        for name in sorted(mine - ref):
            out.append(f"{lang}: {key}: unknown placeholder {{{name}}} (not in English)")
        for name in sorted(ref - mine):
            out.append(f"{lang}: {key}: placeholder {{{name}}} missing (English has it)")
        a, b = english[key], other[key]
        if isinstance(a, dict) != isinstance(b, dict):
            out.append(f"{lang}: {key}: plural in one language, plain in the other")
        elif (
            isinstance(a, dict)
            and isinstance(b, dict)
            and a.get("by", "count") != b.get("by", "count")
        ):
            out.append(f"{lang}: {key}: plural chosen by another parameter than English's")


def problems() -> list[str]:
    """Every problem of the shipped catalogs, one line each (an empty list when all is well)."""
    out: list[str] = []
    for domain in DOMAINS:
        english = _load_domain(DEFAULT_LANG, domain, out)
        for key, message in english.items():
            _fields(DEFAULT_LANG, key, message, out)
        for lang in LANGS:
            if lang != DEFAULT_LANG:
                _compare(lang, english, _load_domain(lang, domain, out), out)
    return out
