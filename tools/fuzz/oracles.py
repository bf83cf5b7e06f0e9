"""The oracles: every try judged against the contract (`run_try`), the checks after each
ply, and the checks at the end of a deal (cards, table, statuses, scores, winners, the
record, and the `pop()` walk back to the start)."""

from __future__ import annotations

import json
from collections.abc import Sequence

from penang_lib import (
    RULE_BOOK,
    Card,
    Deal,
    DeclareDead,
    DeclareGame,
    EndCondition,
    Kind,
    LayOff,
    Meld,
    MeldMove,
    Phase,
    Rules,
    Status,
    Swap,
    dumps,
    full_deck,
    loads,
    to_record,
)
from penang_lib.engine.cards import JOKER_INDEX, SUITS, Counts, rank_text, to_counts
from penang_lib.engine.checks import table_readings
from penang_lib.engine.moves import Move
from tools.fuzz.contract import deliberate, judge_refusal, outcome, where
from tools.fuzz.report import FuzzRun
from tools.fuzz.state import DealState, new_deal, snapshot, state_diff
from tools.fuzz.tries import Try, render, seat_type_ok, well_formed


def run_try(run: FuzzRun, attempt: Try, before: DealState) -> bool:
    """Push one try and judge it; False when the deal could not be put back as it was."""
    report = run.report
    if attempt.group == "garbage":
        report.garbage_tries += 1
    elif attempt.group == "listed":
        report.listed_tries += 1
    else:
        report.illegal_tries += 1
    code = attempt.code
    player_code = render(attempt.player) if attempt.with_player else ""

    def note(kind: str, detail: str, key: str = "") -> None:
        shown = f"push({code}, player={player_code})" if player_code else f"push({code})"
        run.finding(kind, attempt.label, f"{shown}: {detail}", key, code, player_code)

    try:
        move = attempt.make()
    except Exception as error:
        if isinstance(error, TypeError | ValueError) and deliberate(error):
            report.refused_at_constructor += 1
            return True
        name = type(error).__name__
        run.finding(
            "construct",
            attempt.label,
            f"{code} raised {name}: {error}",
            f"{name} at {where(error)}",
            code=code,
        )
        if attempt.raw is None:
            return True
        move, code = attempt.raw(), attempt.raw_code
    else:
        if attempt.make_must_fail:
            run.finding(
                "accepted",
                attempt.label,
                f"{code} read the text as {move!r}, though it is not a move",
                code=code,
            )
            code = render(move)
    deal = run.deal
    garbage = not well_formed(move) or (attempt.with_player and not seat_type_ok(attempt.player))
    must = (attempt.must_refuse and not attempt.make_must_fail) or garbage
    legal: bool | None = None
    if not garbage:
        try:
            if attempt.with_player:
                legal = deal.is_legal(move, player=attempt.player)  # type: ignore[arg-type]
            else:
                legal = deal.is_legal(move)  # type: ignore[arg-type]
        except Exception as error:
            name = type(error).__name__
            note("consistency", f"is_legal raised {name}: {error}", f"is_legal {name}")
    refusal = outcome(deal, move, attempt.player, attempt.with_player)
    if refusal is not None:
        problem = judge_refusal(refusal, garbage)
        if problem is not None:
            note(problem[0], problem[1], problem[2])
        if legal:
            note("consistency", f"is_legal said yes, push refused: {refusal}", "legal, refused")
        if attempt.must_accept:
            note("consistency", f"legal_moves lists it, push refused: {refusal}", "listed")
        after = snapshot(deal)
        if after != before:
            diff = state_diff(after, before)
            note("changed", f"refused ({refusal!r}) but changed {diff}", ",".join(diff))
            return run.rebuild(before, "a refused try changed the deal")
        return True
    if must:
        note("accepted", f"accepted ({'garbage' if garbage else 'the rules forbid it'})")
    elif legal is False:
        note("consistency", "is_legal said no, push accepted", "illegal, accepted")
    else:
        if attempt.group == "illegal":
            report.illegal_legal += 1
        _check_table(run, deal, f"after the legal try {code}")
        problem_text = _conservation_problem(deal)
        if problem_text:
            note("conservation", problem_text)
    try:
        deal.pop()
    except Exception as error:
        note("pop", f"pop after it raised {error!r}")
        return run.rebuild(before, "pop failed")
    diff = state_diff(snapshot(deal), before)
    if diff:
        note("pop", f"pop after it left {diff} changed", ",".join(diff))
        return run.rebuild(before, "pop did not restore")
    return True


