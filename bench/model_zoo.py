"""Regenerate docs/agents.md's model-zoo table: every shipped agent measured with `eterna arena`.

    nice -n 10 .venv/bin/python bench/model_zoo.py [--games 400] [--ismcts-games 40] [--seed 1]
        [--workers 2] [--games-only vale,eternitium,eternity] [--players 3,4]
        [--write docs/agents.md]

For each game (The Vale 2p, Eternitium 2p, Eternity 4p: TABLES; `--players` names other
counts) it plays, with the arena's paired seating (every agent in every seat of every deal),
the lineups of MATCHUPS: `learned` against random, the heuristic and the default ISMCTS, and
the heuristic against random for reference; at P players the first agent meets P-1 copies of
the other (`learned,heuristic,heuristic` at 3).
It prints the table (win rate of the first agent with its 95% Wilson interval, parity, CPU
seconds per decision of each agent) and, with --write, replaces the text between the markers
`<!-- zoo:start -->` and `<!-- zoo:end -->` of that file: the rows it measured replace the
rows of the same game and lineup, the others stay (so `--matchups` and `--games-only` rerun
only what is missing or stale), and the text under the table is kept. The results are a pure
function of the seed (`eterna arena GAME --agents LINE --games N --players P --seed S` replays
each row); the CPU times depend on the machine and its load.

`--weights GAME=PATH` measures exported weights (a run's `policy.npz`) as that game's `learned`
bot before they ship: they are loaded in this process, which the arena's workers inherit when
they are forked (Linux) or which plays the games itself (`--workers 1`); elsewhere the flag is
refused with more than one worker. Once the file is copied to
`src/eterna/agents/weights/GAME.npz`, `eterna arena` replays the same rows. `--rows FILE`
adds rows measured by an earlier run (its `--json`), so long matchups can be run apart and
written together (`--matchups none` plays nothing).

`--log FILE` plays the games in this process, deal by deal (both seats of a deal, so the
seating stays paired), appending each finished game to FILE (JSON lines) and skipping the
games already there: a long matchup (the learned bots against the ISMCTS, about a minute of
CPU a game) can be stopped and resumed, and `--stop-after MINUTES` starts no new deal after
that time; a row then covers the whole deals played. Every game is a pure function of its
index, so the first K deals of a `--games N` row are the games of `eterna arena ... --games
2K` (2 players).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from eterna.agents import learned
from eterna.arena.pairing import schedule
from eterna.arena.runner import ArenaSpec, _pool_context, play_match, prepare, run_arena
from eterna.arena.simulate import GameResult
from eterna.arena.stats import aggregate, timing

TABLES = {"vale": 2, "eternitium": 2, "eternity": 4}
MATCHUPS = [("learned", "random"), ("learned", "heuristic"), ("learned", "ismcts")]
MATCHUPS += [("heuristic", "random")]
START, END = "<!-- zoo:start -->", "<!-- zoo:end -->"


def logged_games(spec: ArenaSpec, log: Path, stop_at: float | None) -> list[GameResult]:
    """The arena's games through a log of finished games (JSON lines): the games already in it
    are read back, the others played in this process deal by deal (each appended as it ends),
    no new deal started after `stop_at` (time.monotonic()); the games of whole deals only."""
    key = {"game": spec.game, "lineup": ",".join(spec.lineup), "seed": spec.seed}
    done: dict[int, GameResult] = {}
    if log.exists():
        for text in log.read_text(encoding="utf-8").splitlines():
            entry = json.loads(text)
            if all(entry.get(k) == v for k, v in key.items()):
                done[entry["index"]] = GameResult(
                    index=entry["index"],
                    seed=entry["deal_seed"],
                    agents=tuple(entry["agents"]),
                    scores=tuple(entry["scores"]),
                    winners=tuple(entry["winners"]),
                    record=None,
                    cpu=tuple(entry["cpu"]),
                    choices=tuple(entry["choices"]),
                )
    matches = schedule(spec.lineup, spec.requested, spec.seed)
    results: list[GameResult] = []
    for start in range(0, len(matches), spec.players):
        deal = matches[start : start + spec.players]
        missing = [m for m in deal if m.index not in done]
        if missing and stop_at is not None and time.monotonic() >= stop_at:
            break
        for match in missing:
            r = play_match(spec.game, spec.players, spec.options, match)
            done[r.index] = r
            entry = {**key, "index": r.index, "deal_seed": r.seed, "agents": list(r.agents)}
            entry |= {"scores": list(r.scores), "winners": list(r.winners)}
            entry |= {"cpu": list(r.cpu), "choices": list(r.choices)}
            with log.open("a", encoding="utf-8") as out:
                out.write(json.dumps(entry) + "\n")
        results.extend(done[m.index] for m in deal)
    return results


def measure(
    game: str,
    first: str,
    other: str,
    games: int,
    seed: int,
    workers: int,
    log: Path | None = None,
    stop_at: float | None = None,
    players: int | None = None,
) -> dict:
    players = players or TABLES[game]
    lineup = [first] + [other] * (players - 1)
    spec = prepare(game, lineup, games, players, seed=seed)
    t0 = time.monotonic()
    results = run_arena(spec, workers=workers) if log is None else logged_games(spec, log, stop_at)
    if not results:
        raise SystemExit(f"{game} {','.join(lineup)}: no whole deal played")
    summary = aggregate(results, ratings=False)
    line = next(a for a in summary["agents"] if a["agent"] == first)
    cost = timing(results)
    return {
        "game": game,
        "players": players,
        "lineup": ",".join(lineup),
        "seed": seed,
        "games": line["games"],
        "win_rate": line["win_rate"],
        "low": line["win_rate_low"],
        "high": line["win_rate_high"],
        "parity": 1 / players,
        "cost": {k: v["seconds_per_decision"] for k, v in cost.items()},
        "wall_seconds": round(time.monotonic() - t0, 1),
    }


HEADER = [
    "| game | lineup (first agent measured) | games | first agent wins (95% Wilson CI) "
    "| parity | CPU ms / decision |",
    "| --- | --- | --- | --- | --- | --- |",
]


def row_line(r: dict) -> str:
    cost = ", ".join(f"{k} {v * 1000:.2f}" for k, v in sorted(r["cost"].items()))
    return (
        f"| {r['game']}, {r['players']}p | `{r['lineup']}` (`--seed {r['seed']}`) "
        f"| {r['games']} | **{r['win_rate']:.1%}** ({r['low']:.1%}-{r['high']:.1%}) "
        f"| {r['parity']:.0%} | {cost} |"
    )


def table(rows: list[dict]) -> str:
    return "\n".join(HEADER + [row_line(r) for r in rows])


def row_key(line: str) -> tuple[str, str]:
    """(game, lineup) of a table line: `| vale, 2p | `learned,random` (...) | ...`."""
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    return cells[0].split(",")[0], cells[1].split("`")[1]


def row_order(key: tuple[str, str]) -> tuple[int, int, int, str]:
    """The games' order, then the player count (the lineup's length), then the matchups'."""
    game, lineup = key
    names = lineup.split(",")
    pair = (names[0], names[1] if len(names) > 1 else "")
    games = list(TABLES)
    return (
        games.index(game) if game in games else len(games),
        len(names),
        MATCHUPS.index(pair) if pair in MATCHUPS else len(MATCHUPS),
        lineup,
    )


