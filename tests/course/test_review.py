"""The review of a deal the learner played (`penang_lib.course.review`): the turns, the careful
bot's turn beside each, the summary and its search, and the link's code. Every expectation is
worked out again here from the engine (the bots, `Deal.push`, `pop`), not copied from a run."""

from __future__ import annotations

import base64
import json
import zlib

import pytest

from penang_lib import CarefulBot, Deal, DeclareDead, PlayerView, Rules, Status, parse_move
from penang_lib.course.review import (
    MAX_LINK,
    REVIEW_PAGE,
    Review,
    ReviewLinkError,
    Summary,
    TurnSpan,
    compare_rows,
    decode,
    encode,
    learner_turns,
    link_for,
    link_sentence,
    review_code,
    review_step,
    review_turn,
    summary_lines,
    turn_lines,
)
from penang_lib.course.review import codec as review_codec
from penang_lib.engine.bots import Bot, bots_around, make_bot, play_move

SEAT = 0


def played(seed: int, learner: str = "greedy", players: int = 4, bots: str = "careful") -> Deal:
    """A finished deal: the `learner` bot at seat 0, `bots` around it as a play table seats them."""
    deal = Deal(players=players, seed=seed, dealer=players - 1)
    seats: dict[int, Bot] = dict(bots_around(deal, SEAT, bots))
    seats[SEAT] = make_bot(learner, seed)
    while not deal.is_over:
        play_move(deal, seats[deal.turn])
    return deal


def at(deal: Deal, ply: int) -> Deal:
    """The deal after its first `ply` moves, made again from the start (not with `pop`)."""
    fresh = deal.root()
    for move in deal.move_stack[:ply]:
        fresh.push(move)
    return fresh


def careful_turn(position: Deal) -> list[str]:
    """The careful bot's whole turn from `position` (changed), as move texts."""
    seat, turn = position.turn, position.turn_number
    moves = []
    while not position.is_over and position.turn == seat and position.turn_number == turn:
        move = CarefulBot().choose(PlayerView.of(position)).move
        position.push(move)
        moves.append(str(move))
    return moves


# -- the learner's turns --------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [3, 4, 8])
def test_the_turns_hold_exactly_the_learners_moves_turn_by_turn(seed: int) -> None:
    deal = played(seed)
    spans = learner_turns(deal, SEAT)
    mine = [k for k, seat in enumerate(deal.movers) if seat == SEAT]
    assert [k for s in spans for k in range(s.start, s.end)] == mine
    assert [s.number for s in spans] == list(range(1, len(spans) + 1))
    for span in spans:
        before, after = at(deal, span.start), at(deal, span.end)
        assert before.turn == SEAT and before.actions == 0
        assert after.turn_number == before.turn_number + 1 or after.is_over
        assert before.turn_number == span.turn
        assert before.turns[SEAT] == span.number


def test_a_lone_player_s_turns_one_after_another_are_told_apart() -> None:
    # East dies at once (no meld); North plays on alone, turn after turn, until it goes out.
    deal = Deal(hands=["5S 6S 7S 8S 9S 10S", "2C 7D KH"], dealer=1)
    for text in ("meld 5S 6S 7S", "end_turn", "dead", "lay_off 0 8S", "end_turn"):
        deal.push(parse_move(text))
    spans = learner_turns(deal, 0)
    assert [(s.start, s.end) for s in spans] == [(0, 2), (3, 5)]
    assert Review(deal, 0).turn_at(5) == 1  # the end of one turn and the start of the next


# -- one turn beside the careful bot's ----------------------------------------------------------
@pytest.mark.parametrize("seed", [4, 5, 11])
def test_each_turn_is_compared_with_the_careful_bots_turn_from_the_same_position(
    seed: int,
) -> None:
    deal = played(seed)
    before = deal.state_key()
    review = Review(deal, SEAT)
    for i, span in enumerate(review.spans):
        turn = review.turn(i)
        bot_moves = careful_turn(at(deal, span.start))
        assert [str(m) for m in turn.careful.moves] == bot_moves
        assert all(turn.careful.whys)
        after_bot = at(deal, span.start)
        for text in bot_moves:
            after_bot.push(parse_move(text))
        after_me = at(deal, span.end)
        assert (turn.careful.cards, turn.careful.points) == (
            after_bot.hand_size(SEAT),
            after_bot.count(SEAT),
        )
        assert (turn.yours.cards, turn.yours.points) == (
            after_me.hand_size(SEAT),
            after_me.count(SEAT),
        )
        assert list(turn.yours.moves) == deal.move_stack[span.start : span.end]
        assert turn.same == (
            after_bot.hands[SEAT] == after_me.hands[SEAT]
            and sorted(map(str, after_bot.table)) == sorted(map(str, after_me.table))
        )
    assert deal.state_key() == before


