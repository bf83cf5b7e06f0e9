"""Engine fuzzing: many seeded bot deals with illegal and garbage moves tried in between.

Run with `python -m tools.fuzz [--deals N] [--seed S] [--jobs J]` from the repository root.
Deal number i of a run seeded S is the same whatever `--jobs` is, so `--deal i` plays just that
one again. The command prints the figures and every finding (grouped, with a short reproducer)
and exits 1 when there are findings, 0 otherwise.

Each deal gets its own player count (2 to 5, in turn) and rule variant picked from the seed:
jokers, packs, hand sizes, card values, the all-joker and end-condition house rules, the dealer
system, a given or drawn dealer, and a bot per seat. Before most bot moves a few tries are pushed:

- illegal but well-formed moves: random melds from the hand, melds and lay-offs of cards the
  player does not hold (another seat's, say), too few cards, melds of jokers only, lay-offs and
  swaps on random or non-existent meld numbers, jokers with random notes, a joker offered in a
  swap, `end_turn` before any action, `game` with cards in hand, `dead` when a play exists, the
  bot's own move for another seat, and moves after the deal is over;
- garbage: values that are not moves, melds holding `None`, text or numbers instead of cards,
  lay-offs and swaps on text, float, bool, `None`, negative or huge meld numbers, the player
  argument as text, float, bool or an unknown seat, and move text for `parse_move` (digits of
  other scripts, signs, decimals, unknown cards, missing or extra parts);
- now and then an entry of `legal_moves`, which must be accepted.

The contract for malformed input (the shared brief of issue 8) is what a try is judged by: a
well-formed move the rules forbid is refused with `IllegalMove` naming a rule of the rule book;
a value of the wrong type with a `TypeError` that the engine raises itself (not one from deep
inside, such as a failed comparison); text that cannot be read with `CardParseError`; and the
deal is unchanged, compared field by field (`snapshot`). A well-formed try that turns out legal
is pushed, checked and taken back.

At the end of each deal: every card dealt is in a hand or on the table, every table meld is
legal (checked by hand here and by the engine's own reading), the statuses, the way the deal
ended, the scores and the winners agree with the hands and the rule book, the record replays to
the same state (`loads(dumps(deal))`: `to_record` as JSON, replayed by `from_record`), and
`pop()` walks back to the start, matching the state recorded at every ply and then a fresh deal
with the same seed.

The package's parts, each importing only those above it:

- `state`: the state of a deal field by field (`DealState`, `snapshot`) and the rule variants;
- `tries`: garbage helpers and the tries (`FakeMove`, `raw_move`, `render`, `TryMaker`);
- `contract`: what a refused push may raise and say (`judge_refusal`);
- `report`: findings, the figures of a run, the deal being fuzzed (`FuzzRun`), reproducers;
- `oracles`: each try judged, the checks after each ply and at the end of a deal;
- `run`: one deal played by its bots (`play`, `fuzz_deal`) and many deals (`fuzz`);
- `cli`: the command (`main`), which `python -m tools.fuzz` runs.

The names the tests and the reproducers use are importable from `tools.fuzz` itself.
"""

from tools.fuzz.cli import main
from tools.fuzz.contract import ALLOWED_ERRORS, deliberate, judge_refusal, outcome, where
from tools.fuzz.oracles import (
    end_checks,
    meld_problem,
    ply_checks,
    record_checks,
    run_try,
    walk_back,
)
from tools.fuzz.report import (
    EXAMPLES,
    KINDS,
    REPRODUCE_BUDGET,
    Finding,
    FuzzReport,
    FuzzRun,
    namespace,
    reproducer,
)
from tools.fuzz.run import (
    CHUNK,
    GARBAGE_SHARE,
    LISTED_RATE,
    MAX_MOVES,
    MAX_TRIES,
    TRY_RATE,
    fuzz,
    fuzz_deal,
    play,
)
from tools.fuzz.state import (
    DEFAULT_RULES,
    DealState,
    Variant,
    new_deal,
    replay,
    snapshot,
    state_diff,
    variant_for,
)
from tools.fuzz.tries import (
    LISTED_SAMPLE,
    FakeMove,
    Try,
    TryMaker,
    raw_move,
    render,
    seat_type_ok,
    well_formed,
    well_formed_try,
)

__all__ = [
    "ALLOWED_ERRORS",
    "CHUNK",
    "DEFAULT_RULES",
    "EXAMPLES",
    "GARBAGE_SHARE",
    "KINDS",
    "LISTED_RATE",
    "LISTED_SAMPLE",
    "MAX_MOVES",
    "MAX_TRIES",
    "REPRODUCE_BUDGET",
    "TRY_RATE",
    "DealState",
    "FakeMove",
    "Finding",
    "FuzzReport",
    "FuzzRun",
    "Try",
    "TryMaker",
    "Variant",
    "deliberate",
    "end_checks",
    "fuzz",
    "fuzz_deal",
    "judge_refusal",
    "main",
    "meld_problem",
    "namespace",
    "new_deal",
    "outcome",
    "play",
    "ply_checks",
    "raw_move",
    "record_checks",
    "render",
    "replay",
    "reproducer",
    "run_try",
    "seat_type_ok",
    "snapshot",
    "state_diff",
    "variant_for",
    "walk_back",
    "well_formed",
    "well_formed_try",
    "where",
]
