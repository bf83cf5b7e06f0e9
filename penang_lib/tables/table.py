"""One table of people (and bots) playing a match of Penang Rummy together: the authority.

A `Table` holds the match and its current `Deal`, and is the only place where a move is made:
every move goes through `Deal.push`, so the engine checks it. It knows who sits where, which
seats are people (each with the digest of their secret token) and which are bots, who is
connected, and which absent person a bot is standing in for. It never sends anything itself:
`state(seat)` says what one seat may see (its own hand; for the others only how many cards they
hold, until the deal is over), and the service (`penang_lib.tables.service`) sends it. What a
page needs from the rules comes in the state already decided: each table meld with its reading
(`meld_state`, read back by `meld_of_state`), the seat's forced move, the counts of the hands it
may see; so a page only reads and draws.

Everything refused raises `TableError` with a rule id and one sentence a learner understands,
and changes nothing: the engine's own sentence and rule for an illegal move, a `table.*` rule
(`RULES`) for the rest. Nothing a player typed is repeated in a sentence but their checked name.

Time is read from the `clock` the table is given (seconds, monotonic), so that the tests can
move it: a person away for `STAND_IN_AFTER` seconds has a bot play for them until they return.
A `journal` (`penang_lib.tables.journal`) is told of every change as it happens, so that a table
can be built again, move by move, after a restart (`Table.restore`).
"""

from __future__ import annotations

import time
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol

from penang_lib.engine.bots import ALL_BOT_NAMES, Bot, forced_move, make_bot
from penang_lib.engine.cards import CardParseError, cards_text, parse_cards
from penang_lib.engine.deal import DEFAULT_NAMES, Deal
from penang_lib.engine.events import Event
from penang_lib.engine.explain import explain
from penang_lib.engine.match import MAX_DEALS, Match
from penang_lib.engine.melds import Kind, Meld
from penang_lib.engine.moves import IllegalMove, Move, parse_move
from penang_lib.engine.record import to_record
from penang_lib.engine.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from penang_lib.engine.view import PlayerView
from penang_lib.i18n import N_, _
from penang_lib.tables.codes import new_token, token_digest

__all__ = [
    "DEFAULT_BOT",
    "EVENTS_KEPT",
    "MAX_LEGAL",
    "MAX_NAME",
    "RULES",
    "SEAT_BOTS",
    "STAND_IN_AFTER",
    "STAND_IN_BOT",
    "BotJob",
    "Journal",
    "Seat",
    "Table",
    "TableError",
    "meld_of_state",
    "meld_state",
    "read_name",
]

MAX_NAME: Final = 24
"""Characters in a display name, at most."""
STAND_IN_AFTER: Final = 60.0
"""Seconds a person may be away before a bot plays their seat."""
DEFAULT_BOT: Final = "careful"
"""The bot that takes an empty seat when the table starts, unless the starter picks another."""
SEAT_BOTS: Final = ALL_BOT_NAMES
"""The bots a starter may seat: random, greedy, careful and expert."""
STAND_IN_BOT: Final = "careful"
"""The bot that plays for an absent person."""
EVENTS_KEPT: Final = 12
"""The sentences of the last this many events of the deal are in each state."""
MAX_LEGAL: Final = 400
"""Legal moves listed in a state, at most (a hand with jokers can make thousands of melds; the
state then says that the list is cut)."""
_REFUSED_IN_NAMES: Final = frozenset('<>&"`\\')

RULES: Final[dict[str, str]] = {
    "table.message": N_("A message the table cannot read."),
    "table.code": N_("A table code that names no open table."),
    "table.full": N_("Every seat of the table is taken."),
    "table.started": N_("The table has started: no one can sit down any more."),
    "table.name": N_("A display name the table refuses."),
    "table.token": N_("A seat's secret that is wrong, old or not given."),
    "table.turn": N_("A move when it is not this seat's turn."),
    "table.start": N_("Starting, or dealing again, when that is not possible."),
    "table.players": N_("A number of players the rules do not allow."),
    "table.bot": N_("A bot the table does not know, or a seat a bot cannot take."),
    "table.size": N_("A message longer than the table reads."),
    "table.flood": N_("Too many messages at once."),
}
"""The table's own rule ids (beside the engine's) and what each refuses (docs/TABLES.md)."""


