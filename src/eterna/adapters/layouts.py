"""Action layouts: the discrete action space a learner sees, over an encoding's flat action ids.

- `flat`: the encoding's own ids (`Encoding.num_actions`), one output per action.
- `compact`: one output per *head*, an action's notation without its payment (the text before
  ` pay `). The Vale's flat table lists every `summon <card> pay <stones>` and `remove <card>
  pay <stones>` for each of 84 (83) stone multisets: 12,336 ids, which the base game's
  compact layout folds into 786 (17,775 into 1,522 with the Artifacts). A compact id stands for
  all the legal flat ids sharing its head; the payment is then chosen by a fixed rule
  (`resolve`): the legal payment of least total stone value (red 1, blue 3, purple 6;
  docs/vale.md), then the one spending more stones (it keeps the purples and leaves room under
  the stone limit), then the lowest flat id. For Eternity and Eternitium no action has a
  payment: compact equals flat.

Both map the same way: `mask(legal_flat_ids)` gives the layout's bool mask, `resolve(id,
legal_flat_ids)` the flat id a layout id plays. `table()` lists every layout id with the flat ids
it covers (docs/agents.md documents the mapping; `eterna.adapters.layouts` builds it from the
encoding's own action table, so it follows any change of that table).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from eterna.core.encoding import Encoding
from eterna.core.errors import EternaError

LAYOUTS = ("flat", "compact")
STONE_VALUES = {"red": 1, "blue": 3, "purple": 6}  # The Vale's stone values (its rulebook)


def head_of(text: str) -> str:
    """An action's notation without its payment: `summon imp pay red+red` -> `summon imp`."""
    return text.split(" pay ", 1)[0]


def payment_key(text: str) -> tuple[int, int]:
    """(total stone value, -stones spent) of an action's payment (0, 0 without one)."""
    _, sep, pay = text.partition(" pay ")
    if not sep:
        return (0, 0)
    stones = [s for s in pay.split("+") if s]
    return (sum(STONE_VALUES.get(s, 0) for s in stones), -len(stones))


class ActionLayout:
    """A learner's action space over an encoding's flat ids (module docstring)."""

    def __init__(self, encoding: Encoding, kind: str = "flat") -> None:
        if kind not in LAYOUTS:
            raise EternaError(f"action layout must be one of {', '.join(LAYOUTS)}, not {kind!r}")
        self.kind = kind
        texts = [a.text for a in encoding.actions]
        heads = texts if kind == "flat" else [head_of(t) for t in texts]
        index: dict[str, int] = {}
        to_layout = np.empty(len(texts), np.int64)
        for flat_id, head in enumerate(heads):
            to_layout[flat_id] = index.setdefault(head, len(index))
        self.heads = list(index)
        self.size = len(self.heads)
        self.to_layout = to_layout
        # sort key of each flat id among those sharing its head (the payment rule)
        self._rank = [(*payment_key(t), i) for i, t in enumerate(texts)]

    def mask(self, legal: Sequence[int]) -> np.ndarray:
        """bool[size]: True for each layout id covering at least one legal flat id."""
        out = np.zeros(self.size, bool)
        if len(legal):
            out[self.to_layout[np.asarray(legal, np.int64)]] = True
        return out

    def resolve(self, layout_id: int, legal: Sequence[int]) -> int:
        """The flat id that `layout_id` plays among the `legal` flat ids (the payment rule);
        EternaError if it covers none of them."""
        if self.kind == "flat":
            if layout_id in legal:
                return layout_id
        else:
            to_layout = self.to_layout
            covered = [i for i in legal if to_layout[i] == layout_id]
            if covered:
                rank = self._rank
                return min(covered, key=rank.__getitem__)
        name = self.heads[layout_id] if 0 <= layout_id < self.size else str(layout_id)
        raise EternaError(f"action {layout_id} ({name}) is not legal now")

    def table(self) -> list[tuple[int, str, list[int]]]:
        """Each layout id with its head and the flat ids it covers."""
        covers: list[list[int]] = [[] for _ in range(self.size)]
        for flat_id, layout_id in enumerate(self.to_layout.tolist()):
            covers[layout_id].append(flat_id)
        return [(i, self.heads[i], covers[i]) for i in range(self.size)]
