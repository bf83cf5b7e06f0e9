"""The progress kept in a learner's browser: its stored form, its updates, and stored text that
does not read (refused with one sentence, nothing written)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from penang_lib.course import progress as pg
from penang_lib.course.progress import (
    DealPlayed,
    Kept,
    LessonOpened,
    ProgressError,
    PuzzleSolved,
    QuizScore,
    QuizScored,
)
from tests.helpers.progress import BAD_TEXTS, GOOD_TEXTS, stored


def test_nothing_stored_is_a_fresh_start_and_a_lesson_opened_is_kept() -> None:
    text = pg.apply(None, [LessonOpened("03_turns_and_passport.ipynb")])
    kept = pg.read(text)
    assert kept.lessons == ("03_turns_and_passport.ipynb",)
    assert kept.last == "03_turns_and_passport.ipynb"
    assert (kept.quizzes, kept.puzzles, kept.played, kept.won) == ({}, (), 0, 0)
    assert json.loads(text)["version"] == pg.VERSION


def test_the_stored_form_reads_back_to_the_same_progress() -> None:
    kept = pg.read(stored())
    assert pg.read(pg.write(kept)) == kept
    assert kept.quizzes["02_melds.ipynb"] == QuizScore(3, 5)
    assert (kept.played, kept.won, kept.puzzles) == (2, 1, ("lay-off-0012",))


def test_a_lesson_is_kept_once_in_the_order_first_opened_and_the_last_page_follows() -> None:
    text = pg.apply(
        None,
        [LessonOpened("02_melds.ipynb"), LessonOpened("01_deck_and_deal.ipynb")],
    )
    text = pg.apply(text, [LessonOpened("02_melds.ipynb")])
    kept = pg.read(text)
    assert kept.lessons == ("02_melds.ipynb", "01_deck_and_deal.ipynb")
    assert kept.last == "02_melds.ipynb"


@pytest.mark.parametrize(
    ("new", "kept"),
    [
        ((4, 5), (4, 5)),  # better: kept
        ((2, 5), (3, 5)),  # worse: the best stays
        ((3, 5), (3, 5)),  # the same
        ((5, 6), (5, 6)),  # a larger share out of a changed quiz
        ((1, 2), (3, 5)),  # a smaller share
        ((0, 5), (3, 5)),
    ],
)
def test_a_quiz_score_is_kept_only_when_it_is_better(
    new: tuple[int, int], kept: tuple[int, int]
) -> None:
    text = pg.apply(stored(), [QuizScored("02_melds.ipynb", *new)])
    assert pg.read(text).quizzes["02_melds.ipynb"] == QuizScore(*kept)


def test_a_first_quiz_score_is_kept_even_when_nothing_is_right() -> None:
    kept = pg.read(pg.apply(stored(), [QuizScored("05_swaps.ipynb", 0, 4)]))
    assert kept.quizzes["05_swaps.ipynb"] == QuizScore(0, 4)
    assert kept.quizzes["02_melds.ipynb"] == QuizScore(3, 5)  # the others are untouched


def test_a_puzzle_is_kept_once_and_deals_count_played_and_won() -> None:
    updates: list[pg.Update] = [
        PuzzleSolved("swap-0003"),
        PuzzleSolved("lay-off-0012"),  # solved before
        DealPlayed(won=True),
        DealPlayed(won=False),
    ]
    kept = pg.read(pg.apply(stored(), updates))
    assert kept.puzzles == ("lay-off-0012", "swap-0003")
    assert (kept.played, kept.won) == (4, 2)


@pytest.mark.parametrize(("text", "code"), BAD_TEXTS)
def test_stored_text_that_does_not_read_is_refused_with_one_sentence(text: str, code: str) -> None:
    with pytest.raises(ProgressError) as caught:
        pg.apply(text, [LessonOpened("03_turns_and_passport.ipynb")])
    assert caught.value.code == code
    sentence = str(caught.value)
    assert sentence == pg.unreadable(code) and sentence.endswith("so it is left as it is.")
    assert sentence.count(". ") == 0, "one sentence"


def test_a_good_stored_text_with_an_empty_last_page_reads() -> None:
    kept = pg.read(GOOD_TEXTS[1])
    assert kept == Kept(played=2, won=1)


def test_a_whole_number_written_with_a_decimal_point_reads_as_that_number() -> None:
    kept = pg.read(GOOD_TEXTS[2])
    assert kept.played == 2 and type(kept.played) is int
    assert '"played":2,' in pg.write(kept)


@pytest.mark.parametrize(
    "make",
    [
        lambda: LessonOpened("../../etc/passwd"),
        lambda: LessonOpened("02_melds"),
        lambda: QuizScored("02_melds.ipynb", 6, 5),
        lambda: QuizScored("02_melds.ipynb", 1, 0),
        lambda: PuzzleSolved("Not An Id"),
        lambda: DealPlayed(won=1),  # type: ignore[arg-type]
        lambda: QuizScored("02_melds.ipynb", "3", 5),  # type: ignore[arg-type]
    ],
)
def test_a_bad_update_is_refused_when_it_is_made(make: Any) -> None:
    with pytest.raises(ValueError):
        make()


def test_only_updates_of_the_module_are_applied() -> None:
    with pytest.raises(TypeError):
        pg.apply(None, ["lesson opened"])  # type: ignore[list-item]


def test_the_landing_page_settings_carry_every_sentence_and_the_checks() -> None:
    settings = pg.landing_settings()
    assert settings["key"] == pg.STORAGE_KEY and settings["version"] == pg.VERSION
    assert set(settings["sentences"]) == set(pg.SENTENCES)
    assert settings["keys"] == list(pg.KEYS) == list(json.loads(pg.write(Kept())))
    json.dumps(settings)  # the page gets them as JSON


@pytest.mark.parametrize(
    ("base_url", "key"),
    [
        ("/", "penang-rummy-progress"),
        ("", "penang-rummy-progress"),
        ("user/alice/", "penang-rummy-progress"),  # not a path: as "/"
        ("/penang/", "penang-rummy-progress@/penang/"),
        ("/user/alice/penang/", "penang-rummy-progress@/user/alice/penang/"),
        ("/user/alice/penang", "penang-rummy-progress@/user/alice/penang/"),
        ("/user/bob/penang/", "penang-rummy-progress@/user/bob/penang/"),
    ],
)
def test_the_progress_is_kept_under_a_name_of_the_sites_base_url(base_url: str, key: str) -> None:
    """Two users of one JupyterHub share the hub's address, and so the browser's localStorage:
    each site keeps its progress under a name of its own base URL (issue 29, item 16)."""
    assert pg.storage_key(base_url) == key


def test_two_users_of_one_hub_keep_their_progress_apart_and_a_site_at_the_root_keeps_its_own() -> (
    None
):
    alice, bob = pg.storage_key("/user/alice/penang/"), pg.storage_key("/user/bob/penang/")
    assert alice != bob and pg.STORAGE_KEY not in (alice, bob)
    assert pg.storage_key() == pg.STORAGE_KEY  # a site at "/" finds what it kept before
    with pytest.raises(TypeError):
        pg.storage_key(None)  # type: ignore[arg-type]
