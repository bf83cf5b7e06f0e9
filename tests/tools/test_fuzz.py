"""The engine fuzz (`tools.fuzz`, issue 8): 1,000 seeded deals at the CI size, and proof
that its checks can fail.

The CI-size run must end with no findings: every refused move kept the contract of the shared
brief (`IllegalMove` for a well-formed move the rules forbid, a `TypeError` the engine raises
itself for a value of the wrong type, the deal unchanged either way) and every end-of-deal check
held. The other tests feed the checker deals, states and refusals that are wrong on purpose (a
push that changes the deal before refusing, one that accepts garbage, a tampered hand, table,
score, record or ply snapshot) and assert that each is caught, so the big run is not a test that
cannot fail.

Every check runs on every deal, the full pop() walk included.
"""

from __future__ import annotations

import dataclasses
import os
import random
from collections.abc import Callable

import pytest

from penang_lib import (
    JOKER,
    Card,
    Deal,
    DeclareDead,
    DeclareGame,
    EndTurn,
    Event,
    IllegalMove,
    Kind,
    LayOff,
    Meld,
    MeldMove,
    Rules,
    Status,
    Swap,
    check_meld,
    parse_cards,
)
from penang_lib.engine.moves import Move
from tools import fuzz as fz

CI_DEALS = 1000


def kinds(report: fz.FuzzReport) -> set[str]:
    """The kinds of finding a report holds."""
    return {signature.split(" | ")[0] for signature in report.finding_counts}


def finished_run(index: int = 5, seed: int = 0) -> tuple[fz.FuzzRun, list[fz.DealState]]:
    """A fuzz run of one deal played to its end by its bots, with no tries."""
    run = fz.FuzzRun(fz.variant_for(seed, index), fz.FuzzReport())
    history = fz.play(run, random.Random(0), tries=False)
    assert history is not None and run.deal.is_over and run.deal.table
    assert run.report.ok, run.report.findings_text(reproduce=False)
    return run, history


# -- the CI-size run -------------------------------------------------------------------------------
@pytest.mark.slow
def test_fuzz_ci_size_has_no_findings() -> None:
    jobs = min(2, os.cpu_count() or 1)
    report = fz.fuzz(CI_DEALS, seed=0, jobs=jobs)
    assert report.deals == CI_DEALS
    assert set(report.players) == {2, 3, 4, 5}
    assert min(report.players.values()) == CI_DEALS // 4
    assert report.replays == CI_DEALS
    assert report.pop_walks == CI_DEALS
    assert report.legal_moves > CI_DEALS
    assert report.illegal_tries > CI_DEALS
    assert report.garbage_tries > CI_DEALS // 2
    assert {"end=all_dead", "end=one_alive", "jokers=6", "jokers=8", "all-joker melds"} <= set(
        report.features
    )
    assert report.ok, (
        f"{report.total_findings} findings; replay one with `python -m tools.fuzz "
        f"--seed 0 --deal N`\n{report.findings_text(reproduce=False)}"
    )


def test_runs_are_the_same_whatever_the_jobs() -> None:
    deals = 2 * fz.CHUNK  # two chunks, so that two worker processes share them
    one = fz.fuzz(deals, seed=4, jobs=1)
    two = fz.fuzz(deals, seed=4, jobs=2)
    assert one.finding_counts == two.finding_counts
    assert [f.signature for f in one.findings] == [f.signature for f in two.findings]
    assert (one.legal_moves, one.illegal_tries, one.garbage_tries) == (
        two.legal_moves,
        two.illegal_tries,
        two.garbage_tries,
    )
    assert one.endings == two.endings


def test_variants_are_fixed_by_the_seed_and_playable() -> None:
    seen = set()
    for index in range(40):
        variant = fz.variant_for(7, index)
        assert variant == fz.variant_for(7, index)
        assert variant.players == 2 + index % 4
        rules = variant.rules
        deck = 52 * rules.packs_for(variant.players) + rules.jokers
        assert rules.hand_size(variant.players) * variant.players <= deck
        fz.new_deal(variant)  # the set-up is one Deal accepts
        seen.update(variant.features())
    assert {"end=all_dead", "end=one_alive", "dealer given", "dealer drawn"} <= seen


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="negative"):
        fz.fuzz(-1)
    with pytest.raises(ValueError, match="jobs"):
        fz.fuzz(1, jobs=0)
    with pytest.raises(ValueError, match="pop_every"):
        fz.fuzz(1, pop_every=0)


