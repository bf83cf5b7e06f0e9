"""The `penang-rummy` command.

`penang-rummy check "5H 6H JK"` prints the verdict sentence; exit 0 when the meld is legal, 1 when
it is not, 2 on bad input (one line on stderr, no traceback).

`penang-rummy deal --seed S [--players N] [--bots careful,greedy,...] [--json]` lets bots play one
deal and prints it turn by turn, each event with its explanation (or, with `--json`, the deal's
record). `penang-rummy deal --shows swap,dead.passport,game` finds the first seed whose deal
shows those rules. `penang-rummy simulate --deals N [...]` plays many deals and prints a summary.
`penang-rummy tournament --bots careful,greedy,greedy,greedy --deals N [--seed S] [--json]` plays
duplicate deals (each seed once per rotation of the bots over the seats) and prints each bot's
results with a 95% interval.
`penang-rummy puzzles --mine N --seed S --out FILE` mines N puzzles from bot deals, each proved
by the engine, writes them as JSON and prints how many there are of each kind and rule.
Bad arguments: one line on stderr and exit 2, never a traceback. Numbers are written in the digits
0-9; a seed is from 0 to 2**63 - 1 (for `simulate`, small enough that every deal's own seed is
too); `--jobs` beyond the machine's cores is bounded to them, with one line saying so.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from penang_lib import __version__
from penang_lib.engine.checks import Verdict, check_lay_off, check_meld, check_swap
from penang_lib.engine.compiled import engine_runs
from penang_lib.engine.moves import IllegalMove
from penang_lib.engine.validate import MAX_SEED, ArgumentTypeError, cut

if TYPE_CHECKING:  # the deal, simulate and showcase modules load when a command needs them
    from penang_lib.engine.deal import Deal

EXIT_OK, EXIT_ILLEGAL, EXIT_USAGE = 0, 1, 2
EXIT_INTERRUPTED = 130
DEFAULT_LIMIT = 20_000
"""Seeds `deal --shows` tries when no --limit is given."""


def _one_line(message: object) -> str:
    """A message as the one line the command writes on stderr."""
    return " ".join(str(message).split())


class _Parser(argparse.ArgumentParser):
    """argparse that reports bad arguments as one line and exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"penang-rummy: {_one_line(message)}\n")


def _check(args: argparse.Namespace) -> int:
    if args.swap and args.on is None:
        raise _UsageError("--swap checks a joker swap on a table meld: give the meld with --on too")
    cards = " ".join(args.cards)
    if args.on is None:
        verdict = check_meld(cards)
    else:
        check: Callable[[str, str], Verdict] = check_swap if args.swap else check_lay_off
        verdict = check(args.on, cards)
    print(f"{verdict} (rule {verdict.rule})")
    return EXIT_OK if verdict else EXIT_ILLEGAL


# -- argument types: a bad value is one line and exit 2 ------------------------------------------
def _players(text: str) -> int:
    from penang_lib.engine.rules import Rules

    number = _int(text)
    try:
        Rules().require_players(number)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return number


MAX_DIGITS = 30
"""A whole number on the command line has at most this many digits."""


def _int(text: str) -> int:
    """A whole number written in the digits 0-9 (an optional sign; no other script's digits)."""
    body = text.strip()
    digits = body[1:] if body[:1] in "+-" else body
    if not (digits.isascii() and digits.isdigit()):
        raise argparse.ArgumentTypeError(
            f"{cut(text)!r} is not a whole number (write it in the digits 0-9)"
        )
    if len(digits) > MAX_DIGITS:
        raise argparse.ArgumentTypeError(f"{cut(text)} is far too large a number here")
    return int(body)


def _at_least(least: int, most: int | None = None) -> Callable[[str], int]:
    def parse(text: str) -> int:
        number = _int(text)
        if number < least:
            raise argparse.ArgumentTypeError(f"{number} is too small: give {least} or more")
        if most is not None and number > most:
            raise argparse.ArgumentTypeError(f"{number:,} is too large: give at most {most:,}")
        return number

    return parse