def _hand_points(counts: Counts, rules: Rules) -> int:
    """A hand's count from the card values of the rules (rule `scoring`), done here by hand."""
    total = counts[JOKER_INDEX] * rules.values["JK"]
    for index in range(52):
        total += counts[index] * rules.values[rank_text(index % 13 + 1)]
    return total


def meld_problem(meld: Meld, rules: Rules) -> str | None:
    """Why a table meld is not legal (rules `meld`, `run`, `set`, `joker`), checked here by hand
    without the engine's readings; None when it is legal."""
    cards = meld.cards
    if len(cards) < 3:
        return f"{meld} has fewer than three cards"
    naturals = [c for c in cards if not c.is_joker]
    if not naturals and not rules.all_joker_melds:
        return f"{meld} has no natural card"
    if any(c.is_joker and c.as_rank is None for c in cards):
        return f"{meld} has a joker without a note on the table"
    if meld.kind is Kind.SET:
        if any(c.rank != meld.low for c in naturals):
            return f"{meld} mixes ranks in a set of {meld.low}"
        if any(c.as_rank != meld.low or c.as_suit is not None for c in cards if c.is_joker):
            return f"{meld} has a joker noted as another card than the set's rank"
        return None
    if meld.kind is not Kind.RUN:
        return f"{meld} is of unknown kind {meld.kind!r}"
    if meld.suit not in SUITS or len(meld.suit) != 1:
        return f"{meld} is a run without a suit"
    if meld.low < 1 or meld.low + len(cards) - 1 > 14:
        return f"{meld} runs past an ace (low {meld.low}, {len(cards)} cards)"
    for offset, card in enumerate(cards):
        position = meld.low + offset
        rank = 1 if position == 14 else position
        if card.is_joker:
            if card.as_rank != rank or card.as_suit != meld.suit:
                return f"{meld}: the joker at place {position} is noted {card}"
        elif card.rank != rank or card.suit != meld.suit:
            return f"{meld}: {card} does not belong at place {position}"
    return None


def _check_table(run: FuzzRun, deal: Deal, when: str) -> None:
    if len(deal.owners) != len(deal.table):
        run.finding(
            "table", "owners", f"{when}: {len(deal.table)} melds, {len(deal.owners)} owners"
        )
    for i, meld in enumerate(deal.table):
        problem = meld_problem(meld, deal.rules)
        if problem is None:
            verdict = table_readings(meld, deal.rules, deal.copies)
            if not verdict.ok:
                problem = f"the engine's own reading refuses {meld}: {verdict.reason}"
        if problem is not None:
            run.finding("table", "table meld", f"{when}: meld {i}: {problem}")
    for i, owner in enumerate(deal.owners):
        if not 0 <= owner < deal.players or not deal.passport[owner]:
            run.finding("table", "owners", f"{when}: meld {i} has owner {owner} without passport")


def _conservation_problem(deal: Deal) -> str | None:
    """Why the cards in hands and on the table are not the cards dealt, or None."""
    now = [0] * (JOKER_INDEX + 1)
    for hand in deal.hands:
        for i, n in enumerate(hand):
            now[i] += n
    for meld in deal.table:
        for card in meld.cards:
            now[card.index] += 1
    dealt = [sum(h[i] for h in deal.initial_hands) for i in range(JOKER_INDEX + 1)]
    if now != dealt:
        wrong = [
            f"{Card.from_index(i)}: {dealt[i]} dealt, {now[i]} now"
            for i in range(JOKER_INDEX + 1)
            if now[i] != dealt[i]
        ]
        return "; ".join(wrong[:4])
    copies = deal.rules.packs_for(deal.players)
    deck = to_counts(full_deck(copies, deal.rules.jokers))
    stock = tuple(deal.stock)
    if any(dealt[i] + stock[i] != deck[i] for i in range(JOKER_INDEX + 1)):
        return "the hands dealt and the cards put aside are not the deck"
    return None