def test_command_exit_status_follows_the_findings(capsys: pytest.CaptureFixture[str]) -> None:
    report = fz.fuzz(3, seed=2)
    status = fz.main(["--deals", "3", "--seed", "2", "--no-progress"])
    out = capsys.readouterr().out
    assert status == (0 if report.ok else 1)
    assert "deals: 3 " in out and "garbage tries" in out and "findings:" in out
    assert fz.main(["--seed", "2", "--deal", "1"]) == (0 if fz.fuzz_deal(2, 1).ok else 1)


# -- the state snapshot ----------------------------------------------------------------------------
def test_snapshot_sees_every_change() -> None:
    run, history = finished_run()
    deal = run.deal
    start = history[-1]
    assert fz.snapshot(deal) == start
    changes = {
        "hands": lambda d: d.hands.__setitem__(0, (0,) * 53),
        "table": lambda d: d.table.pop(),
        "owners": lambda d: d.owners.append(0),
        "passport": lambda d: d.passport.__setitem__(0, not d.passport[0]),
        "status": lambda d: d.status.__setitem__(
            0, Status.DEAD if d.status[0] is Status.ALIVE else Status.ALIVE
        ),
        "turns": lambda d: d.turns.__setitem__(0, 99),
        "turn": lambda d: setattr(d, "turn", (d.turn + 1) % d.players),
        "actions": lambda d: setattr(d, "actions", 7),
        "move_stack": lambda d: d.move_stack.append(EndTurn()),
        "event_stack": lambda d: d.event_stack.pop(),
        "undo": lambda d: d._undo.pop(),
    }
    for field_name, change in changes.items():
        copy = deal.copy()
        change(copy)
        assert fz.state_diff(fz.snapshot(copy), start) == [field_name]
        assert fz.snapshot(deal) == start  # the copy is independent


# -- refusals ------------------------------------------------------------------------------------
def fresh_run() -> tuple[fz.FuzzRun, fz.DealState]:
    run = fz.FuzzRun(fz.variant_for(0, 2), fz.FuzzReport())
    return run, fz.snapshot(run.deal)


class ChangingDeal(Deal):
    """Refuses every move, but only after marking the mover's passport."""

    def push(self, move: Move, player: int | None = None) -> tuple[Event, ...]:
        self.passport[self.turn] = True
        raise IllegalMove("turn", "Nothing may be played here.")


class AcceptingDeal(Deal):
    """Accepts anything without looking at it."""

    def push(self, move: Move, player: int | None = None) -> tuple[Event, ...]:
        return ()


class LeakingDeal(Deal):
    """Lets Python's own errors out of push."""

    def push(self, move: Move, player: int | None = None) -> tuple[Event, ...]:
        known: dict[str, int] = {}
        known[move.type] += 1
        return ()


class TypeErrorDeal(Deal):
    """Refuses everything with a TypeError of its own, wrong for a well-formed move."""

    def push(self, move: Move, player: int | None = None) -> tuple[Event, ...]:
        raise TypeError("push takes a move")


def try_on(cls: type[Deal], attempt: fz.Try) -> tuple[fz.FuzzRun, bool]:
    run, before = fresh_run()
    run.deal.__class__ = cls
    return run, fz.run_try(run, attempt, before)


def garbage_try(value: object) -> fz.Try:
    return fz.Try("garbage", "garbage", lambda: value, fz.render(value))


def test_a_refusal_that_changes_the_deal_is_caught_and_the_deal_rebuilt() -> None:
    run, kept = try_on(ChangingDeal, fz.well_formed_try("end early", EndTurn(), True))
    assert "changed" in kinds(run.report)
    assert any("passport" in f.detail for f in run.report.findings)
    assert kept and type(run.deal) is Deal  # replayed from its moves
    assert fz.snapshot(run.deal) == fresh_run()[1]


def test_accepted_garbage_and_accepted_illegal_moves_are_caught() -> None:
    run, _ = try_on(AcceptingDeal, garbage_try(None))
    assert "accepted" in kinds(run.report)
    run, _ = try_on(AcceptingDeal, fz.well_formed_try("game early", DeclareGame(), True))
    assert "accepted" in kinds(run.report)


def test_errors_outside_the_contract_are_caught() -> None:
    run, _ = try_on(LeakingDeal, fz.well_formed_try("end early", EndTurn(), True))
    assert kinds(run.report) == {"escaped"}
    run, _ = try_on(TypeErrorDeal, fz.well_formed_try("end early", EndTurn(), True))
    assert kinds(run.report) == {"wrong-error"}
    run, _ = try_on(TypeErrorDeal, garbage_try("end_turn"))
    assert run.report.ok  # a TypeError of its own is what garbage should get