def test_a_learner_who_plays_like_the_careful_bot_is_told_so_at_every_turn() -> None:
    deal = played(4, learner="careful")
    review = Review(deal, SEAT)
    assert review.spans
    for i in range(len(review.spans)):
        turn = review.turn(i)
        assert turn.same
        assert turn_lines(turn)[0] == "You played what the careful bot would have played here."


def test_a_different_turn_gives_the_bots_reason_and_the_cards_and_points_for_both() -> None:
    deal = played(5)  # greedy melds four times in its first turn; careful melds once
    turn = Review(deal, SEAT).turn(0)
    assert not turn.same and turn.yours.actions > 1 and turn.careful.actions == 1
    lines = turn_lines(turn)
    # The bot's first reason, said once without the bot's name in front ("Careful: ...").
    first = turn.careful.whys[0]
    assert first.startswith("Careful: ")
    reason = first.removeprefix("Careful: ")
    assert f"Its reasons: {reason[0].upper()}{reason[1:]}" in lines[0]
    assert "Careful:" not in lines[0]
    assert f"{turn.careful.cards} cards worth {turn.careful.points} points" in lines[1]
    assert f"you hold {turn.yours.cards} worth {turn.yours.points}" in lines[1]
    assert any("actions in this turn, where one keeps you alive" in line for line in lines)
    rows = {what: (yours, bot) for what, yours, bot in compare_rows(turn)}
    assert rows["Cards left in hand"] == (str(turn.yours.cards), str(turn.careful.cards))
    assert rows["Points at stake"] == (str(turn.yours.points), str(turn.careful.points))
    assert turn.careful.moves[0].label() in rows["Played"][1]


def test_a_turn_that_is_not_of_this_deal_is_refused() -> None:
    deal = played(4)
    with pytest.raises(ValueError, match="not a turn of this deal"):
        review_turn(deal, SEAT, TurnSpan(1, 1, 0, len(deal.move_stack) + 1))


# -- the summary --------------------------------------------------------------------------------
def survives(deal: Deal, span: TurnSpan, died: int, bots: str = "careful") -> bool:
    """Whether the careful bot at seat 0 from the start of `span` (the same bots around it,
    made afresh: careful bots keep no state) is alive past the learner's own turn `died`."""
    position = at(deal, span.start)
    seats: dict[int, Bot] = dict(bots_around(position, SEAT, bots))
    seats[SEAT] = CarefulBot()
    while not position.is_over and position.status[SEAT] is Status.ALIVE:
        if position.turns[SEAT] > died:
            break
        play_move(position, seats[position.turn])
    return position.status[SEAT] in (Status.ALIVE, Status.OUT)


@pytest.mark.parametrize(
    ("seed", "learner"), [(34, "greedy"), (39, "greedy"), (5, "random"), (14, "random")]
)
def test_the_search_finds_the_latest_turn_from_which_the_careful_bot_stays_alive(
    seed: int, learner: str
) -> None:
    # In these deals the learner dies, and from more than one earlier turn the careful bot
    # would live on (in 14, from turns 1, 6 and 7 but not 2 to 5): the latest is the answer.
    deal = played(seed, learner)
    assert deal.status[SEAT] is Status.DEAD
    review = Review(deal, SEAT)
    summary = review.summary()
    died = summary.died
    assert died is not None and DeclareDead() in deal.move_stack[died.start : died.end]
    expected = next(
        (s for s in reversed(review.spans[: died.number - 1]) if survives(deal, s, died.number)),
        None,
    )
    assert expected is not None
    alive_from = [s for s in review.spans[: died.number - 1] if survives(deal, s, died.number)]
    assert len(alive_from) > 1, "this deal should have more than one turn to choose from"
    assert (summary.rescue.span if summary.rescue else None) == expected
    line = summary_lines(summary)[-1]
    assert f"from your turn {expected.number} (step {expected.start})" in line
    assert f"You died in your turn {died.number} (turn {died.turn} of the deal)" in line