def ply_checks(run: FuzzRun, before: DealState, after: DealState, move: Move) -> None:
    """What one legal move may change: the mover's hand and standing, the table, the turn."""
    me = before.turn
    label = type(move).__name__
    problems = []
    for seat in range(before.players):
        if seat != me and (
            after.hands[seat] != before.hands[seat]
            or after.status[seat] != before.status[seat]
            or after.passport[seat] != before.passport[seat]
        ):
            problems.append(f"seat {seat} changed on seat {me}'s move")
    had, has = sum(before.hands[me]), sum(after.hands[me])
    grown = len(after.table) - len(before.table)
    if isinstance(move, MeldMove):
        ok = grown == 1 and has == had - len(move.cards) and after.passport[me]
    elif isinstance(move, LayOff):
        ok = grown == 0 and has == had - 1
    elif isinstance(move, Swap):
        ok = (
            grown == 0
            and has == had
            and after.hands[me][JOKER_INDEX] == before.hands[me][JOKER_INDEX] + 1
        )
    elif isinstance(move, DeclareGame):
        ok = had == 0 and after.status[me] is Status.OUT and after.phase is Phase.OVER
    elif isinstance(move, DeclareDead):
        ok = had == has and after.status[me] in (Status.DEAD, Status.DEAD_PASSPORT)
    else:
        ok = had == has and grown == 0
    if not ok:
        problems.append(f"{move} did not do what it says (hand {had} -> {has}, table +{grown})")
    if len(after.event_stack) != len(before.event_stack) + 1:
        problems.append("the move did not add one group of events")
    elif any(e.rule not in RULE_BOOK for e in after.event_stack[-1]):
        problems.append(f"an event names a rule not in the rule book: {after.event_stack[-1]}")
    if after.phase is Phase.PLAYING:
        alive = sum(s is Status.ALIVE for s in after.status)
        if after.status[after.turn] is not Status.ALIVE:
            problems.append(f"seat {after.turn} is to move but is {after.status[after.turn]}")
        if after.rules.end_condition is EndCondition.ONE_ALIVE and alive < 2 and after.players > 1:
            problems.append("the deal goes on with one player alive (one-alive house rule)")
    for problem in problems:
        run.finding("ply", label, f"move {len(after.move_stack)} ({move}): {problem}")


