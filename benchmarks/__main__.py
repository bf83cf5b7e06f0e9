"""Every benchmark: `python -m benchmarks` (also `make bench`).

Runs `bench_engine` (`can_play`, random legal play), `bench_deals` (deals per second with bots),
`bench_deadwood` (`least_deadwood` timings), `bench_widgets` (stepper steps and play actions on
the widgets' Python side), `bench_puzzles` (judging a puzzle, mining a set), `bench_review`
(reviewing a turn of the learner's deal), `bench_progress` (a progress write) and
`bench_openspiel` (deals per second against OpenSpiel's gin rummy). Figures only: no benchmark
asserts a time.
"""

from __future__ import annotations

from benchmarks import (
    bench_deadwood,
    bench_deals,
    bench_engine,
    bench_openspiel,
    bench_progress,
    bench_puzzles,
    bench_review,
    bench_widgets,
)
from penang_lib.engine.compiled import engine_runs


def main() -> int:
    print(f"The engine runs {engine_runs()}.\n")
    status = 0
    modules = (
        bench_engine,
        bench_deals,
        bench_deadwood,
        bench_widgets,
        bench_puzzles,
        bench_review,
        bench_progress,
        bench_openspiel,
    )
    for module in modules:
        print(f"== {module.__name__}")
        status = max(status, module.main([]) or 0)
        print()
    return status


if __name__ == "__main__":
    raise SystemExit(main())
