"""Tables of people playing together, at CI size: the scenario of `benchmarks.tables_load`
(issue 32) with two small tables and no time to think, on the real site's table service and on
the service on its own. The full size (15 tables of 4, with the figures) is
`python -m benchmarks.load --tables 15`. Behaviour only: no time is asserted."""

from __future__ import annotations

from pathlib import Path

import psutil  # type: ignore[import-untyped]

from benchmarks import tables_load
from benchmarks.tables_load import Plan, Played, journal_of, play_tables, quiet, serve_alone
from tools.learners import run_sync
from tools.site_runner import Server, tables_address

PLAN = Plan(tables=2, players=3, deals=1, pace=(0.0, 0.0), spread=0.5, timeout=30.0)


def check(played: Played) -> None:
    """Every table seated, played every deal to its end, each move heard by every other seat and
    kept in the journal, and nothing refused."""
    assert played.errors == []
    assert len(played.joins) == PLAN.tables * PLAN.players  # every create and join answered
    assert all(ledger.code for ledger in played.ledgers)
    for ledger in played.ledgers:
        assert sorted(ledger.deals_over) == list(range(1, PLAN.total_deals + 1))
        assert not ledger.failed and not any(sent.refused for sent in ledger.moves)
    moves = sum(len(ledger.moves) for ledger in played.ledgers)
    assert moves > 0 and played.answered == moves
    assert played.lost == 0 and played.unheard == 0
    assert played.missing_echoes == 0
    assert played.echo_pairs == moves * (PLAN.players - 1)  # one echo per move per other seat
    assert len(played.echoes[1]) + len(played.echoes[2]) == moves
    assert played.echoes[1] and played.echoes[2]  # both phases played


def test_small_tables_play_on_the_site_with_no_error_and_no_lost_move(site: Server) -> None:
    process = psutil.Process(site.process.pid)
    played = run_sync(
        play_tables(tables_address(site), PLAN, journal_of(site), process, site, quiet)
    )
    check(played)
    assert played.memory_live > 0 and played.memory_peak >= played.memory_live
    assert played.landing  # the site's landing page was fetched meanwhile


def test_small_tables_play_on_the_service_alone(tmp_path: Path) -> None:
    journal = tmp_path / "tables.sqlite"
    server, address = serve_alone(journal)
    try:
        process = psutil.Process(server.process.pid)
        played = run_sync(play_tables(address, PLAN, journal, process, None, quiet))
    finally:
        server.stop()
    check(played)
    figures = tables_load.figures(played, "the service on its own")
    assert figures.values["errors"] == 0 and figures.values["lost"] == 0
    assert set(figures.values) == set(tables_load.GOALS)  # every goal has its figure
