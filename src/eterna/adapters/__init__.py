"""Research interfaces: PettingZoo (`eterna.adapters.pettingzoo`), OpenSpiel
(`eterna.adapters.openspiel`, registers the games with pyspiel on import) and Gymnasium
(`eterna.adapters.gymnasium`), all built on the fixed-size encodings of
`eterna.adapters.encodings` (docs/encodings.md).

The three framework modules import their framework, so they are imported on demand; install
them with the `research` extra (`pip install eterna[research]`; OpenSpiel is in `dev`).
"""