def test_move_text_must_be_read_or_refused_with_card_parse_error() -> None:
    def deep() -> object:
        return int("x")  # Python's own ValueError, not one the engine raised

    run, _ = try_on(Deal, fz.Try("garbage", "text", deep, "deep()", False))
    assert kinds(run.report) == {"construct"}
    read = fz.Try("garbage", "text", lambda: EndTurn(), "text()", False, make_must_fail=True)
    run, _ = try_on(Deal, read)
    assert kinds(run.report) == {"accepted"}


def test_the_real_engine_refuses_well_formed_illegal_moves_cleanly() -> None:
    run, before = fresh_run()
    hand = run.deal.hand()
    for move in (EndTurn(), DeclareGame(), MeldMove(tuple(hand[:2])), LayOff(7, hand[0])):
        assert fz.run_try(run, fz.well_formed_try("illegal", move, True), before)
    assert run.report.ok, run.report.findings_text(reproduce=False)
    assert fz.snapshot(run.deal) == before


def test_judging_a_refusal_follows_the_contract() -> None:
    def raised(action: Callable[[], object]) -> BaseException:
        try:
            action()
        except Exception as error:
            return error
        raise AssertionError("nothing raised")

    def own_type_error() -> None:
        raise TypeError("the meld number should be a whole number")

    def deep_type_error() -> object:
        return 0 <= "1"  # type: ignore[operator]

    illegal = IllegalMove("turn", "Passing is not allowed.")
    assert fz.judge_refusal(illegal, garbage=False) is None
    assert fz.judge_refusal(raised(own_type_error), garbage=True) is None
    assert fz.deliberate(raised(own_type_error))
    assert not fz.deliberate(raised(deep_type_error))
    verdicts = {
        "internal": fz.judge_refusal(raised(deep_type_error), garbage=True),
        "wrong-error": fz.judge_refusal(illegal, garbage=True),
        "escaped": fz.judge_refusal(raised(lambda: [][1]), garbage=True),
        "message": fz.judge_refusal(IllegalMove("no-such-rule", "x"), garbage=False),
    }
    for kind, verdict in verdicts.items():
        assert verdict is not None and verdict[0] == kind


def test_well_formed_tells_moves_from_garbage() -> None:
    five = Card.parse("5H")
    assert fz.well_formed(MeldMove(tuple(parse_cards("5H 6H 7H"))))
    assert fz.well_formed(LayOff(-3, five)) and fz.well_formed(Swap(10**20, five))
    assert fz.well_formed(EndTurn()) and fz.well_formed(DeclareDead())
    for garbage in (
        None,
        "end_turn",
        fz.FakeMove(),
        LayOff(True, five),
        LayOff("0", five),  # type: ignore[arg-type]
        Swap(1.0, five),  # type: ignore[arg-type]
        LayOff(0, "5H"),  # type: ignore[arg-type]
        fz.raw_move(MeldMove, cards=(five, None, five)),
    ):
        assert not fz.well_formed(garbage)
    assert fz.seat_type_ok(None) and fz.seat_type_ok(9)
    assert not fz.seat_type_ok(True) and not fz.seat_type_ok("1")


def test_render_gives_source_that_builds_the_value_again() -> None:
    five, joker = Card.parse("5H"), Card.parse("JK@7H")
    space = fz.namespace()
    values: list[object] = [
        MeldMove((five, Card.parse("6H"), joker)),
        LayOff(-1, five),
        Swap(10**25, JOKER),
        EndTurn(),
        DeclareGame(),
        (five,),
        [None, 2.5, True, "5H"],
        {"type": "end_turn"},
        b"dead",
        EndTurn,
    ]
    for value in values:
        assert eval(fz.render(value), space) == value
    raw = eval(fz.render(fz.raw_move(MeldMove, cards="5H 6H 7H")), space)
    cards: object = raw.cards
    assert type(raw) is MeldMove and cards == "5H 6H 7H"
    assert type(eval(fz.render(fz.FakeMove()), space)) is fz.FakeMove


# -- checks at the end of a deal -------------------------------------------------------------
def test_a_finished_deal_passes_every_check() -> None:
    run, history = finished_run()
    fz.end_checks(run, history)
    fz.record_checks(run)
    fz.walk_back(run, history)
    assert run.report.ok, run.report.findings_text(reproduce=False)
    assert fz.snapshot(run.deal) == history[0]


