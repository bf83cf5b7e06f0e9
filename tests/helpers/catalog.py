"""Which strings of the kit a learner reads, and whether each is marked for the message catalog.

A string literal (or f-string) in `penang_lib/` or `widgets/` is *learner-facing prose* when,
with its HTML tags taken out, it holds two words in a row, and it is none of these:

- documentation: a docstring, or any other string standing alone as a statement;
- a programmer's error: the message of a `raise` of one of `PROGRAMMER_ERRORS` (a wrong type or
  value given to the API), a name given to one of `PROGRAMMER_CALLS` (the engine's argument
  checks), an `assert`'s message, a log or a warning;
- on a line that says why it is not for learners, in a comment `# not for learners: REASON`;
- markup: CSS declarations, a media type, a regular expression, or one of `NOT_WORDS`;
- in a module a learner never reads (`NOT_FOR_LEARNERS`: the teacher's terminal and the server).

Learner-facing prose must be an argument of `_()`, `N_()`, `ngettext()` or `pgettext()` (see
`penang_lib.i18n`).
A marked message must be a plain literal (Babel cannot read an f-string, nor a `_()` call inside
one), and a marked message is never glued to another string with `+`.

Run `python -m tests.helpers.catalog FILE...` to list what escapes in those files.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.checkout import REPO

MARKERS = frozenset({"_", "N_", "ngettext", "pgettext"})
"""The names `pybabel extract` reads by default, as `penang_lib.i18n` defines them."""

PROGRAMMER_ERRORS = frozenset(
    {
        "ArgumentTypeError",
        "AssertionError",
        "AttributeError",
        "FileNotFoundError",
        "IndexError",
        "KeyError",
        "LookupError",
        "NotImplementedError",
        "OSError",
        "RuntimeError",
        "TypeError",
        "ValueError",
    }
)
"""Exceptions that tell a programmer they misused the API: their messages are for Python users,
in English, like Python's own."""

PROGRAMMER_CALLS = frozenset(
    {
        "require_whole",
        "require_optional_whole",
        "require_seed",
        "require_flag",
        "require_text",
        "require_texts",
        "require_seats",
        "require_instance",
    }
)
"""The engine's argument checks (`penang_lib.engine.validate`): the names given to them end up in
a programmer's error."""

PRAGMA = "# not for learners:"
"""A comment that exempts the strings on its line; the reason follows it."""

LOG_CALLS = frozenset({"debug", "info", "warning", "error", "exception", "critical", "warn"})
LOG_OWNERS = frozenset({"log", "logger", "logging", "LOG", "LOGGER", "warnings", "self.log"})

NOT_FOR_LEARNERS: dict[str, str] = {
    "penang_lib/cli": "the command line, for a teacher or a Python user at a terminal",
    "penang_lib/site/serve.py": "the `serve` command's start-up lines, on the teacher's terminal",
    "penang_lib/site/patches.py": "the server's checks of Voila, written to its log",
    "penang_lib/site/proxy.py": "the entry for jupyter-server-proxy, read by the Jupyter server",
    "penang_lib/site/settings.py": "Voila's settings",
    "penang_lib/engine/compiled.py": "which build of the engine runs, for a Python user",
    "penang_lib/engine/validate.py": "the engine's checks of its arguments, for a Python user",
    "penang_lib/engine/fast": "bit-mask internals that say nothing to anyone",
    "penang_lib/tables/journal.py": "the tables' journal: SQL, read by SQLite",
}
"""Folders and modules whose strings no learner reads, each with the reason."""

NOT_WORDS = frozenset(
    {
        # the font stack of the charts and cards
        "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif",
    }
)
"""Literals that look like two words but are not words for anyone to read."""

_TAG = re.compile(r"<[^<>]*>|<[^<>]*$|^[^<>]*>")
_ENTITY = re.compile(r"&[#a-zA-Z0-9]+;")
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_PROSE = re.compile(r"[A-Za-z]{2,}[,.:;!?'\u2019)]* +[(\u2018'\"]?[A-Za-z]")
_CSS = re.compile(r"^\s*([-a-z]+\s*:\s*[^;:]+;?\s*)+$")
_MIME = re.compile(r"^[a-z]+/[-+.\w]+(;\s*[-\w]+=[-\w]+)*$")


@dataclass(frozen=True)
class Escape:
    """A learner-facing string that the catalog does not take, and why."""

    path: str
    line: int
    text: str
    why: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.why}: {self.text[:90]!r}"


