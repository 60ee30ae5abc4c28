"""A short contest season (issue #36, tests/season.py): PostgreSQL, two web processes,
three workers each in its own folder, ten contestants over the JSON API, kill -9 of
workers and of a web process, a PostgreSQL restart, a new release mid-season (a column
added), a deadline, finals and the export; then every upload ended, no game lost or counted
twice, the store's ratings equal their recomputation, the strongest bot won the finals, the
new release took over, nothing left running."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import pgserver
from season import Plan, Season, rehearse

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]


def test_a_season_survives_its_faults_and_a_new_release() -> None:
    """One test, not one a check: the season is played once, however the tests are
    spread over xdist's workers (a module fixture was played on both, 100 s more)."""
    if pgserver.bindir() is None:
        pytest.skip("PostgreSQL's initdb is missing: apt-get install postgresql")
    outside = os.environ.get("BOTARENA_AMAZES_2009")  # docs/cluster.md, "The rehearsal"
    plan = Plan(
        contestants=10,
        ladder_s=15.0,
        languages=("python", "c", "cpp"),
        outside=Path(outside) if outside else None,
        contests=("cup", "maze"),  # Ants' 2-4 seats: the bench's, and test_ladder*.py's
    )
    season = rehearse(plan)
    print(*season.notes, season.figures, season.checks, sep="\n")  # shown with -s
    every_upload_ended_as_expected(season)
    no_game_lost_or_counted_twice(season)
    the_strongest_bot_won_the_finals(season)
    faults_survived(season)
    a_new_release_took_over_mid_season(season)
    the_outside_program_played(season)
    nothing_left_running(season)


def every_upload_ended_as_expected(season: Season) -> None:
    for person in season.contestants:
        assert person.statuses == [e.expect for e in person.entries], person.user
        assert person.replays >= (person.statuses[-1] != "build-failed"), person.user
        assert person.missing == [], person.user
    assert set(season.checks["uploads by status"]) <= {"active", "retired", "build-failed",
                                                        "test-failed"}  # fmt: skip


def no_game_lost_or_counted_twice(season: Season) -> None:
    assert "claimed" not in season.checks["games by status"]
    assert season.checks["store check"][0] == 0, season.checks["store check"]
    assert season.figures["games played"] > 0


def the_strongest_bot_won_the_finals(season: Season) -> None:
    assert season.checks["cup finals winners"] == ["cup0"]
    # a role game's finals rank each role apart: the strongest adventurers win theirs
    assert season.checks["maze finals winners"][0] == "maze0"
    assert len(season.checks["maze finals winners"]) == 2


def faults_survived(season: Season) -> None:
    assert season.checks["workers that stopped by themselves"] == []
    assert season.checks["upload after the deadline"] == 403
    assert not [note for note in season.notes if note.startswith("no worker caught")]
    assert season.checks["web processes after a kill -9"] >= 1
    names = season.checks["export"]
    assert any(name.endswith("bots.json") for name in names), names


def a_new_release_took_over_mid_season(season: Season) -> None:
    """Its schema revision applied, the old release's workers stopped by themselves and a
    new one of them refused, its own site and workers played on (the finals above)."""
    import botarena
    from botarena.tournament.migrations import HEAD

    old = botarena.__version__
    assert season.checks["store upgrade mid-season"].endswith(
        f": revision {HEAD} (botarena {old}) -> revision rehearsal (botarena {old}.post1)"
    )
    assert season.checks["column added mid-season"] is True
    assert season.checks["old release's workers' exit codes"] == [2, 2, 2]
    code, line = season.checks["a worker of the old release after the upgrade"]
    assert (code, line.count("\n")) == (2, 0)
    assert "schema revision 'rehearsal' is newer than this botarena's" in line


def the_outside_program_played(season: Season) -> None:
    """With BOTARENA_AMAZES_2009 set: the 2009 player built, passed its test and played."""
    if "outside program" in season.checks:
        words = season.checks["outside program"]
        assert ": active, " in words and not words.endswith(" 0 games played"), words


def nothing_left_running(season: Season) -> None:
    assert season.checks["left by the workers killed"] == []
    assert season.checks["left running"] == []