def merge(block: str, rows: list[dict]) -> str:
    """The block between the markers with `rows` in place of the rows of the same game and
    lineup, the other rows kept, in the games' and matchups' order; the text under the
    table kept as it is."""
    old = [line for line in block.splitlines() if line.startswith("| ")]
    lines = {row_key(line): line for line in old if not line.startswith(("| game ", "| ---"))}
    for r in rows:
        lines[(r["game"], r["lineup"])] = row_line(r)
    rest = [line for line in block.splitlines() if not line.startswith("|")]
    note = "\n".join(rest).strip("\n")
    body = HEADER + [lines[k] for k in sorted(lines, key=row_order)]
    return "\n".join(body) + (f"\n\n{note}" if note else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--ismcts-games", type=int, default=40, help="games against ismcts")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--games-only", default=",".join(TABLES))
    parser.add_argument(
        "--players",
        default="",
        metavar="P[,P...]",
        help="player counts to measure each game at (default: its table, TABLES)",
    )
    parser.add_argument("--matchups", default="", help="e.g. learned:random,learned:heuristic")
    parser.add_argument("--write", type=Path, default=None)
    parser.add_argument("--json", type=Path, default=None, help="also write the rows as JSON")
    parser.add_argument(
        "--rows",
        action="append",
        default=[],
        type=Path,
        metavar="JSON",
        help="rows measured earlier (a --json file) to write with this run's (repeatable)",
    )
    parser.add_argument(
        "--log",
        type=Path,
        default=None,
        metavar="JSONL",
        help="play in this process, appending each game to JSONL and skipping those in it",
    )
    parser.add_argument(
        "--stop-after",
        type=float,
        default=None,
        metavar="MINUTES",
        help="with --log: start no new deal after this many minutes (rows of the deals played)",
    )
    parser.add_argument(
        "--weights",
        action="append",
        default=[],
        metavar="GAME=PATH",
        help="measure these exported weights as GAME's learned bot (repeatable)",
    )
    args = parser.parse_args()
    for item in args.weights:
        game, _, path = item.partition("=")
        if args.workers > 1 and _pool_context().get_start_method() != "fork":
            sys.exit("--weights needs --workers 1 where the arena's workers are not forked")
        learned._SHIPPED[game] = learned.NumpyPolicy.load(Path(path))
    matchups = MATCHUPS
    if args.matchups == "none":
        matchups = []
    elif args.matchups:
        matchups = [tuple(m.split(":", 1)) for m in args.matchups.split(",")]  # type: ignore[misc]
    rows = [row for path in args.rows for row in json.loads(path.read_text(encoding="utf-8"))]
    stop_at = None if args.stop_after is None else time.monotonic() + args.stop_after * 60
    counts = [int(p) for p in args.players.split(",") if p]
    for game in args.games_only.split(","):
        for players in counts or [TABLES[game]]:
            for first, other in matchups:
                games = args.ismcts_games if "ismcts" in (first, other) else args.games
                if games <= 0:
                    continue
                row = measure(
                    game, first, other, games, args.seed, args.workers, args.log, stop_at, players
                )
                rows.append(row)
                print(json.dumps(row), file=sys.stderr, flush=True)
    text = table(rows)
    print(text)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")
    if args.write:
        doc = args.write.read_text(encoding="utf-8")
        if START not in doc or END not in doc:
            sys.exit(f"{args.write} has no {START} ... {END} markers")
        head, _, rest = doc.partition(START)
        block, _, tail = rest.partition(END)
        args.write.write_text(f"{head}{START}\n{merge(block, rows)}\n{END}{tail}", encoding="utf-8")


if __name__ == "__main__":
    main()
