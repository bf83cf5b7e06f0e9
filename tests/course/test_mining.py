"""The miner: puzzles from bot deals, each proved by the engine, deterministic and deduplicated."""

from __future__ import annotations

import pytest

from penang_lib.course.mining import FIRST_TURN, LATER_TURN, MIXES, coverage, mine
from penang_lib.course.puzzles import (
    EXACT_KINDS,
    MAX_GAME_HAND,
    PUZZLE_KINDS,
    Puzzle,
    prove,
    solve,
)
from penang_lib.engine.bots import bot_names, play_move, seat_bots
from penang_lib.engine.deal import Deal
from penang_lib.engine.moves import MeldMove, Move
from penang_lib.engine.turn_search import TurnSearch, stuck_card
from penang_lib.engine.validate import ArgumentTypeError


@pytest.fixture(scope="module")
def mined() -> list[Puzzle]:
    return mine(12, seed=5, progress=False)


def test_a_small_run_covers_every_kind_and_proves_each(mined: list[Puzzle]) -> None:
    assert len(mined) == 12
    # Two of each exact kind are asked for; a kind that comes short is filled in by the others.
    # No strategy puzzle is mined unless asked for by number.
    kinds = coverage(mined)
    assert all(kinds[k] >= 1 for k in EXACT_KINDS) and kinds["strategy"] == 0, kinds
    assert sum(coverage(mined).values()) == 12
    assert len({p.id for p in mined}) == len(mined)
    assert mined == sorted(mined, key=lambda p: (p.difficulty, p.id))
    for puzzle in mined:
        assert prove(puzzle) is None, puzzle.id
        deal = puzzle.position()
        assert deal.turn == puzzle.seat and deal.actions == 0
        assert deal.passport[puzzle.seat] == (puzzle.kind not in FIRST_TURN)
        if puzzle.kind == "game":
            assert deal.hand_size(puzzle.seat) <= MAX_GAME_HAND
            assert puzzle.legal > 2 * len(puzzle.answers)  # most first moves fail


def test_mining_is_deterministic(mined: list[Puzzle]) -> None:
    again = mine(12, seed=5, progress=False)
    assert [p.id for p in again] == [p.id for p in mined]
    assert again == mined


def test_the_kinds_asked_for_are_the_kinds_mined() -> None:
    only = mine(3, seed=2, progress=False, kinds=("dead", "lay-off"))
    assert {p.kind for p in only} <= {"dead", "lay-off"} and len(only) == 3


def test_a_rare_kind_may_come_short_within_the_deals_allowed() -> None:
    few = mine(4, seed=2, progress=False, kinds=("passport",), max_deals=3)
    assert len(few) < 4
    assert all(p.kind == "passport" for p in few)


def test_the_positions_come_from_varied_bots() -> None:
    assert {name for mix in MIXES for name in mix} == {"careful", "greedy", "random"}
    assert set(FIRST_TURN) | set(LATER_TURN) == set(EXACT_KINDS)
    assert list(coverage([])) == list(PUZZLE_KINDS)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"count": 0, "seed": 1}, ValueError),
        ({"count": "5", "seed": 1}, ArgumentTypeError),
        ({"count": 5, "seed": 2**62}, ValueError),
        ({"count": 5, "seed": 1, "kinds": ("bluff",)}, ValueError),
        ({"count": 5, "seed": 1, "kinds": "dead"}, ArgumentTypeError),
        ({"count": 5, "seed": 1, "kinds": ("strategy",)}, ValueError),
        ({"count": 5, "seed": 1, "strategy": -1}, ValueError),
        ({"count": 5, "seed": 1, "strategy": "2"}, ArgumentTypeError),
        ({"count": 5, "seed": 1, "progress": "yes"}, ArgumentTypeError),
    ],
)
def test_bad_arguments_are_refused(kwargs: dict[str, object], error: type[Exception]) -> None:
    with pytest.raises(error):
        mine(**kwargs)  # type: ignore[arg-type]


class _PlainSearch:
    """Every order of every move, no shortcut: what the turn search must agree with."""

    def __init__(self) -> None:
        self.memo: dict[tuple[object, ...], bool] = {}

    def empties(self, deal: Deal) -> bool:
        if deal.hand_size(deal.turn) == 0:
            return True
        key = (deal.hands[deal.turn], tuple(deal.table))
        if key not in self.memo:
            moves: list[Move] = [
                m for m in deal.legal_moves if m.type in ("meld", "lay_off", "swap")
            ]
            found = False
            for move in moves:
                deal.push(move)
                found = self.empties(deal)
                deal.pop()
                if found:
                    break
            self.memo[key] = found
        return self.memo[key]


def test_the_turn_search_agrees_with_trying_every_order() -> None:
    # Small hands from bot deals: the search's shortcuts (swaps, then melds, then lay-offs, and
    # the stuck-card test) must never change whether a hand can be emptied.
    checked = {True: 0, False: 0}
    for number in range(30):
        deal = Deal(4, 4242 + number)
        seats = seat_bots(bot_names(MIXES[number % len(MIXES)], 4), 4242 + number)
        while not deal.is_over:
            me = deal.turn
            if deal.actions == 0 and deal.passport[me] and deal.hand_size(me) <= 6:
                fast = TurnSearch(10**6).empties(deal.copy())
                slow = _PlainSearch().empties(deal.copy())
                assert fast == slow, str(deal)
                checked[fast] += 1
                if fast:
                    assert stuck_card(deal.hand(), deal.table) is None
            play_move(deal, seats[me])
    assert checked[True] >= 1 and checked[False] >= 10


def test_a_position_mid_turn_or_over_is_no_puzzle() -> None:
    deal = Deal(4, 11)
    first = next(m for m in deal.legal_moves if isinstance(m, MeldMove))
    deal.push(first)
    for kind in PUZZLE_KINDS:
        assert "already played" in str(solve(deal, kind))