def end_checks(run: FuzzRun, history: Sequence[DealState]) -> None:
    """Cards conserved, table legal, statuses, scores and winners as the rule book says."""
    deal = run.deal
    rules = deal.rules
    problem = _conservation_problem(deal)
    if problem:
        run.finding("conservation", "end of deal", problem)
    size = rules.hand_size(deal.players)
    if any(sum(h) != size for h in deal.initial_hands):
        run.finding("conservation", "hands dealt", f"a hand was not dealt {size} cards")
    _check_table(run, deal, "at the end")
    status = list(deal.status)
    out = [p for p in range(deal.players) if status[p] is Status.OUT]
    alive = [p for p in range(deal.players) if status[p] is Status.ALIVE]
    dead = [p for p in range(deal.players) if status[p] not in (Status.ALIVE, Status.OUT)]
    if not deal.is_over:
        run.finding("end", "phase", "the deal is not over after the last move")
        return
    if len(out) > 1:
        run.finding("end", "game", f"several players went out: {out}")
    if out:
        why = "game"
    elif not alive:
        why = "all dead"
    else:
        why = "one alive"
        if rules.end_condition is not EndCondition.ONE_ALIVE or len(alive) != 1:
            run.finding("end", "end", f"the deal ended with {alive} alive and nobody out")
    run.report.endings[why] += 1
    end_events = [e for e in deal.event_stack[-1] if e.rule == "end"] if deal.event_stack else []
    if [e.detail for e in end_events] != [why]:
        run.finding("end", "end event", f"the end event says {end_events}, the hands say {why}")
    for p in range(deal.players):
        cards = sum(deal.hands[p])
        if status[p] is Status.OUT and cards:
            run.finding("end", "game", f"seat {p} went out holding {cards} cards")
        if status[p] is not Status.OUT and not cards:
            run.finding("end", "game", f"seat {p} has an empty hand but did not declare Game")
        if status[p] is Status.DEAD_PASSPORT and (
            deal.passport[p] or deal.hands[p] != deal.initial_hands[p]
        ):
            run.finding("end", "dead.passport", f"seat {p} died at the passport but played")
        if status[p] in (Status.DEAD, Status.OUT) and not deal.passport[p]:
            run.finding("end", "passport", f"seat {p} is {status[p].value} without a passport")
    for p in dead:
        died = next(
            (s for s in history if s.status[p] is not Status.ALIVE), None
        )  # the first state with seat p dead
        if died is None or died.hands[p] != deal.hands[p]:
            run.finding("end", "dead", f"seat {p}'s hand changed after they were dead")
    scores = [_hand_points(h, rules) for h in deal.hands]
    if deal.scores != scores or [deal.count(p) for p in range(deal.players)] != scores:
        run.finding("scores", "scores", f"the deal says {deal.scores}, the hands say {scores}")
    if out:
        winners = out
    else:
        best = min(scores[p] for p in dead) if dead else None
        winners = [p for p in dead if scores[p] == best]
    if deal.winners != winners:
        run.finding("winners", "winners", f"the deal says {deal.winners}, expected {winners}")
    scoring = [e for e in deal.event_stack[-1] if e.rule == "scoring"] if deal.event_stack else []
    expected_detail = ",".join(str(w) for w in winners)
    if (
        len(scoring) != 1
        or list(scoring[0].counts) != scores
        or scoring[0].detail != (expected_detail)
    ):
        run.finding("scores", "scoring event", f"the scoring event is {scoring}")


def record_checks(run: FuzzRun) -> None:
    """The record, as JSON text, loads (replaying every move) to the same state."""
    deal = run.deal
    want = snapshot(deal)
    run.report.replays += 1
    try:
        text = dumps(deal)
        again = loads(text)
    except Exception as error:
        run.finding(
            "record",
            "replay",
            f"the record did not load: {type(error).__name__}: {error}",
            type(error).__name__,
        )
        return
    diff = state_diff(snapshot(again), want)
    if diff:
        run.finding("record", "replay", f"the replayed deal differs in {diff}", ",".join(diff))
    elif to_record(again) != json.loads(text):
        run.finding("record", "replay", "the replayed deal's record differs")


def walk_back(run: FuzzRun, history: Sequence[DealState]) -> None:
    """`pop()` back to the start, matching each ply's state, then a fresh deal."""
    deal = run.deal
    run.report.pop_walks += 1
    for ply in range(len(run.moves), 0, -1):
        try:
            move = deal.pop()
        except Exception as error:
            run.finding("pop", "walk", f"pop at ply {ply} raised {type(error).__name__}: {error}")
            return
        if move != run.moves[ply - 1]:
            run.finding(
                "pop", "walk", f"pop at ply {ply} returned {move}, not {run.moves[ply - 1]}"
            )
            return
        diff = state_diff(snapshot(deal), history[ply - 1])
        if diff:
            run.finding(
                "pop", "walk", f"after popping back to ply {ply - 1}: {diff} differ", ",".join(diff)
            )
            return
    diff = state_diff(snapshot(deal), snapshot(new_deal(run.variant)))
    if diff:
        run.finding(
            "pop", "walk", f"at the start, differs from a fresh deal in {diff}", ",".join(diff)
        )
    try:
        deal.pop()
    except IndexError:
        pass
    except Exception as error:
        run.finding(
            "pop", "walk", f"pop with no moves raised {type(error).__name__}, not IndexError"
        )
    else:
        run.finding("pop", "walk", "pop with no moves left took something back")
