"""Speed of a progress write on the Python side: the stored text in, one update applied, the
text to store out, for a learner who has done much (every lesson opened, every quiz scored,
many puzzles solved, deals played).

Two figures: the course layer alone (`penang_lib.course.progress.apply`: read, check, apply,
write), and the whole of what the `Progress` widget does when the page sends the stored text
(its message handler, with the reply captured instead of sent). Goal: median under 50 ms. The
browser's own work (localStorage, the message's trip) is not counted.

Run with `python -m benchmarks.bench_progress` from the repository root.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from benchmarks.bench_deadwood import percentile
from penang_lib.course import progress as pg
from penang_lib.site.serve import catalogue
from penang_lib.widgets.progress import Progress


def full_progress(puzzles: int) -> str:
    """The stored text of a learner who opened every lesson, scored every quiz and solved
    `puzzles` puzzles."""
    files = [lesson["file"] for lesson in catalogue()]
    kept = pg.Kept(
        lessons=tuple(files),
        quizzes={file: pg.QuizScore(2, 5) for file in files},
        puzzles=tuple(f"lay-off-{n:04d}" for n in range(puzzles)),
        played=40,
        won=9,
        last=files[-1],
    )
    return pg.write(kept)


def _timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return (time.perf_counter() - start) * 1000


def time_apply(text: str, runs: int) -> list[float]:
    """Milliseconds per `apply` of a better quiz score and a new puzzle to `text`."""
    updates: list[pg.Update] = [
        pg.QuizScored("02_melds.ipynb", 4, 5),
        pg.PuzzleSolved("swap-9999"),
    ]
    return [_timed(lambda: pg.apply(text, updates)) for _ in range(runs)]


def time_widget(text: str, runs: int) -> list[float]:
    """Milliseconds for the widget to take in the stored text, apply its pending updates (the
    lesson opened and a quiz score) and hand back the text to store."""
    times = []
    stored = {"kind": "stored", "text": text, "blocked": False}
    message = {"content": {"data": {"method": "custom", "content": stored}}, "buffers": []}
    for _ in range(runs):
        widget = Progress.for_page("02_melds.ipynb")
        widget.record(pg.QuizScored("02_melds.ipynb", 4, 5))
        out: list[Any] = []

        def capture(content: Any, buffers: Any = None, out: list[Any] = out) -> None:
            out.append(content)

        widget.send = capture
        times.append(_timed(partial(widget._handle_msg, message)))
        assert out and out[0]["kind"] == "store", "the widget should have sent the text to store"
    return times


def _line(what: str, times: list[float]) -> str:
    times = sorted(times)
    return (
        f"{what}: {len(times)} writes, median {statistics.median(times):.2f} ms, "
        f"p95 {percentile(times, 0.95):.2f} ms, max {times[-1]:.2f} ms"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Progress write speed (Python side).")
    parser.add_argument("--runs", type=int, default=300, help="writes to time")
    parser.add_argument("--puzzles", type=int, default=2000, help="puzzles solved in the text")
    args = parser.parse_args(argv)
    text = full_progress(args.puzzles)
    print(f"Stored text: {len(text):,} characters ({args.puzzles} puzzles solved).")
    print(_line("progress.apply (goal: median under 50 ms)", time_apply(text, args.runs)))
    print(_line("Progress widget message (goal: median under 50 ms)", time_widget(text, args.runs)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
