"""The words of a lesson page's chrome, around the notebook: its links to the other pages, the
accessible names the page's script gives to controls ipywidgets leaves unnamed, and the note shown
when the lesson's kernel has stopped.

A lesson page is rendered by nbconvert's template environment, which has no gettext: its words
reach the template as `resources.words` (`settings` puts them there), marked here for the catalog.
The site's other pages (the landing page, the rule sheet, the error page) are rendered by Voila's
own environment, which has Jinja's i18n extension: they mark their words in the template itself.
"""

from __future__ import annotations

from penang_lib.i18n import N_, _

PAGE_WORDS: dict[str, str] = {
    "site": N_("Site"),
    "all_lessons": N_("All lessons"),
    "rule_sheet": N_("Rule sheet and glossary"),
    "play": N_("Play"),
    "pause": N_("Pause"),
    "stop": N_("Stop"),
    "repeat": N_("Repeat"),
    "slider": N_("slider"),
    "stopped": N_(
        "This lesson has stopped on the server (it was left idle for a long time, or something "
        "went wrong), so its buttons no longer answer."
    ),
    "reload": N_("Reload the page"),
    "reload_to_start": N_("{reload} to start it again."),
}
"""Each word of a lesson page's chrome by its key in the template (`resources.words.KEY`)."""


def page_words() -> dict[str, str]:
    """The chrome's words in the learner's language."""
    return {key: _(text) for key, text in PAGE_WORDS.items()}