def test_no_point_is_found_when_every_way_dies_as_soon() -> None:
    # North's only meld leaves 9♥ K♦, which fit nowhere: dead on the second turn whatever it does.
    deal = Deal(hands=["5S 6S 7S 9H KD", "2C 3C 4C 8D", "QC QD QH 6H"], dealer=2)
    for text in ("meld 5S 6S 7S", "end_turn", "meld 2C 3C 4C", "end_turn"):
        deal.push(parse_move(text))
    deal.push(parse_move("meld QC QD QH"))
    deal.push(parse_move("end_turn"))
    while not deal.is_over:
        play_move(deal, CarefulBot())
    summary = Review(deal, 0).summary()
    assert summary.died is not None and summary.died.number == 2
    assert summary.rescue is None and summary.searched == 1
    assert "No point was found" in summary_lines(summary)[-1]


def test_a_death_in_the_first_turn_has_no_earlier_turn_to_change() -> None:
    deal = Deal(hands=["2C 7D KH", "5S 6S 7S 9S"], dealer=1)
    deal.push(DeclareDead())
    while not deal.is_over:
        play_move(deal, CarefulBot())
    summary = Review(deal, 0).summary()
    assert summary.died is not None and summary.died.number == 1 and summary.rescue is None
    assert "first turn" in summary_lines(summary)[-1]


def test_the_summary_counts_extra_actions_and_the_jokers_left() -> None:
    deal = played(4)
    review = Review(deal, SEAT)
    summary = review.summary()
    for span, actions, careful in summary.extra:
        moves = deal.move_stack[span.start : span.end]
        assert actions == sum(1 for m in moves if m.type in ("meld", "lay_off")) > 1
        assert careful == review.turn(span.number - 1).careful.actions
    extra_numbers = {s.number for s, _, _ in summary.extra}
    for i, span in enumerate(review.spans):
        assert (span.number in extra_numbers) == review.turn(i).extra
    jokers = sum(1 for c in deal.hand(SEAT) if c.is_joker)
    assert summary.jokers == jokers and summary.joker_points == 20 * jokers
    lines = summary_lines(summary)
    assert ("more than you had to in" in lines[0]) == bool(summary.extra)


def test_the_summary_says_one_and_many_in_their_own_words() -> None:
    # Plurals come from ngettext: one turn and one joker read as such, two as two.
    def lines(spans: int, jokers: int) -> list[str]:
        extra = tuple((TurnSpan(n, 2 * n, 4 * n, 4 * n + 2), 2, 1) for n in range(1, spans + 1))
        return summary_lines(Summary(True, extra, jokers, 20 * jokers, Status.OUT, None, None, 0))

    one, two = lines(1, 1), lines(2, 2)
    assert one[0].startswith("You played more than you had to in 1 turn (your turn 1): ")
    assert two[0].startswith("You played more than you had to in 2 turns (your turns 1 and 2): ")
    assert one[1].startswith("You ended the deal holding 1 joker, 20 points against you: ")
    assert two[1].startswith("You ended the deal holding 2 jokers, 40 points against you: ")


def test_a_learner_who_went_out_is_told_so() -> None:
    deal = played(4, learner="careful")
    assert deal.winners == [SEAT] and deal.status[SEAT] is Status.OUT
    lines = summary_lines(Review(deal, SEAT).summary())
    assert lines[-1] == "You went out: nobody stayed alive longer than you."
    assert "No joker was left in your hand at the end." in lines


# -- the link -----------------------------------------------------------------------------------
def test_a_code_opens_the_same_deal_seat_and_bots() -> None:
    deal = played(6, bots="random,greedy")
    code = encode(deal, SEAT, "random,greedy")
    linked = decode(code)
    assert linked.deal == deal and linked.deal.move_stack == deal.move_stack
    assert linked.seat == SEAT and linked.bots == ("random", "greedy", "random")
    assert set(code) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    link = Review(deal, SEAT, "random,greedy").link()
    assert link == f"{REVIEW_PAGE}?review={code}" and len(link) <= MAX_LINK


