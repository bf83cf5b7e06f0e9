"""Speed of the puzzles: `judge` over the shipped set, and mining a set from bot deals.

`judge` is timed on every answer of every shipped puzzle and on some wrong moves of each (a legal
move that is not an answer where there is one, a refused lay-off or meld, End turn): first on
puzzles fresh from the JSON (the first verdict works out what each answer does, and why), then
again on the same puzzles. Goal of issue 21: a median well under 50 ms. Mining 60 puzzles (the
shipped set's size) should take well under 5 minutes on 2 cores.

Run with `python -m benchmarks.bench_puzzles [--mine-count N]` from the repository root.
"""

from __future__ import annotations

import argparse
import statistics
import time
from importlib.resources import files

from benchmarks.bench_deadwood import percentile
from penang_lib.course.mining import coverage, mine
from penang_lib.course.puzzles import Puzzle, judge, puzzles_from_json
from penang_lib.engine.moves import EndTurn, LayOff, MeldMove, Move


def _wrong_moves(puzzle: Puzzle) -> list[Move]:
    """A few moves that are not answers: a legal one where there is one, then refused ones."""
    deal = puzzle.position()
    legal = next((m for m in deal.legal_moves if m not in puzzle.answers), None)
    hand = deal.hand()
    moves: list[Move] = [] if legal is None else [legal]
    if deal.table:
        moves.append(LayOff(len(deal.table) - 1, hand[0]))
    moves.append(MeldMove(tuple(hand[:3])))
    moves.append(EndTurn())
    return moves


def time_judge(puzzles: list[Puzzle]) -> tuple[list[float], list[float], int]:
    """Milliseconds per verdict on fresh puzzles and on the same puzzles again, and how many
    verdicts said right."""
    moves = [(p, m) for p in puzzles for m in (*p.answers, *_wrong_moves(p))]
    first: list[float] = []
    again: list[float] = []
    right = 0
    for times in (first, again):
        for puzzle, move in moves:
            start = time.perf_counter()
            verdict = judge(puzzle, move)
            times.append((time.perf_counter() - start) * 1000)
            right += verdict.right
    return first, again, right // 2


def _line(what: str, times: list[float]) -> str:
    times = sorted(times)
    return (
        f"{what}: {len(times)} verdicts, median {statistics.median(times):.2f} ms, "
        f"p95 {percentile(times, 0.95):.2f} ms, max {times[-1]:.2f} ms"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Puzzle speed: judge, and mining a set.")
    parser.add_argument("--mine-count", type=int, default=60, help="puzzles to mine (0: skip)")
    parser.add_argument("--seed", type=int, default=1, help="the mining run's seed")
    args = parser.parse_args(argv)
    path = files("penang_lib.notebooks") / "lessons" / "data" / "puzzles.json"
    text = path.read_text(encoding="utf-8")
    start = time.perf_counter()
    puzzles = puzzles_from_json(text)
    loaded = time.perf_counter() - start
    print(f"Loading the shipped set ({len(puzzles)} puzzles, each replayed): {loaded:.2f} s")
    first, again, right = time_judge(puzzles)
    answers = sum(len(p.answers) for p in puzzles)
    print(f"judge: {right} of {len(first)} verdicts right ({answers} answers)")
    print(_line("judge, first verdicts (goal: median well under 50 ms)", first))
    print(_line("judge, again", again))
    if args.mine_count > 0:
        start = time.perf_counter()
        mined = mine(args.mine_count, args.seed, progress=False)
        seconds = time.perf_counter() - start
        kinds = ", ".join(f"{k} {n}" for k, n in coverage(mined).items())
        print(
            f"mine({args.mine_count}, seed={args.seed}): {len(mined)} puzzles in {seconds:.1f} s "
            f"(goal: well under 300 s); {kinds}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