def relative(path: Path) -> str:
    try:
        return path.resolve().relative_to(REPO).as_posix()
    except ValueError:
        return path.as_posix()


def for_learners(path: Path) -> bool:
    name = relative(path)
    return not any(name == p or name.startswith(p + "/") for p in NOT_FOR_LEARNERS)


def text_of(node: ast.AST) -> str | None:
    """The words of a string literal, an f-string's values written `{}`; None for other nodes."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(
            v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else "{}"
            for v in node.values
        )
    return None


def is_prose(text: str) -> bool:
    words = _ENTITY.sub(" ", _TAG.sub(" ", _PLACEHOLDER.sub("x", text)))
    if text in NOT_WORDS or _CSS.match(words) or _MIME.match(text):
        return False
    return bool(_PROSE.search(words))


def _name(func: ast.AST) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        owner = _name(func.value)
        return f"{owner}.{func.attr}" if owner else func.attr
    return ""


def _parents(tree: ast.AST) -> dict[int, ast.AST]:
    parents: dict[int, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
    return parents


def _ancestors(node: ast.AST, parents: dict[int, ast.AST]) -> Iterator[ast.AST]:
    while id(node) in parents:
        node = parents[id(node)]
        yield node


def _exempt_roots(tree: ast.AST) -> Iterator[ast.AST]:
    """The nodes under which no string is for a learner: documentation, programmer errors,
    assertions, logs and regular expressions."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and text_of(node.value) is not None:
            yield node  # a docstring, or a string standing alone as documentation
        elif isinstance(node, ast.Raise) and node.exc is not None:
            exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            if _name(exc).split(".")[-1] in PROGRAMMER_ERRORS:
                yield node
        elif isinstance(node, ast.Assert) and node.msg is not None:
            yield node.msg
        elif isinstance(node, ast.Call):
            name = _name(node.func)
            owner, _, call = name.rpartition(".")
            logged = call in LOG_CALLS and owner in LOG_OWNERS
            if logged or call in PROGRAMMER_CALLS or owner == "re":
                yield node


def escapes(path: Path) -> list[Escape]:
    """The learner-facing strings of the module at `path` that escape the catalog."""
    if not for_learners(path):
        return []
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    lines = source.splitlines()
    parents = _parents(tree)
    exempt = {id(n) for root in _exempt_roots(tree) for n in ast.walk(root)}
    name = relative(path)
    found: list[Escape] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _name(node.func) in MARKERS:
            literal = any(isinstance(a, ast.Constant) for a in node.args[:2])
            if literal and any(isinstance(a, ast.JoinedStr) for a in _ancestors(node, parents)):
                found.append(
                    Escape(name, node.lineno, ast.unparse(node), "marked inside an f-string")
                )
            for arg in node.args[:2]:
                if isinstance(arg, ast.JoinedStr | ast.BinOp):
                    found.append(
                        Escape(name, node.lineno, ast.unparse(arg), "marked, but not a literal")
                    )
            continue
        text = text_of(node)
        if text is None or id(node) in exempt or not isinstance(node, ast.expr):
            continue
        end = node.end_lineno or node.lineno
        if any(PRAGMA in lines[n - 1] for n in range(node.lineno, end + 1)):
            continue
        parent = parents.get(id(node))
        if isinstance(parent, ast.JoinedStr):
            continue  # a piece of an f-string: the f-string is judged whole
        if isinstance(parent, ast.Call) and _name(parent.func) in MARKERS:
            glued = parents.get(id(parent))
            if isinstance(glued, ast.BinOp) and isinstance(glued.op, ast.Add):
                found.append(Escape(name, node.lineno, text, "marked, but glued with +"))
            continue
        if is_prose(text):
            found.append(Escape(name, node.lineno, text, "not marked for the catalog"))
    return sorted(found, key=lambda e: e.line)


def scanned_files() -> list[Path]:
    """Every module of `penang_lib/` and `widgets/`, the widgets once (from their folder)."""
    files = [
        path
        for top in ("penang_lib", "widgets")
        for path in (REPO / top).rglob("*.py")
        if "__pycache__" not in path.parts
        and path.parts[len(REPO.parts) : len(REPO.parts) + 2] != ("penang_lib", "widgets")
    ]
    return sorted(files)