def _seed(text: str) -> int:
    number = _int(text)
    if not 0 <= number <= MAX_SEED:
        raise argparse.ArgumentTypeError(
            f"a seed is a whole number from 0 to {MAX_SEED} (2**63 - 1), not {cut(text)}"
        )
    return number


def _deals(text: str) -> int:
    from penang_lib.data.simulate import MAX_DEALS

    return _at_least(1, MAX_DEALS)(text)


def _usable_jobs(asked: int) -> int:
    """The worker processes to use for `--jobs asked`: at most one per core, said on stderr
    when fewer than asked."""
    from penang_lib.data.simulate import usable_jobs

    jobs = usable_jobs(asked)
    if jobs < asked:
        print(
            f"penang-rummy: --jobs {asked:,} is more than the {jobs} cores of this machine: "
            f"using {jobs} worker process{'es' if jobs != 1 else ''}",
            file=sys.stderr,
        )
    return jobs


def _seconds(text: str, what: str, zero: bool) -> float:
    """A number of seconds up to 60, above 0 (or from 0 when `zero`), read from `text`."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = float("nan")
    low_ok = seconds >= 0 if zero else seconds > 0  # NaN fails both
    if not (low_ok and seconds <= 60):
        bounds = "from 0 to 60" if zero else "above 0 and at most 60"
        raise argparse.ArgumentTypeError(f"{what} is a number of seconds {bounds}, not {cut(text)}")
    return seconds


def _budget(text: str) -> float:
    return _seconds(text, "a budget", zero=False)


def _pause(text: str) -> float:
    return _seconds(text, "a pause", zero=True)


def _limit(text: str) -> int:
    from penang_lib.engine.showcase import MAX_LIMIT

    return _at_least(1, MAX_LIMIT)(text)


def _bots(text: str) -> tuple[str, ...]:
    from penang_lib.engine.bots import bot_names
    from penang_lib.engine.rules import MAX_PLAYERS

    names = [name.strip().lower() for name in text.split(",")]
    try:
        bot_names(names, 1)  # every name is a bot's
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    if len(names) > MAX_PLAYERS:
        raise argparse.ArgumentTypeError(
            f"name at most {MAX_PLAYERS} bots, one per seat, not {len(names)}"
        )
    return tuple(names)


def _rule_ids(text: str) -> list[str]:
    from penang_lib.engine.showcase import require_rule_ids

    try:
        return require_rule_ids(text.split(","))
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


# -- deal ----------------------------------------------------------------------------------------
def transcript(deal: Deal, whys: Sequence[str] = (), bots: Sequence[str] = ()) -> list[str]:
    """A deal turn by turn: each move (with the bot's reason, when given) and the explanation of
    each event it caused, marked with its rule id."""
    from penang_lib.engine.explain import explain

    names = deal.names
    seats = ", ".join(f"{names[p]} ({bots[p]})" if bots else names[p] for p in range(deal.players))
    lines = [f"Deal seed {deal.seed}, {deal.players} players: {seats}."]
    lines.extend(f"  [{e.rule}] {explain(e, names)}" for e in deal.start_events)
    turn = 0
    new_turn = True
    for number, (move, seat, events) in enumerate(
        zip(deal.move_stack, deal.movers, deal.event_stack, strict=True)
    ):
        if new_turn:
            turn += 1
            bot = f" ({bots[seat]})" if bots else ""
            lines.append("")
            lines.append(f"Turn {turn}: {names[seat]}{bot}")
        why = f"  ({whys[number]})" if number < len(whys) else ""
        lines.append(f"  {names[seat]}: {move.label()}{why}")
        lines.extend(f"    [{e.rule}] {explain(e, names)}" for e in events)
        new_turn = move.type in ("end_turn", "dead")
    return lines


def _deal(args: argparse.Namespace) -> int:
    from penang_lib.engine.bots import bot_names, play_deal_explained
    from penang_lib.engine.record import dumps
    from penang_lib.engine.showcase import SHOWCASE_BOTS, find_deal

    if args.limit is not None and not args.shows:
        raise _UsageError("--limit says how many seeds --shows tries: give --shows too")
    limit = DEFAULT_LIMIT if args.limit is None else args.limit
    default = SHOWCASE_BOTS if args.shows else None
    bots = bot_names(args.bots or default, args.players)
    seed = args.seed if args.seed is not None else 0
    if args.shows:
        if seed + limit - 1 > MAX_SEED:
            raise _UsageError(
                f"--seed {seed} with --limit {limit} would try seeds past {MAX_SEED} (2**63 - 1): "
                "give a smaller --seed or --limit"
            )
        found = find_deal(args.shows, args.players, bots, start_seed=seed, limit=limit)
        if found is None:
            print(
                f"penang-rummy: no deal from seed {seed} to {seed + limit - 1} shows "
                f"{', '.join(args.shows)}; try a larger --limit or another --seed",
                file=sys.stderr,
            )
            return EXIT_ILLEGAL
        seed = found.seed
        if not args.json:
            print(f"Seed {seed} shows {', '.join(args.shows)}.")
    deal, choices = play_deal_explained(seed, args.players, bots)
    if args.json:
        print(dumps(deal))
    else:
        print("\n".join(transcript(deal, [c.why for c in choices], bots)))
    return EXIT_OK


# -- simulate ------------------------------------------------------------------------------------
def _simulate(args: argparse.Namespace) -> int:
    from penang_lib.data.simulate import max_run_seed, simulate, summary
    from penang_lib.engine.bots import bot_names

    bots = bot_names(args.bots, args.players)
    top = max_run_seed(args.deals)
    if args.seed > top:
        raise _UsageError(
            f"--seed {cut(str(args.seed))} is too large for {args.deals:,} deals: deal i is "
            f"dealt with seed x 1,000,003 + i, which must stay below 2**63, so give a seed "
            f"from 0 to {top:,}"
        )
    jobs = _usable_jobs(args.jobs)
    start = time.perf_counter()
    frame = simulate(
        args.deals, args.players, bots, seed=args.seed, jobs=jobs, progress=args.progress
    )
    seconds = time.perf_counter() - start
    if args.csv:
        try:
            frame.to_csv(args.csv, index=False)
        except (OSError, ValueError) as error:
            reason = getattr(error, "strerror", None) or error
            raise _UsageError(f"cannot write {cut(args.csv)}: {reason}") from None
    result = summary(frame)
    out: dict[str, Any] = {
        "deals": result["deals"],
        "players": args.players,
        "seats": list(bots),
        "seed": args.seed,
        "jobs": jobs,
        "seconds": round(seconds, 3),
        "deals_per_second": round(args.deals / seconds, 1) if seconds else None,
        **{k: v for k, v in result.items() if k != "deals"},
    }
    if args.json:
        print(json.dumps(out, indent=2))
        return EXIT_OK
    print(
        f"{out['deals']} deals, {args.players} players ({', '.join(bots)}), seed {args.seed}: "
        f"{seconds:.2f} s, {out['deals_per_second']} deals/s"
    )
    print(f"  passport failures  {result['passport_failure_rate']:7.2%} of players")
    print(f"  nobody went out    {result['nobody_out_rate']:7.2%} of deals")
    print(f"  mean turns         {result['mean_turns']:7.1f} per deal")
    print(f"  {'bot':<9} {'seats':>6} {'win rate':>9} {'mean count':>11}")
    for name, row in result["bots"].items():
        print(f"  {name:<9} {row['seats']:>6} {row['win_rate']:>9.1%} {row['mean_count']:>11.1f}")
    if args.csv:
        print(f"  rows written to {args.csv}")
    return EXIT_OK


# -- tournament ----------------------------------------------------------------------------------
def _tournament(args: argparse.Namespace) -> int:
    from tqdm import tqdm  # type: ignore[import-untyped]

    from penang_lib.engine.tournament import tournament

    players = len(args.bots)
    if players < 2:
        raise _UsageError(
            "--bots names one bot per seat: at least 2 of them, such as careful,greedy"
        )
    if args.budget is not None and "expert" not in args.bots:
        raise _UsageError("--budget is the expert's time per move: put expert in --bots")
    jobs = _usable_jobs(args.jobs)
    games = args.deals * players
    show = args.progress if args.progress is not None else games >= 200
    start = time.perf_counter()
    with tqdm(total=games, unit="deal", disable=not show, file=sys.stderr) as bar:
        result = tournament(
            args.bots,
            args.deals,
            seed=args.seed,
            progress=bar.update,
            budget=args.budget,
            jobs=jobs,
        )
    seconds = time.perf_counter() - start
    report = {**result.as_dict(), "seconds": round(seconds, 3)}
    if "expert" in args.bots:
        from penang_lib.engine.expert import DEFAULT_BUDGET

        report["budget"] = DEFAULT_BUDGET if args.budget is None else args.budget
    if args.json:
        print(json.dumps(report, indent=2))
        return EXIT_OK
    print(
        f"{args.deals:,} duplicate deals (seeds {args.seed} to {args.seed + args.deals - 1}), "
        f"each played {players} times, once per rotation of {', '.join(args.bots)} over the "
        f"seats: {result.games:,} deals in {seconds:.1f} s"
    )
    print(
        f"  {'bot':<9} {'seats':>6} {'won':>6} {'mean count':>10} {'vs field':>8} "
        f"{'95% interval':>17} {'passport':>8} {'died':>6} {'ms/move p50':>11} {'p95':>8} "
        f"{'max':>8}"
    )
    for standing in result.standings.values():
        row = standing.as_dict()
        low, high = row["interval_95"] or (float("nan"), float("nan"))
        times = row["seconds_per_move"]
        print(
            f"  {standing.name:<9} {standing.seats:>6} {row['win_rate']:>6.1%} "
            f"{row['mean_count']:>10.1f} {row['mean_difference']:>+8.2f} "
            f"[{low:>+7.2f}, {high:>+7.2f}] {row['passport_failure_rate']:>8.1%} "
            f"{row['death_rate']:>6.1%} {1000 * times['median']:>11.2f} "
            f"{1000 * times['p95']:>8.2f} {1000 * times['max']:>8.2f}"
        )
    print(
        "  won: deals won, a tie shared; vs field: its count minus the mean of the others' at "
        "the same table (lower is better), with a 95% interval over seeds"
    )
    return EXIT_OK


# -- puzzles -------------------------------------------------------------------------------------
def _puzzle_count(text: str) -> int:
    from penang_lib.course.mining import MAX_COUNT

    return _at_least(1, MAX_COUNT)(text)


def _strategy_count(text: str) -> int:
    from penang_lib.course.mining import MAX_COUNT

    return _at_least(0, MAX_COUNT)(text)


def _puzzles(args: argparse.Namespace) -> int:
    from pathlib import Path

    from penang_lib.course.mining import coverage, mine
    from penang_lib.course.puzzles import puzzles_to_json
    from penang_lib.engine.bots import bot_names

    folder = Path(args.out).parent
    if not folder.is_dir():
        raise _UsageError(f"cannot write {cut(args.out)}: there is no folder {cut(str(folder))}")
    bots = bot_names(args.bots, args.players) if args.bots else None
    start = time.perf_counter()
    found = mine(
        args.mine, args.seed, args.players, bots, progress=args.progress, strategy=args.strategy
    )
    seconds = time.perf_counter() - start
    command = f"penang-rummy puzzles --mine {args.mine} --seed {args.seed}"
    if args.strategy:
        command += f" --strategy {args.strategy}"
    if args.players != 4:
        command += f" --players {args.players}"
    if args.bots:
        command += f" --bots {','.join(args.bots)}"
    try:
        Path(args.out).write_text(puzzles_to_json(found, note=command), encoding="utf-8")
    except OSError as error:
        raise _UsageError(f"cannot write {cut(args.out)}: {error.strerror or error}") from None
    print(f"{len(found)} puzzles mined from seed {args.seed} in {seconds:.1f} s: {args.out}")
    print("  by kind: " + ", ".join(f"{kind} {n}" for kind, n in coverage(found).items()))
    rules: dict[str, int] = {}
    for puzzle in found:
        for rule in puzzle.rules:
            rules[rule] = rules.get(rule, 0) + 1
    print("  by rule: " + ", ".join(f"{rule} {n}" for rule, n in rules.items()))
    asked = args.mine + args.strategy
    if len(found) < asked:
        print(
            f"penang-rummy: only {len(found)} of the {asked} puzzles asked for were found; "
            "try another --seed",
            file=sys.stderr,
        )
    return EXIT_OK


class _UsageError(Exception):
    """A bad argument found after parsing: one line on stderr, exit 2."""


def _port(text: str) -> int:
    port = _int(text)
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a number from 1 to 65535, not {text}")
    return port


def _serve(args: argparse.Namespace) -> int:
    from penang_lib.site.serve import class_lessons, normal_base_url, serve

    try:  # a bad prefix or lesson name is a usage error, said before Voila starts
        normal_base_url(args.base_url)
        if args.class_size:
            class_lessons(args.lesson)
        elif args.lesson:
            raise ValueError("--lesson says which lesson a class opens: give --class N too")
    except ValueError as error:
        raise _UsageError(str(error)) from None
    serve(
        port=args.port,
        ip=args.ip,
        open_browser=args.open_browser,
        pool=args.pool,
        base_url=args.base_url,
        class_size=args.class_size,
        lessons=args.lesson,
        bot_pause=args.bot_pause,
        tables_journal=args.tables_journal,
    )
    return EXIT_OK  # pragma: no cover - serve replaces this process


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="penang-rummy", description="Penang Rummy (Si Rummy): rules, deals and bots."
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"penang-rummy {__version__}, engine {engine_runs()}",
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    check = sub.add_parser(
        "check",
        help="is this a legal meld (or lay-off / swap)? exit 0 yes, 1 no, 2 bad input",
        description='Check a meld: penang-rummy check "5H 6H JK". With --on MELD, check laying '
        "off one card on that table meld (or, with --swap, swapping it for a joker).",
    )
    check.add_argument("cards", nargs="+", help="cards in the notation, e.g. 5H 6H JK")
    check.add_argument("--on", metavar="MELD", help="a table meld, e.g. '5H 6H JK@7H'")
    check.add_argument("--swap", action="store_true", help="with --on: check a joker swap")
    check.set_defaults(run=_check)

    bots_help = "bot names cycled to the seats: careful, greedy, random (default careful)"
    deal_bots_help = (
        "bot names cycled to the seats: careful, greedy, random (default careful; with --shows "
        "careful,greedy,careful,random)"
    )
    deal = sub.add_parser(
        "deal",
        help="let bots play one deal and print it turn by turn (or as a JSON record)",
        description="Let bots play one seeded deal and print every move with the explanation "
        "of what happened and which rule made it so. With --shows, search seeds for the first "
        "deal whose events show all the given rule ids.",
    )
    deal.add_argument(
        "--seed",
        type=_seed,
        help="the deal's seed, 0 to 2**63 - 1, default 0 (with --shows: the first seed tried)",
    )
    deal.add_argument("--players", type=_players, default=4, help="2 to 5 (default 4)")
    deal.add_argument("--bots", type=_bots, default=None, help=deal_bots_help)
    deal.add_argument("--json", action="store_true", help="print the deal's JSON record")
    deal.add_argument(
        "--shows", type=_rule_ids, metavar="RULES", help="rule ids, e.g. swap,dead.passport,game"
    )
    deal.add_argument(
        "--limit",
        type=_limit,
        default=None,
        help="with --shows: seeds to try, at most 1,000,000 (default 20000; deals ruled out by "
        "the dealt hands alone are skipped quickly)",
    )
    deal.set_defaults(run=_deal)

    simulate = sub.add_parser(
        "simulate",
        help="let bots play many deals and print a summary",
        description="Play many seeded deals with bots and print what happened: passport "
        "failures, deals nobody went out of, turns, and each bot's win rate and mean count.",
    )
    simulate.add_argument(
        "--deals", type=_deals, required=True, help="how many deals (1 to 10,000,000)"
    )
    simulate.add_argument("--players", type=_players, default=4, help="2 to 5 (default 4)")
    simulate.add_argument("--bots", type=_bots, default=None, help=bots_help)
    simulate.add_argument(
        "--seed",
        type=_seed,
        default=0,
        help="seed of the run (default 0): deal i gets seed x 1,000,003 + i",
    )
    simulate.add_argument(
        "--jobs",
        type=_at_least(1),
        default=1,
        help="worker processes (default 1; at most one per core of this machine)",
    )
    simulate.add_argument("--json", action="store_true", help="print the summary as JSON")
    simulate.add_argument("--csv", metavar="FILE", help="also write every row to FILE")
    simulate.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="show a progress bar on stderr (default: for 200 deals or more)",
    )
    simulate.set_defaults(run=_simulate)

    tour = sub.add_parser(
        "tournament",
        help="measure bots against each other in duplicate deals",
        description="Play each seed once per rotation of the bots over the seats, so that "
        "every bot meets the same cards in every seat, and print per bot: deals won, mean "
        "count, mean count difference against the field with a 95%% interval, passport "
        "failures, deaths and time per move.",
    )
    tour.add_argument(
        "--bots",
        type=_bots,
        required=True,
        help="one bot per seat, 2 to 5, comma-separated, e.g. careful,greedy,greedy,greedy",
    )
    tour.add_argument(
        "--deals", type=_deals, required=True, help="how many seeds, each played once per seat"
    )
    tour.add_argument("--seed", type=_seed, default=0, help="the first seed (default 0)")
    tour.add_argument(
        "--budget",
        type=_budget,
        default=None,
        help="the expert's seconds of thought per move (default 0.25)",
    )
    tour.add_argument(
        "--jobs",
        type=_at_least(1),
        default=1,
        help="worker processes playing seeds side by side (default 1; at most one per core of "
        "this machine; the results are the same for any number)",
    )
    tour.add_argument("--json", action="store_true", help="print the results as JSON")
    tour.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="show a progress bar on stderr (default: for 200 deals or more)",
    )
    tour.set_defaults(run=_tournament)

    from penang_lib.course.puzzles.model import EXACT_KINDS, PUZZLE_KINDS

    puzzles = sub.add_parser(
        "puzzles",
        help="mine puzzles from bot deals, each proved by the engine, and write them as JSON",
        description="Let bots play seeded deals and keep the positions with exactly one right "
        f"answer ({', '.join(EXACT_KINDS)}), each proved by searching every legal move; with "
        "--strategy, also positions where the expert bot finds one start of the turn clearly "
        f"best ({PUZZLE_KINDS[-1]}), proved by weighing each start on deals drawn from a seed "
        "fixed by the position. Prints how many puzzles there are of each kind and rule.",
    )
    puzzles.add_argument(
        "--mine", type=_puzzle_count, required=True, metavar="N", help="how many (1 to 1,000)"
    )
    puzzles.add_argument(
        "--seed",
        type=_seed,
        default=0,
        help="seed of the run (default 0): deal i gets seed x 1,000,003 + i",
    )
    puzzles.add_argument(
        "--strategy",
        type=_strategy_count,
        default=0,
        metavar="N",
        help="how many strategy puzzles to add, weighed by the expert bot (default 0; about a "
        "second for each position weighed)",
    )
    puzzles.add_argument("--out", required=True, metavar="FILE", help="the JSON file to write")
    puzzles.add_argument("--players", type=_players, default=4, help="2 to 5 (default 4)")
    puzzles.add_argument(
        "--bots",
        type=_bots,
        default=None,
        help="bot names cycled to the seats (default: a cycle of careful, greedy and random mixes)",
    )
    puzzles.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="show a progress bar on stderr (default: yes)",
    )
    puzzles.set_defaults(run=_puzzles)

    serve = sub.add_parser(
        "serve",
        help="serve the lessons as a tutorial site (Voila)",
        description="Serve the published lessons (notebooks/lessons) as a tutorial site with "
        "Voila, on this machine only unless --ip is given. The settings are the project's own "
        "(penang_lib/site/settings.py and its template).",
    )
    serve.add_argument(
        "--port", type=_port, default=8866, help="the port to listen on (default 8866)"
    )
    serve.add_argument(
        "--ip", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)"
    )
    browser = serve.add_mutually_exclusive_group()
    browser.add_argument(
        "--open", dest="open_browser", action="store_true", help="open a browser on the site"
    )
    browser.add_argument(
        "--no-browser",
        dest="open_browser",
        action="store_false",
        help="do not open a browser (the default)",
    )
    serve.add_argument(
        "--pool",
        type=_at_least(0),
        default=None,
        help="kernels kept ready per lesson (default 1; 0 starts each on request)",
    )
    serve.add_argument(
        "--class",
        dest="class_size",
        type=_at_least(1),
        default=None,
        metavar="N",
        help="a class of N learners arrives at once: keep N kernels ready for the class's "
        "lesson (see --lesson) and print the memory that costs",
    )
    serve.add_argument(
        "--lesson",
        action="append",
        default=None,
        metavar="FILE",
        help="with --class: the lesson the class opens, e.g. 07_whole_deal.ipynb (repeat for "
        "more; default the first lesson)",
    )
    serve.add_argument(
        "--base-url",
        default="/",
        metavar="PREFIX",
        help="serve under this path, e.g. /penang/ behind a proxy (default /)",
    )
    serve.add_argument(
        "--bot-pause",
        type=_pause,
        default=None,
        metavar="SECONDS",
        help="at the tables where people play together, the pause before each bot move "
        "(default 1; 0 for tests)",
    )
    serve.add_argument(
        "--tables-journal",
        default=None,
        metavar="FILE",
        help="the SQLite file the tables are kept in (default: tables.sqlite in the kit's "
        "folder of Jupyter's data folder)",
    )
    serve.set_defaults(run=_serve, open_browser=False)
    return parser


def _readable_output() -> None:
    """On a terminal that cannot show suit symbols (an ASCII locale), write them escaped rather
    than fail: the command's output never ends in an encoding error."""
    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None) or "ascii"
        try:
            "♥🃏".encode(encoding)
        except (UnicodeEncodeError, LookupError):
            reconfigure = getattr(stream, "reconfigure", None)
            if reconfigure is not None:
                reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    _readable_output()
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.run(args)
        sys.stdout.flush()
    except IllegalMove:
        raise  # a bot or the engine broke a rule: a bug to see in full, not bad input
    except (ValueError, ArgumentTypeError, _UsageError) as error:
        # Bad input: the engine's refusals (CardParseError too) are one plain sentence.
        print(f"penang-rummy: {_one_line(error)}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("penang-rummy: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (`penang-rummy deal | head`): stop quietly, as other tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    return status
