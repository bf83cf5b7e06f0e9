"""Every sentence a learner reads is in the message catalog that `pybabel extract` writes.

The words are marked with `penang_lib.i18n` (`_`, `N_`, `ngettext`), and in the site's page
templates with Jinja's i18n extension; `tests/helpers/catalog.py` says which strings are
learner-facing. Here Babel extracts the catalog from `penang_lib/` and `widgets/` for real, as
`tools/babel.cfg` says, and the test fails when a learner-facing string escapes it, when a message
has an unnamed placeholder or loose spaces at its ends (a sign of a sentence glued from
fragments), or when a plural's two forms do not hold the same placeholders.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from penang_lib.i18n import N_, _, ngettext, pgettext
from penang_lib.site.words import PAGE_WORDS
from tests.checkout import REPO
from tests.helpers.catalog import (
    escapes,
    is_prose,
    marked_messages,
    scanned_files,
    template_escapes,
    template_files,
)

_UNNAMED = re.compile(r"\{\}|\{\d+\}|%[sdrif]")
"""An unnamed placeholder; Jinja's `{% trans %}` writes named ones as `%(name)s`."""
_FIELD = re.compile(r"\{(\w+)[^{}]*\}")


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    """The catalog `pybabel extract` writes for the kit, read back."""
    pot = tmp_path_factory.mktemp("catalog") / "messages.pot"
    command = [sys.executable, "-m", "babel.messages.frontend", "extract", "--no-location"]
    command += ["-F", str(REPO / "tools" / "babel.cfg")]
    command += ["--project", "penang-rummy", "-o", str(pot), "penang_lib", "widgets"]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    with pot.open("rb") as file:
        return read_po(file)


def msgids(catalog: Catalog) -> list[str]:
    """Each message and each plural form the catalog holds."""
    ids: list[str] = []
    for message in catalog:
        if not message.id:
            continue  # the catalog's header
        ids.extend(str(m) for m in (message.id if isinstance(message.id, tuple) else [message.id]))
    return ids


def test_no_learner_facing_string_escapes_the_catalog() -> None:
    found = [str(e) for path in scanned_files() for e in escapes(path)]
    assert found == [], f"{len(found)} strings escape the catalog:\n" + "\n".join(found[:80])


def test_no_word_of_the_sites_pages_escapes_the_catalog() -> None:
    assert len(template_files()) >= 5
    found = [str(e) for path in template_files() for e in template_escapes(path)]
    assert found == [], "\n".join(found)


def test_babel_extracts_the_words_of_the_sites_pages(catalog: Catalog) -> None:
    extracted = set(msgids(catalog))
    # the rule sheet's and the landing page's own words, and a lesson page's chrome
    assert "Taught in lesson %(order)s, %(title)s" in extracted
    assert 'Puzzles solved: <span class="solved">0</span> of %(total)s' in extracted
    assert "Deals played against the bots: {played}, won: {won}." in extracted
    assert set(PAGE_WORDS.values()) <= extracted


def test_the_template_check_sees_what_escapes(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text(
        "{# a comment with words in it #}\n"
        "<style>body { font: 16px system-ui, sans-serif; }</style>\n"
        '<nav aria-label="the site\'s pages">{{ _("All lessons") }}</nav>\n'
        "<p>{% trans n=3 %}You have {{ n }} cards.{% endtrans %}</p>\n"
        "<p>Nobody marked this sentence.</p>\n"
        "<script>\n"
        "  // a script comment\n"
        '  var box = document.querySelector("section.progress .note");\n'
        '  box.textContent = "Glued from " + count + " words";\n'
        "</script>\n",
        encoding="utf-8",
    )
    assert [(e.line, e.why) for e in template_escapes(page)] == [
        (3, "an attribute's words not marked"),
        (5, "words not marked in the template"),
        (9, "a script's words not from the catalog"),
    ]


def test_babel_extracts_every_marked_message(catalog: Catalog) -> None:
    extracted = set(msgids(catalog))
    marked = {m for path in scanned_files() for m in marked_messages(path)}
    assert len(marked) > 300  # the engine's rule sentences, the widgets' words, the course's
    assert sorted(marked - extracted) == []


def test_messages_have_named_placeholders_and_no_loose_ends(catalog: Catalog) -> None:
    unnamed = [m for m in msgids(catalog) if _UNNAMED.search(m)]
    assert unnamed == [], "name every placeholder: {card}, not {} or %s"
    loose = [m for m in msgids(catalog) if m != m.strip()]
    assert loose == [], "a message with a space at an end was glued to another one"


def test_both_forms_of_a_plural_hold_the_same_placeholders(catalog: Catalog) -> None:
    plurals = [m.id for m in catalog if m.id and isinstance(m.id, tuple)]
    assert plurals, "plurals go through ngettext"
    for singular, plural in plurals:
        assert set(_FIELD.findall(singular)) == set(_FIELD.findall(plural)), (singular, plural)


def test_the_markers_return_the_english_until_a_catalog_is_installed() -> None:
    assert _("Your turn.") == "Your turn."
    assert N_("Your turn.") == "Your turn."
    assert ngettext("{count} card", "{count} cards", 1).format(count=1) == "1 card"
    assert ngettext("{count} card", "{count} cards", 3).format(count=3) == "3 cards"
    assert pgettext("who deals next", "Next") == "Next"


def test_a_word_with_two_meanings_is_kept_apart_by_its_context(catalog: Catalog) -> None:
    # the match sheet's column "Next" (who deals next) and the stepper's button "Next"
    assert catalog.get("Next", context="who deals next") is not None
    assert catalog.get("Next") is not None


def test_the_check_sees_what_escapes(tmp_path: Path) -> None:
    # The first test can fail: an unmarked sentence, an f-string in _() and a marked message
    # glued to another are each found; a docstring, a programmer's error, an exempted line,
    # markup and a marked sentence are not.
    module = tmp_path / "words.py"
    module.write_text(
        '"""A module docstring, not for learners."""\n'
        "from penang_lib.i18n import _, N_\n"
        "SHOWN = N_('A marked sentence for later.')\n"
        "def f(card: str) -> str:\n"
        "    '''A docstring.'''\n"
        "    if not card:\n"
        "        raise ValueError('card should be a card, not empty')\n"
        "    style = 'display: flex; gap: 4px'\n"
        "    html = '<div class=\"x y\">'\n"
        "    kept = 'Played for the log.'  # not for learners: the server's log\n"
        "    said = _('You lay off {card}.').format(card=card)\n"
        "    bad = f'You played {card} too.'\n"
        "    worse = _(f'You hold {card} now.')\n"
        "    glued = _('You hold') + ' ' + card\n"
        "    hidden = f\"<p>{_('Not a meld.')}</p>\"\n"
        "    return style + html + kept + said + bad + worse + glued + hidden\n",
        encoding="utf-8",
    )
    found = escapes(module)
    assert [(e.line, e.why) for e in found] == [
        (12, "not marked for the catalog"),
        (13, "marked, but not a literal"),
        (14, "marked, but glued with +"),
        (15, "marked inside an f-string"),
    ]


@pytest.mark.parametrize(
    ("text", "prose"),
    [
        ("You lay off 9♠ on West's set.", True),
        ("{player} wins the deal", True),
        ('<p class="note"><strong>Not a meld.</strong></p>', True),
        ('<div class="penang-svg-chart" role="img">', False),
        ("display: flex; flex-wrap: wrap", False),
        ("application/javascript; charset=UTF-8", False),
        ("8H", False),
        ("lay_off", False),
    ],
)
def test_what_counts_as_words(text: str, prose: bool) -> None:
    assert is_prose(text) is prose