def marked_messages(path: Path) -> set[str]:
    """The messages `path` marks with `_()`, `N_()`, `ngettext()` or `pgettext()` (whose first
    argument is the context, not a message)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        arg.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and _name(node.func) in MARKERS
        for arg in (node.args[1:2] if _name(node.func) == "pgettext" else node.args[:2])
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str)
    }


def main(argv: list[str]) -> int:
    paths = [Path(a) for a in argv] or scanned_files()
    found = [e for p in paths for e in escapes(p)]
    for escape in found:
        print(escape)
    print(f"{len(found)} learner-facing strings escape the catalog", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))


# -- the site's templates ---------------------------------------------------------------------
# The landing page, the rule sheet and the error page are rendered by Voila's Jinja environment,
# which has Jinja's i18n extension: their words are marked in the template, `{{ _("...") }}` or
# `{% trans %}...{% endtrans %}`. A lesson page's template gets its words from Python
# (`resources.words`, `penang_lib.site.words`). What is left of a template once its comments,
# expressions, tags and marked words are taken out must hold no words, nor may its scripts' strings
# (but those a script hands to the page's DOM functions: selectors, element and attribute names).

TEMPLATES = REPO / "penang_lib" / "site" / "jupyter" / "voila" / "templates"
_COMMENT = re.compile(r"\{#.*?#\}", re.S)
_STYLE = re.compile(r"(<style[^>]*>)(.*?)(</style>)", re.S)
_SCRIPT = re.compile(r"(<script[^>]*>)(.*?)(</script>)", re.S)
_JS_COMMENT = re.compile(r"/\*.*?\*/|(?<![:\\])//[^\n]*", re.S)
_JS_STRING = re.compile(r""""(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'""")
_DOM_CALL = re.compile(
    r"(querySelector|querySelectorAll|closest|getElementById|createElement|setAttribute|"
    r"getAttribute|classList\.contains|addEventListener|removeItem|getItem|RegExp)\(\s*$"
)
_NAMED = re.compile(r"""\s(?:aria-label|title|alt|placeholder)\s*=\s*"([^"]*)\"""")


def template_files() -> list[Path]:
    """The site's page templates."""
    return sorted(p for p in TEMPLATES.rglob("*") if p.suffix in (".html", ".j2"))


def _blank(match: re.Match[str]) -> str:
    return re.sub(r"[^\n]", " ", match.group(0))


def _script_words(script: str) -> list[tuple[int, str]]:
    """The strings of a script that hold words: (offset, text)."""
    code = _JS_COMMENT.sub(_blank, script)
    found = []
    for string in _JS_STRING.finditer(code):
        if _DOM_CALL.search(code[: string.start()][-40:]):
            continue
        text = string.group(0)[1:-1]
        if is_prose(text):
            found.append((string.start(), text))
    return found


def template_escapes(path: Path) -> list[Escape]:
    """The words of the template at `path` that escape the catalog."""
    import jinja2  # Voila's own dependency, there wherever the site runs

    source = _COMMENT.sub(_blank, path.read_text(encoding="utf-8"))
    name = relative(path)
    found: list[Escape] = []
    for script in _SCRIPT.finditer(source):
        if "application/json" in script.group(1):
            continue
        for offset, text in _script_words(script.group(2)):
            line = source.count("\n", 0, script.start(2) + offset) + 1
            found.append(Escape(name, line, text, "a script's words not from the catalog"))
    markup = _SCRIPT.sub(_blank, _STYLE.sub(_blank, source))
    env = jinja2.Environment(extensions=["jinja2.ext.i18n", "jinja2.ext.do"])
    in_trans = False
    after_block = False
    for line, kind, value in env.lex(markup):
        if kind == "whitespace":
            continue
        if kind == "block_begin":
            after_block = True
            continue
        if kind == "name" and after_block:
            in_trans = {"trans": True, "endtrans": False}.get(value, in_trans)
        after_block = False
        if kind != "data" or in_trans:
            continue
        for label in _NAMED.finditer(value):
            if is_prose(label.group(1)):
                at = line + value.count("\n", 0, label.start())
                found.append(Escape(name, at, label.group(1), "an attribute's words not marked"))
        if is_prose(value):
            text = " ".join(_TAG.sub(" ", value).split())
            words = _PROSE.search(_TAG.sub(lambda m: " " * len(m.group(0)), value))
            at = line + value.count("\n", 0, words.start() if words else 0)
            found.append(Escape(name, at, text, "words not marked in the template"))
    return sorted(found, key=lambda e: e.line)