class TableError(ValueError):
    """Something a table refused: `rule` is an engine rule id or one of `RULES`, and the text is
    one sentence a learner understands. The table is unchanged."""

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(message)
        self.rule = rule

    @property
    def message(self) -> str:
        return str(self)


@dataclass(frozen=True)
class BotJob:
    """A bot's move to think about: the `seat` it plays, the `ply` (moves so far) it answers,
    the `bot` and a copy of the `deal`, which nobody else touches."""

    seat: int
    ply: int
    bot: Bot
    deal: Deal

    def choose(self) -> Move:
        """The bot's move (it sees only the seat's view of the copy)."""
        return self.bot.choose(PlayerView.of(self.deal)).move


class Journal(Protocol):
    """What a table tells its journal, as it happens (`penang_lib.tables.journal.Journal`)."""

    def created(self, table: Table) -> None: ...
    def seated(self, table: Table, seat: int) -> None: ...
    def started(self, table: Table) -> None: ...
    def moved(self, table: Table, deal: int, ply: int, move: str) -> None: ...


@dataclass
class Seat:
    """One seat: its `name`, the digest of its person's token (None for a bot's seat), the bot
    that plays it (`bot`: a bot seat's kind), and, for a person, whether they are connected,
    since when they are away, and whether a bot is standing in for them."""

    name: str
    digest: str | None
    bot: str | None = None
    connected: bool = False
    away_since: float | None = None
    standing_in: bool = False

    @property
    def is_person(self) -> bool:
        return self.digest is not None

    @property
    def played_by_bot(self) -> bool:
        """Whether a bot makes this seat's moves now (a bot's seat, or a bot standing in)."""
        return not self.is_person or self.standing_in


def read_name(text: object) -> str:
    """A display name, checked: text of 1 to `MAX_NAME` characters once the spaces around it are
    dropped, with no control character and none of the characters of HTML's markup (< > & "),
    so that a name can never be read as a page's code. `TableError` (rule `table.name`)."""
    if not isinstance(text, str):
        raise TableError(_("Type a name to sit at a table."), "table.name")
    name = unicodedata.normalize("NFC", text).strip()
    if not name:
        raise TableError(_("Type a name to sit at a table."), "table.name")
    if len(name) > MAX_NAME:
        raise TableError(
            _("A name may hold at most {most} characters.").format(most=MAX_NAME), "table.name"
        )
    if any(c in _REFUSED_IN_NAMES or unicodedata.category(c)[0] == "C" for c in name):
        raise TableError(
            _(
                "A name may hold letters, digits, spaces and most punctuation, but no angle "
                "brackets, ampersands, quotation marks, backquotes, backslashes or invisible "
                "characters."
            ),
            "table.name",
        )
    return name


def meld_state(meld: Meld, owner: int) -> dict[str, Any]:
    """A table meld as a state carries it: its `cards` (the jokers' notes written), `kind`,
    `owner`, and where it sits: `low` (a run's first position, 1 to 14, 14 being the high ace;
    a set's rank) and `suit` (a run's suit, "" for a set). With these the meld is the engine's
    very meld again (`meld_of_state`): no reading of its jokers is left to guess."""
    return {
        "cards": str(meld),
        "kind": meld.kind.value,
        "owner": owner,
        "low": meld.low,
        "suit": meld.suit,
    }


def meld_of_state(entry: Mapping[str, Any]) -> Meld:
    """The table meld a state's `melds` entry describes (`meld_state`), rebuilt with the
    engine's checked constructors; `ValueError` (or `CardParseError`, one) for an entry that
    describes no meld."""
    cards = parse_cards(str(entry["cards"]))
    low = entry["low"]
    if low.__class__ is not int:
        raise ValueError(f"a meld's low end is a whole number, not {low!r}")
    if Kind(entry["kind"]) is Kind.RUN:
        return Meld.run(str(entry["suit"]), low, cards)
    return Meld.set_of(low, cards)