def test_a_lost_card_is_caught() -> None:
    run, history = finished_run()
    hand = list(run.deal.hands[0])
    index = next(i for i, n in enumerate(hand) if n) if any(hand) else 0
    hand[index] += -1 if hand[index] else 1
    run.deal.hands[0] = tuple(hand)
    fz.end_checks(run, history)
    assert "conservation" in kinds(run.report)


def test_an_illegal_table_meld_is_caught() -> None:
    run, history = finished_run()
    meld = run.deal.table[0]
    flipped = Kind.SET if meld.kind is Kind.RUN else Kind.RUN
    run.deal.table[0] = Meld(flipped, meld.cards, meld.low, meld.suit)
    fz.end_checks(run, history)
    assert "table" in kinds(run.report)


def test_meld_problem_checks_melds_by_hand() -> None:
    rules = Rules()
    for text in ("7H 7H 7C", "QH KH AH", "AH 2H 3H", "5H 6H JK@7H", "9S 9D JK@9"):
        reading = check_meld(text).reading
        assert reading is not None and fz.meld_problem(reading, rules) is None
    corner = Meld(Kind.RUN, tuple(parse_cards("KH AH 2H")), 13, "H")
    mixed = Meld(Kind.SET, tuple(parse_cards("7H 8H 7C")), 7)
    wrong_note = Meld(Kind.RUN, tuple(parse_cards("5H 6H JK@8H")), 5, "H")
    jokers = Meld(Kind.SET, tuple(parse_cards("JK@9 JK@9 JK@9")), 9)
    for meld in (corner, mixed, wrong_note, jokers):
        assert fz.meld_problem(meld, rules) is not None
    assert fz.meld_problem(jokers, Rules(all_joker_melds=True)) is None


class _MiscountingDeal(Deal):
    """A deal that adds one to every count and names no winner (for the fuzz's end checks)."""

    @property
    def scores(self) -> list[int]:
        return [s + 1 for s in super().scores]

    @property
    def winners(self) -> list[int]:
        return []


def test_wrong_scores_winners_and_statuses_are_caught() -> None:
    run, history = finished_run()
    run.deal.__class__ = _MiscountingDeal
    fz.end_checks(run, history)
    assert {"scores", "winners"} <= kinds(run.report)
    run, history = finished_run()
    seat = next(p for p in range(run.deal.players) if run.deal.status[p] is not Status.OUT)
    run.deal.status[seat] = Status.OUT
    fz.end_checks(run, history)
    assert "end" in kinds(run.report)


def test_a_record_that_replays_differently_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    run, _ = finished_run()

    def short_loads(text: str) -> Deal:
        deal = fz.new_deal(run.variant)
        for move in run.moves[:-1]:
            deal.push(move)
        return deal

    monkeypatch.setattr(fz.oracles, "loads", short_loads)
    fz.record_checks(run)
    assert kinds(run.report) == {"record"}


def test_a_tampered_ply_snapshot_is_caught_by_the_pop_walk() -> None:
    run, history = finished_run()
    ply = len(history) // 2
    history[ply] = dataclasses.replace(history[ply], actions=history[ply].actions + 5)
    fz.walk_back(run, history)
    assert kinds(run.report) == {"pop"}
    assert any("actions" in f.detail for f in run.report.findings)


def test_a_move_that_changes_another_seat_is_caught() -> None:
    run, history = finished_run()
    before, after = history[0], history[1]
    other = (before.turn + 1) % before.players
    hands = list(after.hands)
    hands[other] = (0,) * 53
    fz.ply_checks(run, before, dataclasses.replace(after, hands=tuple(hands)), run.moves[0])
    assert kinds(run.report) == {"ply"}


# -- reproducers ---------------------------------------------------------------------------------
def test_a_reproducer_is_python_that_runs_with_the_shortest_prefix() -> None:
    run, _ = finished_run()
    first = run.moves[0]
    finding = fz.Finding(
        kind="accepted",
        label="example",
        detail="",
        signature="accepted | example",
        seed=0,
        index=5,
        deal_seed=run.variant.deal_seed,
        players=run.variant.players,
        dealer=run.deal.dealer,
        rules=run.variant.rules.as_dict(),
        variant=run.variant.describe(),
        prefix=tuple(str(m) for m in run.moves[:4]),
        code=fz.render(first),
    )
    snippet = fz.reproducer(finding)
    assert "for text in" not in snippet  # the first move is legal with no prefix at all
    space: dict[str, object] = {}
    exec(snippet, space)
    deal = space["deal"]
    assert isinstance(deal, Deal) and deal.move_stack == [first]
