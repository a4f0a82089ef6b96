"""Issue 13, the web table under abuse: what one hostile client could do to everyone else
(bots stalled by a spec, seats taken, the table cap closed, forged addresses, logs with tokens)
and what the server does instead."""

from __future__ import annotations

from typing import Any

import pytest
from server_helpers import ThreadServer


def bot_table(agent: str) -> dict[str, Any]:
    return {
        "game": "eternity",
        "players": 3,
        "seats": [{"kind": "human"}, {"kind": "bot", "agent": agent}, {"kind": "bot"}],
    }


@pytest.mark.parametrize(
    "agent",
    [
        "ismcts:seconds=nan",
        "ismcts:seconds=inf",
        "ismcts:c=nan",
        "ismcts:c=inf",
        "ismcts:trust=nan",
        "ismcts:iterations=0",
        "heuristic:risk=nan",
    ],
)
def test_specs_without_bounds_are_refused(server: ThreadServer, agent: str) -> None:
    response = server.http.post("/api/tables", json=bot_table(agent))
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "bad_agent"
    assert agent.split(":")[1].split("=")[0] in error["message"]