def _bot_name(seat: int) -> str:
    return _("{seat} (bot)").format(seat=DEFAULT_NAMES[seat])


class Table:
    """A table of `players` seats for a match seeded `seed` (see the module's docstring)."""

    def __init__(
        self,
        code: str,
        players: int,
        seed: int,
        rules: Rules | None = None,
        clock: Callable[[], float] = time.monotonic,
        journal: Journal | None = None,
    ) -> None:
        if players.__class__ is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise TableError(
                _("A table seats {least} to {most} players.").format(
                    least=MIN_PLAYERS, most=MAX_PLAYERS
                ),
                "table.players",
            )
        self.code = code
        self.players = players
        self.seed = seed
        self.rules = Rules.of(rules)
        self.clock = clock
        self.journal = journal
        self.seats: list[Seat | None] = [None] * players
        self.match: Match | None = None
        self._bots: list[Bot | None] = [None] * players
        self._events: list[tuple[int | None, Event]] = []
        """The current deal's last events (`EVENTS_KEPT`), with the seat that moved."""
        self.changed = clock()
        """When anything last changed (the teacher's page sorts by it)."""

    # -- who sits where ------------------------------------------------------------------------
    @property
    def started(self) -> bool:
        return self.match is not None

    @property
    def deal(self) -> Deal | None:
        """The deal being played (or just over); None before the table starts."""
        return self.match.deals[-1] if self.match is not None and self.match.deals else None

    @property
    def deal_number(self) -> int:
        """Deals dealt so far (1 for the first)."""
        return len(self.match.deals) if self.match is not None else 0

    def names(self) -> list[str | None]:
        return [s.name if s is not None else None for s in self.seats]

    def sit(self, name: object, token: str | None = None) -> tuple[int, str]:
        """Seat a person called `name` in the first empty seat: their seat and their token (the
        one given, when restoring a journal; else a new one). Refused when the table has
        started or is full, or when the name is taken or not allowed."""
        checked = read_name(name)
        if self.started:
            raise TableError(
                _("This table has already started: ask for the code of another table."),
                "table.started",
            )
        free = [p for p, s in enumerate(self.seats) if s is None]
        if not free:
            raise TableError(
                _("Every seat at this table is taken: ask for the code of another table."),
                "table.full",
            )
        for s in self.seats:
            if s is not None and s.name.casefold() == checked.casefold():
                raise TableError(
                    _(
                        "Someone at this table is already called {name}: choose another name."
                    ).format(name=s.name),
                    "table.name",
                )
        token = token or new_token()
        digest = token_digest(token)
        assert digest is not None
        seat = free[0]
        self.seats[seat] = Seat(checked, digest, connected=True)
        self._touch()
        if self.journal is not None:
            self.journal.seated(self, seat)
        return seat, token

    def seat_of(self, token: object) -> int:
        """The seat whose token is `token`; `TableError` (`table.token`) for any other."""
        digest = token_digest(token)
        for p, s in enumerate(self.seats):
            if digest is not None and s is not None and s.digest == digest:
                return p
        raise TableError(
            _("That seat's secret is not right: open the table again from your own link."),
            "table.token",
        )

    def connect(self, seat: int) -> None:
        """The person of `seat` is here (again): a bot standing in for them stops."""
        s = self._person(seat)
        s.connected, s.away_since, s.standing_in = True, None, False
        self._touch()

    def disconnect(self, seat: int) -> None:
        """The person of `seat` left (their connection closed): the wait starts."""
        s = self._person(seat)
        if s.connected:
            s.connected, s.away_since = False, self.clock()
            self._touch()

    def stand_ins_due(self) -> list[int]:
        """Seats whose person has been away `STAND_IN_AFTER` seconds, now played by a bot."""
        now = self.clock()
        due = []
        for p, s in enumerate(self.seats):
            if (
                s is not None
                and s.is_person
                and not s.standing_in
                and s.away_since is not None
                and now - s.away_since >= STAND_IN_AFTER
            ):
                s.standing_in = True
                due.append(p)
        if due:
            self._touch()
        return due

    # -- starting --------------------------------------------------------------------------------
    def start(self, token: object, bots: Mapping[int, str] | None = None) -> None:
        """Start the match (the first seat's person only): each empty seat gets a bot,
        `DEFAULT_BOT` unless `bots` names another for that seat, and the first deal is dealt."""
        seat = self.seat_of(token)
        if self.started:
            raise TableError(_("This table has already started."), "table.started")
        if seat != 0:
            raise TableError(_("Only the player who opened the table can start it."), "table.start")
        chosen = self._read_bots(bots or {})
        for p in range(self.players):
            if self.seats[p] is None:
                self.seats[p] = Seat(self._free_bot_name(p), None, bot=chosen.get(p, DEFAULT_BOT))
        self._begin()
        if self.journal is not None:
            self.journal.started(self)

    def _read_bots(self, bots: Mapping[int, str]) -> dict[int, str]:
        chosen: dict[int, str] = {}
        for p, name in bots.items():
            if p.__class__ is not int or not 0 <= p < self.players or self.seats[p] is not None:
                raise TableError(
                    _("A bot can only take a seat that nobody has taken."), "table.bot"
                )
            if name not in SEAT_BOTS:
                raise TableError(
                    _("A seat's bot is one of {bots}.").format(bots=", ".join(SEAT_BOTS)),
                    "table.bot",
                )
            chosen[p] = name
        return chosen

    def _free_bot_name(self, seat: int) -> str:
        name = _bot_name(seat)
        taken = {s.name.casefold() for s in self.seats if s is not None}
        k = 2
        unique = name
        while unique.casefold() in taken:
            unique, k = f"{name} {k}", k + 1
        return unique

    def _begin(self) -> None:
        names = [s.name for s in self.seats if s is not None]
        self.match = Match(
            players=self.players, deals=MAX_DEALS, seed=self.seed, rules=self.rules, names=names
        )
        self._deal_next()

    def _deal_next(self) -> None:
        assert self.match is not None
        self.match.new_deal()
        self._bots = [None] * self.players
        self._events = []
        self._touch()

    def deal_again(self, token: object) -> None:
        """Deal the next deal of the match, once this one is over (any person at the table)."""
        self.seat_of(token)
        deal = self.deal
        if deal is None:
            raise TableError(_("The table has not started yet."), "table.start")
        if not deal.is_over:
            raise TableError(
                _("This deal is not over yet: finish it before dealing again."), "table.start"
            )
        self._deal_next()
        if self.journal is not None:
            self.journal.moved(self, self.deal_number, 0, "")

    # -- moves -----------------------------------------------------------------------------------
    def move(self, token: object, text: object) -> tuple[Event, ...]:
        """Play the move written `text` (the engine's notation) for the seat of `token`, when it
        is that seat's turn and no bot is playing it; its events."""
        seat = self.seat_of(token)
        deal = self._playing()
        if deal.turn != seat:
            raise TableError(
                _("It is not your turn: {name} is to play.").format(name=self._name(deal.turn)),
                "table.turn",
            )
        s = self.seats[seat]
        assert s is not None
        if s.standing_in:
            s.standing_in = False  # a move of their own: they are back
        if not isinstance(text, str) or len(text) > 400:
            raise TableError(_("That is not a move the table can read."), "table.message")
        try:
            move = parse_move(text)
        except (CardParseError, ValueError) as error:
            raise TableError(str(error), "table.message") from None
        return self._push(deal, seat, move)

    def bot_due(self) -> int | None:
        """The seat a bot should play now (a bot's seat, or a person's with a stand-in), or None
        when a person is to play or no deal is being played."""
        deal = self.deal
        if deal is None or deal.is_over:
            return None
        s = self.seats[deal.turn]
        return deal.turn if s is not None and s.played_by_bot else None

    def play_bot(self) -> tuple[Event, ...]:
        """One move by the bot of the seat to play (`bot_due`), chosen and played at once."""
        job = self.bot_job()
        if job is None:
            raise TableError(_("No bot is to play now."), "table.turn")
        return self.apply_bot(job, job.choose())

    def bot_job(self) -> BotJob | None:
        """What a bot must think about now (None when no bot is to play): the seat, the ply it
        answers and a copy of the deal, so that the service can let it think in another
        thread while this table goes on answering, then play its move with `apply_bot`."""
        seat = self.bot_due()
        if seat is None:
            return None
        deal = self._playing()
        return BotJob(seat, len(deal.move_stack), self._bot(seat), deal.copy())

    def apply_bot(self, job: BotJob, move: Move) -> tuple[Event, ...]:
        """Play `move`, the answer to `job`, if the deal is still where the job found it."""
        deal = self._playing()
        if self.bot_due() != job.seat or len(deal.move_stack) != job.ply:
            raise TableError(_("No bot is to play now."), "table.turn")
        return self._push(deal, job.seat, move)

    def _bot(self, seat: int) -> Bot:
        s = self.seats[seat]
        deal = self.deal
        assert s is not None and deal is not None
        name = s.bot if s.bot is not None else STAND_IN_BOT
        bot = self._bots[seat]
        if bot is None or getattr(bot, "name", name) != name:
            bot = make_bot(name, seed=deal.seed * 10 + seat)
            self._bots[seat] = bot
        return bot

    def _playing(self) -> Deal:
        deal = self.deal
        if deal is None:
            raise TableError(_("The table has not started yet."), "table.start")
        if deal.is_over:
            raise TableError(_("This deal is over: deal again to play on."), "table.turn")
        return deal

    def _push(self, deal: Deal, seat: int, move: Move) -> tuple[Event, ...]:
        try:
            events = deal.push(move, seat)
        except IllegalMove as error:
            raise TableError(str(error), error.rule) from None
        self._events.extend((seat, e) for e in events)
        del self._events[:-EVENTS_KEPT]
        self._touch()
        if self.journal is not None:
            self.journal.moved(self, self.deal_number, len(deal.move_stack), str(move))
        return events

    def replay(self, deal_number: int, move: str) -> None:
        """Play one journaled move again (`move` "" deals the next deal), as `Table.restore`
        does; the engine checks it as any other, so a journal cannot make an illegal deal."""
        if not move:
            self._deal_next()
            return
        deal = self._playing()
        if deal_number != self.deal_number:
            raise ValueError(
                f"a move of deal {deal_number} while deal {self.deal_number} is played"
            )
        self._push(deal, deal.turn, parse_move(move))

    # -- what a seat sees ------------------------------------------------------------------------
    def _name(self, seat: int) -> str:
        s = self.seats[seat]
        return s.name if s is not None else DEFAULT_NAMES[seat]

    def _person(self, seat: int) -> Seat:
        s = self.seats[seat]
        if s is None or not s.is_person:
            raise ValueError(f"seat {seat} has no person")
        return s

    def _touch(self) -> None:
        self.changed = self.clock()

    def seat_states(self) -> list[dict[str, Any]]:
        """Who sits in each seat, as every seat and spectator sees it."""
        out: list[dict[str, Any]] = []
        for s in self.seats:
            if s is None:
                out.append({"name": None, "kind": "empty"})
                continue
            out.append(
                {
                    "name": s.name,
                    "kind": "person" if s.is_person else "bot",
                    "bot": s.bot if not s.is_person else (STAND_IN_BOT if s.standing_in else None),
                    "connected": s.connected if s.is_person else True,
                    "standing_in": s.standing_in,
                }
            )
        return out

    def state(self, seat: int | None) -> dict[str, Any]:
        """What `seat` may see (None: a spectator, who sees what every seat sees): the message
        `{"type": "state", ...}` of docs/TABLES.md. Only `seat`'s own hand (and its count) is
        in it until the deal is over; then every hand is. What the rules decide for the page is
        in it too: the melds' readings, and the forced move of the seat to play."""
        deal = self.deal
        state: dict[str, Any] = {
            "type": "state",
            "table": self.code,
            "seat": seat,
            "players": self.players,
            "names": self.names(),
            "seats": self.seat_states(),
            "started": self.started,
            "deal_number": self.deal_number,
        }
        if deal is None:
            return {**state, "turn": None, "over": False, "hand": [], "events": []}
        over = deal.is_over
        mine = seat is not None and not over and deal.turn == seat
        s = self.seats[seat] if seat is not None else None
        state.update(
            {
                "dealer": deal.dealer,
                "turn": None if over else deal.turn,
                "hand": cards_text(deal.hand(seat)).split() if seat is not None else [],
                "hand_sizes": [deal.hand_size(p) for p in range(deal.players)],
                "melds": [meld_state(m, deal.owners[i]) for i, m in enumerate(deal.table)],
                "passport": list(deal.passport),
                "status": [st.value for st in deal.status],
                "actions": deal.actions,
                "move_number": len(deal.move_stack),
                # The count of each hand this seat may see: its own; every one once it is over.
                "hand_points": [
                    deal.count(p) if over or p == seat else None for p in range(deal.players)
                ],
                "forced_move": None,
                "over": over,
                "events": [
                    {"seat": p, "rule": e.rule, "text": explain(e, deal.names)}
                    for p, e in self._events
                ],
            }
        )
        if mine and seat is not None and s is not None and not s.standing_in:
            legal = [str(m) for m in deal.legal_moves]
            state["legal_moves"] = legal[:MAX_LEGAL]
            state["legal_moves_cut"] = len(legal) > MAX_LEGAL
            forced = forced_move(deal, seat)
            state["forced_move"] = str(forced) if forced is not None else None
        if over:
            state["scores"] = list(deal.scores)
            state["winners"] = list(deal.winners)
            state["hands"] = [cards_text(deal.hand(p)).split() for p in range(deal.players)]
            assert self.match is not None
            state["totals"] = list(self.match.totals)
            # The whole deal, as `penang_lib.engine.record` writes it: a seat's review of it.
            state["record"] = to_record(deal)
        return state

    def summary(self) -> dict[str, Any]:
        """One line of the teacher's page: the code, the players, the deal and whose turn."""
        deal = self.deal
        people = sum(1 for s in self.seats if s is not None and s.is_person)
        return {
            "table": self.code,
            "players": self.players,
            "people": people,
            "names": self.names(),
            "seats": self.seat_states(),
            "started": self.started,
            "deal_number": self.deal_number,
            "turn": None if deal is None or deal.is_over else self._name(deal.turn),
            "over": deal is not None and deal.is_over,
        }

    # -- the journal -----------------------------------------------------------------------------
    @classmethod
    def restore(
        cls,
        code: str,
        players: int,
        seed: int,
        rules: Rules,
        seats: Sequence[tuple[str, str | None, str | None]],
        started: bool,
        moves: Sequence[tuple[int, str]],
        clock: Callable[[], float] = time.monotonic,
    ) -> Table:
        """A table built again from its journal: `seats` (name, token digest or None, bot or
        None) in seat order, whether it `started`, and its `moves` in order (deal number, move
        text; "" deals the next deal). Every move goes through `push` again; its people are
        away until they come back through their links (their wait starts now)."""
        table = cls(code, players, seed, rules, clock)
        for p, (name, digest, bot) in enumerate(seats):
            table.seats[p] = Seat(name, digest, bot=bot)
            if digest is not None:
                table.seats[p] = Seat(name, digest, away_since=clock())
        if started:
            table._begin()
            for number, move in moves:
                table.replay(number, move)
        return table
