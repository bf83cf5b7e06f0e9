"""Every benchmark: `python -m benchmarks` (also `make bench`).

Runs `bench_deals` (deals per second with bots) and, when present, `bench_deadwood`
(`least_deadwood` timings). Figures only: no benchmark asserts a time.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

MODULES = ("benchmarks.bench_engine", "benchmarks.bench_deals", "benchmarks.bench_deadwood")


def main() -> int:
    status = 0
    for name in MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name not in (name, "penang_lib.deadwood"):
                raise
            print(f"({name} is not there yet: skipped)\n")
            continue
        run: Callable[..., int | None] | None = getattr(module, "main", None)
        if run is None:
            print(f"({name} has no main(): skipped)\n")
            continue
        print(f"== {name}")
        status = max(status, run([]) or 0)
        print()
    return status


if __name__ == "__main__":
    raise SystemExit(main())
