"""Findings and the report: `Finding`, its `KINDS`, the figures of a run (`FuzzReport`),
the deal being fuzzed that findings are written from (`FuzzRun`), and the short
reproducer printed for each group of findings."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from penang_lib import (
    Deal,
    Rules,
    parse_move,
)
from penang_lib.engine.moves import Move
from tools.fuzz.contract import judge_refusal, outcome, where
from tools.fuzz.state import (
    DEFAULT_RULES,
    DealState,
    Variant,
    new_deal,
    replay,
    snapshot,
    state_diff,
)
from tools.fuzz.tries import FakeMove, raw_move, seat_type_ok, well_formed

EXAMPLES: Final = 3
"""Findings kept per signature (all of them are counted)."""
REPRODUCE_BUDGET: Final = 20_000
"""Pushes the reproducer search may spend per finding looking for a shorter move prefix."""


# -- findings and the report -------------------------------------------------------------------
@dataclass(frozen=True)
class Finding:
    """Something the engine got wrong, with what is needed to reproduce it.

    `kind` says what went wrong (see `KINDS`), `label` which try or check, `detail` how, in one
    line. `prefix` holds the moves (text form) pushed before the try; `code` is the try's Python
    source (empty for a check at the end of a deal).
    """

    kind: str
    label: str
    detail: str
    signature: str
    seed: int
    index: int
    deal_seed: int
    players: int
    dealer: int
    rules: dict[str, Any]
    variant: str
    prefix: tuple[str, ...] = ()
    code: str = ""
    player_code: str = ""


KINDS: Final = {
    "escaped": "a refused move raised an error outside the contract (not IllegalMove, TypeError "
    "or CardParseError)",
    "internal": "a TypeError that Python raised from deep inside, not one the engine raised itself",
    "wrong-error": "refused with an error of the contract, but not the one the contract names",
    "message": "an IllegalMove that names no rule of the rule book, or says nothing",
    "changed": "a refused move changed the deal",
    "accepted": "a move that must be refused was accepted",
    "construct": "building a move (a constructor or parse_move) failed with an error outside "
    "the contract",
    "consistency": "is_legal disagrees with push",
    "pop": "pop() did not restore the state",
    "bot": "a bot failed, or its move was refused",
    "ply": "a move changed what it should not have",
    "conservation": "cards were lost or duplicated",
    "table": "an illegal meld lies on the table",
    "end": "the deal ended wrongly, or statuses disagree with the hands",
    "scores": "the scores disagree with the hands",
    "winners": "the winners disagree with the scores",
    "record": "the record does not replay to the same deal",
    "endless": "the deal did not end",
}
"""What each kind of finding means."""


@dataclass
class FuzzReport:
    """The figures of a fuzz run and its findings (the first few of each signature)."""

    deals: int = 0
    players: Counter[int] = field(default_factory=Counter)
    features: Counter[str] = field(default_factory=Counter)
    bots: Counter[str] = field(default_factory=Counter)
    endings: Counter[str] = field(default_factory=Counter)
    legal_moves: int = 0
    illegal_tries: int = 0
    illegal_legal: int = 0
    """Well-formed tries that were legal after all (pushed, checked and taken back)."""
    garbage_tries: int = 0
    listed_tries: int = 0
    """Moves taken from `legal_moves` (not the bot's view), pushed, checked and taken back."""
    refused_at_constructor: int = 0
    """Garbage tries that a move's constructor refused (with TypeError or ValueError)."""
    replays: int = 0
    pop_walks: int = 0
    finding_counts: Counter[str] = field(default_factory=Counter)
    findings: list[Finding] = field(default_factory=list)
    seconds: float = 0.0
    jobs: int = 1
    seed: int = 0

    @property
    def total_findings(self) -> int:
        return sum(self.finding_counts.values())

    @property
    def ok(self) -> bool:
        return self.total_findings == 0

    @property
    def deals_per_second(self) -> float:
        return self.deals / self.seconds if self.seconds else 0.0

    def add(self, finding: Finding) -> None:
        self.finding_counts[finding.signature] += 1
        if self.finding_counts[finding.signature] <= EXAMPLES:
            self.findings.append(finding)

    def merge(self, other: FuzzReport) -> None:
        """Add another report's figures and findings (keeping the first few per signature)."""
        self.deals += other.deals
        self.players.update(other.players)
        self.features.update(other.features)
        self.bots.update(other.bots)
        self.endings.update(other.endings)
        self.legal_moves += other.legal_moves
        self.illegal_tries += other.illegal_tries
        self.illegal_legal += other.illegal_legal
        self.garbage_tries += other.garbage_tries
        self.listed_tries += other.listed_tries
        self.refused_at_constructor += other.refused_at_constructor
        self.replays += other.replays
        self.pop_walks += other.pop_walks
        self.finding_counts.update(other.finding_counts)
        kept: Counter[str] = Counter()
        findings = []
        for finding in sorted([*self.findings, *other.findings], key=lambda f: f.index):
            kept[finding.signature] += 1
            if kept[finding.signature] <= EXAMPLES:
                findings.append(finding)
        self.findings = findings

    def groups(self) -> list[tuple[str, int, Finding]]:
        """Each signature with its count and first example, the most frequent first."""
        first: dict[str, Finding] = {}
        for finding in self.findings:
            first.setdefault(finding.signature, finding)
        return sorted(
            ((sig, n, first[sig]) for sig, n in self.finding_counts.items() if sig in first),
            key=lambda item: (-item[1], item[2].index, item[0]),
        )

    def figures(self) -> str:
        """The figures of the run, a few lines of text."""
        n = max(self.deals, 1)
        players = "  ".join(f"{p}: {c:,}" for p, c in sorted(self.players.items()))
        features = ", ".join(f"{k} {v:,}" for k, v in sorted(self.features.items()))
        bots = ", ".join(f"{k} {v:,}" for k, v in sorted(self.bots.items()))
        endings = ", ".join(f"{k} {v:,}" for k, v in sorted(self.endings.items()))
        lines = [
            f"deals: {self.deals:,} (seed {self.seed}, {self.jobs} job{'s' * (self.jobs != 1)}) "
            f"in {self.seconds:.1f} s: {self.deals_per_second:.1f} deals/s",
            f"players: {players}",
            f"variants (deals): {features}",
            f"bots (seats): {bots}",
            f"deals ended: {endings}",
            f"legal moves: {self.legal_moves:,} ({self.legal_moves / n:.1f} per deal)",
            f"illegal tries: {self.illegal_tries:,} ({self.illegal_legal:,} of them legal after "
            "all: pushed, checked and taken back)",
            f"garbage tries: {self.garbage_tries:,} "
            f"({self.refused_at_constructor:,} refused by a move's constructor)",
            f"legal_moves entries pushed and taken back: {self.listed_tries:,}",
            f"end checks: {self.deals:,} deals, {self.replays:,} records replayed, "
            f"{self.pop_walks:,} pop walks to the start",
            f"findings: {self.total_findings:,} ({len(self.finding_counts)} distinct)",
        ]
        return "\n".join(lines)

    def findings_text(self, reproduce: bool = True) -> str:
        """Every group of findings with its first example and a reproducer."""
        out = []
        for signature, count, example in self.groups():
            out.append(f"[{count:,}x] {example.kind}: {example.label}")
            out.append(f"    {example.detail}")
            out.append(f"    signature: {signature}")
            out.append(
                f"    first in deal {example.index} (deal seed {example.deal_seed}): "
                f"{example.variant}"
            )
            if reproduce:
                for line in reproducer(example).splitlines():
                    out.append(f"    | {line}")
        return "\n".join(out)


# -- one deal ------------------------------------------------------------------------------------
class FuzzRun:
    """One fuzzed deal in progress: the deal, its variant and the report it adds to."""

    def __init__(self, variant: Variant, report: FuzzReport) -> None:
        self.variant = variant
        self.report = report
        self.deal = new_deal(variant)
        self.moves: list[Move] = []

    def finding(
        self,
        kind: str,
        label: str,
        detail: str,
        key: str = "",
        code: str = "",
        player_code: str = "",
    ) -> None:
        """Count a finding; keep it whole only while its signature has few examples."""
        signature = f"{kind} | {label} | {key}" if key else f"{kind} | {label}"
        report = self.report
        report.finding_counts[signature] += 1
        if report.finding_counts[signature] > EXAMPLES:
            return
        v = self.variant
        report.findings.append(
            Finding(
                kind=kind,
                label=label,
                detail=detail[:300],
                signature=signature,
                seed=v.seed,
                index=v.index,
                deal_seed=v.deal_seed,
                players=v.players,
                dealer=self.deal.dealer,
                rules=v.rules.as_dict(),
                variant=v.describe(),
                prefix=tuple(str(m) for m in self.moves) if code else (),
                code=code,
                player_code=player_code,
            )
        )

    def rebuild(self, before: DealState, why: str) -> bool:
        """Replay the deal's moves after a try broke it; False when even that differs."""
        try:
            self.deal = replay(self.variant, self.moves)
        except Exception as error:
            self.finding("pop", "replay after a broken try", f"{why}; replay raised {error!r}")
            return False
        if snapshot(self.deal) != before:
            diff = state_diff(snapshot(self.deal), before)
            self.finding("pop", "replay after a broken try", f"{why}; replay differs in {diff}")
            return False
        return True


# -- reproducers ---------------------------------------------------------------------------------
def namespace() -> dict[str, Any]:
    import penang_lib

    space: dict[str, Any] = {name: getattr(penang_lib, name) for name in penang_lib.__all__}
    space.update(FakeMove=FakeMove, raw_move=raw_move)
    return space


def _rules_code(settings: dict[str, Any]) -> str:
    default = DEFAULT_RULES.as_dict()
    parts = [f"{k}={v!r}" for k, v in settings.items() if v != default[k]]
    return f"Rules({', '.join(parts)})"


def _at(finding: Finding) -> str:
    """Where a try's finding shows: building the move, `is_legal` or `push`."""
    if finding.kind == "construct" or (
        finding.kind == "accepted" and finding.code.startswith("parse_move(")
    ):
        return "build"
    return "is_legal" if " | is_legal " in finding.signature else "push"


def _classify_again(finding: Finding, prefix: Sequence[str]) -> str | None:
    """Replay `prefix` and the finding's try; the signature it gives now (None: nothing wrong)."""
    space = namespace()
    rules = Rules.from_dict(dict(finding.rules))
    deal = Deal(players=finding.players, seed=finding.deal_seed, rules=rules, dealer=finding.dealer)
    for text in prefix:
        deal.push(parse_move(text))
    try:
        move = eval(finding.code, space)
    except Exception as error:
        return f"construct | {finding.label} | {type(error).__name__} at {where(error)}"
    if _at(finding) == "build":
        return f"accepted | {finding.label}"
    player = eval(finding.player_code, space) if finding.player_code else None
    if _at(finding) == "is_legal":
        try:
            deal.is_legal(move, player=player)
        except Exception as error:
            return f"consistency | {finding.label} | is_legal {type(error).__name__}"
        return None
    before = snapshot(deal)
    garbage = not well_formed(move) or (bool(finding.player_code) and not seat_type_ok(player))
    refusal = outcome(deal, move, player, bool(finding.player_code))
    if refusal is None:
        return f"accepted | {finding.label}" if finding.kind == "accepted" else "accepted"
    if finding.kind == "changed":
        diff = state_diff(snapshot(deal), before)
        return f"changed | {finding.label} | {','.join(diff)}" if diff else None
    problem = judge_refusal(refusal, garbage)
    return f"{problem[0]} | {finding.label} | {problem[2]}" if problem else None


def reproducer(finding: Finding) -> str:
    """A short Python snippet (or command) that shows the finding again.

    For a try, the shortest prefix of the deal's moves after which the same try gives the same
    kind of finding is looked for (from no moves at all upwards, within `REPRODUCE_BUDGET`
    pushes); for a check at the end of a deal, the command that fuzzes that deal alone.
    """
    command = f"python -m tools.fuzz --seed {finding.seed} --deal {finding.index}"
    if not finding.code:
        return command
    prefix = list(finding.prefix)
    spent = 0
    chosen = len(prefix)
    for k in range(len(prefix) + 1):
        if spent > REPRODUCE_BUDGET:
            break
        spent += k + 1
        try:
            if _classify_again(finding, prefix[:k]) == finding.signature:
                chosen = k
                break
        except Exception:
            continue
    lines = ["from penang_lib import *"]
    if "raw_move" in finding.code or "FakeMove" in finding.code:
        lines.append("from tools.fuzz import FakeMove, raw_move")
    lines.append(
        f"deal = Deal(players={finding.players}, seed={finding.deal_seed}, "
        f"rules={_rules_code(finding.rules)}, dealer={finding.dealer})"
    )
    if chosen:
        lines.append(f"for text in {prefix[:chosen]!r}:")
        lines.append("    deal.push(parse_move(text))")
    player = f", player={finding.player_code}" if finding.player_code else ""
    if _at(finding) == "build":
        lines.append(f"{finding.code}  # {finding.kind}")
    elif _at(finding) == "is_legal":
        lines.append(f"deal.is_legal({finding.code}{player})  # {finding.kind}")
    else:
        lines.append(f"deal.push({finding.code}{player})  # {finding.kind}")
    lines.append(f"# or: {command}")
    return "\n".join(lines)