def test_the_seats_people_played_round_trip_and_get_no_bots_reasons() -> None:
    deal = played(6, bots="careful")
    assert decode(encode(deal, SEAT)).people == ()
    linked = decode(encode(deal, SEAT, "careful", [2, 1, 2]))
    assert linked.people == (1, 2)
    review = Review(linked.deal, SEAT, linked.bots, linked.people)
    moved = list(zip(review.whys, deal.movers, strict=True))
    assert all(not why for why, mover in moved if mover in (SEAT, 1, 2))
    assert any(why for why, mover in moved if mover == 3)  # the careful bot's own seat
    assert decode(review.code()).people == (1, 2)
    for wrong in ([SEAT], [4], ["1"], "12"):
        with pytest.raises(ValueError):
            encode(deal, SEAT, "careful", wrong)  # type: ignore[arg-type]


def test_a_prepared_deal_with_names_and_house_rules_round_trips() -> None:
    rules = Rules(jokers=8)
    deal = Deal(
        hands=["5S 6S 7S 9H", "2C 3C 4C 8D", "QC QD QH 6H"],
        dealer=2,
        names=["Ana", "Bo", "Cy"],
        rules=rules,
    )
    while not deal.is_over:
        play_move(deal, CarefulBot())
    linked = decode(encode(deal, 1, "careful"))
    assert linked.deal == deal and linked.deal.names == ("Ana", "Bo", "Cy")
    assert linked.deal.rules == rules and linked.deal.custom and linked.seat == 1


def test_only_a_finished_deal_has_a_code() -> None:
    with pytest.raises(ValueError, match="once it is over"):
        encode(Deal(players=4, seed=3), SEAT)


def test_a_link_too_long_is_not_offered_and_one_sentence_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    code = encode(played(4), SEAT)
    length = len(f"{REVIEW_PAGE}?review={code}")
    assert link_for(code) is not None
    monkeypatch.setattr(review_codec, "MAX_LINK", length - 1)
    assert link_for(code) is None
    sentence = link_sentence(code)
    assert sentence.startswith("This deal is too long to link") and sentence.count(".") == 1
    assert str(length) in sentence


def _pack(data: object) -> str:
    raw = zlib.compress(json.dumps(data).encode("utf-8"))
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def _data(code: str) -> dict[str, object]:
    raw = zlib.decompress(base64.urlsafe_b64decode(code + "=" * (-len(code) % 4)))
    data: dict[str, object] = json.loads(raw)
    return data


