"""`python -m eterna.i18n --check`: print every catalog problem; exit 1 if there is any."""

from __future__ import annotations

import argparse
import sys

from eterna.i18n.check import problems
from eterna.i18n.messages import DOMAINS, LANGS, messages_of


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m eterna.i18n", description=__doc__)
    parser.add_argument("--check", action="store_true", help="check the catalogs (the default)")
    parser.parse_args(argv)
    found = problems()
    for line in found:
        print(line)
    counts = ", ".join(f"{lang} {len(messages_of(lang))}" for lang in LANGS)
    verdict = f"{len(found)} problem(s)" if found else "no problem"
    print(f"i18n: {verdict}; domains {', '.join(DOMAINS)}; keys per language: {counts}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
