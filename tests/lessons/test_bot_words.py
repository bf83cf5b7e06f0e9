"""The bots' reasons speak the lessons' words (issue 29, item 3): every reason a bot gives is
whole sentences in words the lessons' text uses. It reads the lessons, so it lives with them
(the engine's own tests also run on the compiled wheel, where no lesson is at hand)."""

from __future__ import annotations

import json
import re
from collections import Counter

from penang_lib.engine.bots import play_deal_explained
from tests.checkout import REPO

UNTAUGHT = ("unseen", "opens the table", "smallest", "feeds", "feed nobody", "spare turn")
"""Phrasings the bots used that no lesson teaches (issue 29, item 3)."""
PLAIN = {"i", "me", "am", "fewest", "less", "nowhere", "higher"}
"""Ordinary words the bots' reasons may use although no lesson happens to write them."""


def _lesson_words() -> set[str]:
    words: set[str] = set()
    for path in sorted((REPO / "notebooks" / "lessons").glob("*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "markdown":
                words.update(re.findall(r"[a-z]+", "".join(cell["source"]).lower()))
    return words


def test_every_reason_is_whole_sentences_in_words_the_lessons_teach() -> None:
    """Every reason the careful, greedy and random bots give in many deals (3 to 5 players,
    each bot alone and mixed) is one or more whole sentences (a capital first, a full stop
    last, every placeholder filled), avoids the phrasings nobody taught, and uses only words
    the lessons' text uses (or a few ordinary ones)."""
    taught = _lesson_words() | PLAIN
    whys: set[str] = set()
    for bots in ("careful", "greedy", "careful,greedy,random"):
        for players in (3, 4, 5):
            for seed in range(25):
                whys.update(c.why for c in play_deal_explained(seed, players, bots)[1])
    starts = Counter(why.split(":")[0].split()[0] for why in whys)
    assert {"Careful", "Greedy", "Random", "My", "I"} <= set(starts), starts
    assert any("a second action this turn" in why for why in whys)
    for why in whys:
        assert why[0].isupper() and why.endswith("."), why
        assert "{" not in why and "}" not in why and "  " not in why, why
        for sentence in re.split(r"(?<=[.!?]) ", why):
            assert sentence[0].isupper() and sentence.endswith("."), (sentence, why)
        lowered = why.lower()
        assert not any(phrase in lowered for phrase in UNTAUGHT), why
        unknown = set(re.findall(r"[a-z]+", lowered)) - taught
        assert not unknown, (unknown, why)