def _broken_codes() -> dict[str, str]:
    code = encode(played(4), SEAT)
    data = _data(code)
    moves = str(data["m"]).split(";")
    changed_card = dict(data, m=";".join(["meld 2H 2H 2H", *moves[1:]]))
    unfinished = dict(data, m=";".join(moves[:-3]))
    return {
        "cut short": code[: len(code) // 2],
        "a character changed": code[:10] + ("A" if code[10] != "A" else "B") + code[11:],
        "not base64": code[:5] + "!" + code[6:],
        "empty": "",
        "not zlib": base64.urlsafe_b64encode(b"not a deal at all").decode().rstrip("="),
        "not JSON": base64.urlsafe_b64encode(zlib.compress(b"{nope")).decode().rstrip("="),
        "a list": _pack([1, 2, 3]),
        "no seed": _pack({k: v for k, v in data.items() if k != "s"}),
        "another version": _pack(dict(data, v=99)),
        "a changed card": _pack(changed_card),
        "unfinished": _pack(unfinished),
        "a seat off the table": _pack(dict(data, t=7)),
        "an unknown bot": _pack(dict(data, b="cheater")),
        "a person off the table": _pack(dict(data, q=[9])),
        "people that are not seats": _pack(dict(data, q="all")),
        "huge": _pack({"pad": "0" * 500_000}),
        "far too long": "A" * 9000,
    }


@pytest.mark.parametrize("case", list(_broken_codes()))
def test_a_broken_or_tampered_code_is_refused_with_one_sentence(case: str) -> None:
    code = _broken_codes()[case]
    with pytest.raises(ReviewLinkError) as caught:
        decode(code)
    sentence = str(caught.value)
    assert sentence.startswith("This review link cannot be opened (")
    assert sentence.endswith("so the lesson's own deal is shown instead.")
    assert sentence.count(". ") == 0 and "\n" not in sentence


def test_the_query_string_gives_the_code_and_the_step() -> None:
    assert review_code("review=abc_-1&step=12") == "abc_-1"
    assert review_code("?seed=4") is None
    assert review_code("review=a&review=b") == ""
    assert review_step("review=abc&step=12") == 12
    assert review_step("review=abc&step=-1") is None and review_step("review=abc") is None


# -- issue 29: the review never faults what Hint recommended ------------------------------
def _unhinted(deal: Deal, span: TurnSpan) -> int:
    """The learner's actions after the first of turn `span` made where the careful bot, from
    that very position, would have ended the turn (worked out again move by move)."""
    position = at(deal, span.start)
    count = 0
    for move in deal.move_stack[span.start : span.end]:
        if position.actions and move.type in ("meld", "lay_off"):
            hint = CarefulBot().choose(PlayerView.of(position)).move
            count += hint.type == "end_turn"
        position.push(move)
    return count


@pytest.mark.parametrize("seed", [31, 90, 243])
def test_a_second_action_that_hint_recommends_is_never_faulted(seed: int) -> None:
    """Issue 29, item 2: following Hint, a turn with a second action (the careful bot shedding
    with death near) is not "more than you had to", and no row says both that and "you played
    what the careful bot would have played"."""
    deal = played(seed, learner="careful")
    review = Review(deal, SEAT)
    doubles = [
        i
        for i, span in enumerate(review.spans)
        if review.turn(i).yours.actions > 1 and review.turn(i).yours.status is not Status.OUT
    ]
    assert doubles, "this deal should hold a turn where the careful bot makes two actions"
    for i in range(len(review.spans)):
        turn = review.turn(i)
        assert turn.same and turn.unhinted == 0 and not turn.extra
        assert not any(line.startswith("You made ") for line in turn_lines(turn))
    summary = review.summary()
    assert summary.extra == ()
    assert not any("more than you had to in" in line for line in summary_lines(summary))


def test_a_second_action_after_a_first_of_ones_own_is_not_faulted_when_hint_plays_it() -> None:
    """The learner's first action differs from Hint's, but the second is what Hint says in that
    position (death is near: shed the highest card that fits): not counted against them."""
    deal = played(243, learner="careful")
    span = learner_turns(deal, SEAT)[13]
    working = at(deal, span.start)
    assert str(CarefulBot().choose(PlayerView.of(working)).move) == "lay_off 6 6S"
    working.push(parse_move("lay_off 3 5C"))  # not Hint's first action
    second = CarefulBot().choose(PlayerView.of(working))
    assert str(second.move) == "lay_off 6 6S" and "a second action this turn" in second.why
    seats: dict[int, Bot] = dict(bots_around(working, SEAT, "careful"))
    seats[SEAT] = CarefulBot()
    while not working.is_over:
        play_move(working, seats[working.turn])
    review = Review(working, SEAT)
    turn = review.turn(13)
    assert turn.yours.actions == 2 and turn.unhinted == 0 and not turn.extra
    assert all(span.number != 14 for span, _, _ in review.summary().extra)


@pytest.mark.parametrize("seed", [3, 4, 8])
def test_an_extra_action_where_hint_ends_the_turn_is_counted_and_never_beside_same(
    seed: int,
) -> None:
    """A greedy learner's extra actions: a turn counts exactly when one of its actions after the
    first came where the careful bot would have ended the turn (and that end is not the careful
    bot's own)."""
    deal = played(seed)
    review = Review(deal, SEAT)
    counted = 0
    for i, span in enumerate(review.spans):
        turn = review.turn(i)
        assert turn.unhinted == _unhinted(deal, span)
        expected = (
            turn.yours.actions > 1
            and turn.yours.status is not Status.OUT
            and not turn.same
            and turn.unhinted > 0
        )
        assert turn.extra == expected
        counted += expected
        lines = turn_lines(turn)
        same = "You played what the careful bot would have played here." in lines
        faulted = any(line.startswith("You made ") for line in lines)
        assert faulted == expected and not (same and faulted)
    assert len(review.summary().extra) == counted
