"""A lobby's rules through the service: only its host changes them, only before the start, never
to rules that cannot seat who is there; every change saved before it is announced."""

import pytest
from service_helpers import GUILD, open_service

from bot.engine.errors import RulesError
from bot.engine.rules import Rules
from bot.service import ServiceError, ServiceEventKind, StaleCommandError

HOST, GUEST = 1, 2


@pytest.fixture
async def store_and_service(tmp_path):
    store, service = await open_service(tmp_path / "r.db")
    yield store, service
    await store.close()


async def test_the_host_changes_the_lobby_rules_and_refusals_change_nothing(store_and_service):
    store, service = store_and_service
    await service.open_table(GUILD, 5, HOST, "Host", rules=Rules.PRESETS["home"])
    for _ in range(6):
        await service.add_computer(5, HOST)
    table = service.table_in(5)
    assert table.record.max_seats == 10  # 004: up to ten players

    refusals = [
        (lambda: service.change_rules(5, GUEST, {"first_drop": 15}), ServiceError, "Only the host"),
        # 000: the standard shoe seats six; seven are seated
        (lambda: service.change_rules(5, HOST, {"deck_plan": ((6, 2),)}), ServiceError, "7 are seated"),
        (
            lambda: service.change_rules(5, HOST, {"first_drop": 60}),
            RulesError,
            "first drop cannot cost more",
        ),
        (lambda: service.change_rules(5, HOST, {"preset": "octro"}), ServiceError, "no rule option preset"),
    ]
    for attempt, error, reason in refusals:
        with pytest.raises(error, match=reason):
            await attempt()
        assert (
            table.rules == Rules.PRESETS["home"] and (await store.table(table.id)).rules == table.record.rules
        )

    events = await service.change_rules(5, HOST, {"first_drop": 15, "turn_seconds": 45})
    assert events[0].kind == ServiceEventKind.RULES_CHANGED
    assert events[0].event.changed == ("first_drop", "turn_seconds")
    assert (await store.table(table.id)).rules == table.rules.to_json()
    assert table.rules.changed_options() == ("first_drop", "turn_seconds")


async def test_a_smaller_shoe_shrinks_a_full_size_lobby_and_the_start_fixes_the_rules(
    store_and_service, tmp_path
):
    store, service = store_and_service
    await service.open_table(GUILD, 6, HOST, "Host", rules=Rules.PRESETS["home"])
    await service.change_rules(6, HOST, {"deck_plan": ((5, 2),)})
    table = service.table_in(6)
    assert table.record.max_seats == 5 and (await store.table(table.id)).max_seats == 5
    await service.add_computer(6, HOST)
    await service.start(6, HOST)
    with pytest.raises(StaleCommandError, match="no longer change"):
        await service.change_rules(6, HOST, {"first_drop": 0})
    assert table.match.rules.deck_plan == ((5, 2),) and table.rules.first_drop == 10


async def test_changed_lobby_rules_survive_a_restart(tmp_path):
    store, service = await open_service(tmp_path / "r.db")
    await service.open_table(GUILD, 7, HOST, "Host", rules=Rules.PRESETS["octro"])
    await service.change_rules(7, HOST, {"wrong_declaration": 60})
    await store.close()
    store, service = await open_service(tmp_path / "r.db")
    try:
        rules = service.table_in(7).rules
        assert rules.preset == "octro" and rules.wrong_declaration == 60
    finally:
        await store.close()


async def test_the_lobbys_typed_rules_and_their_stored_form_change_together_or_not_at_all(
    store_and_service, monkeypatch
):
    store, service = store_and_service
    app = Rules.PRESETS["app"]
    await service.open_table(GUILD, 8, HOST, "Host", rules=app)
    table = service.table_in(8)

    async def failing(statements):
        raise OSError("disk I/O error")

    with monkeypatch.context() as patched:
        patched.setattr(store, "_transaction", failing)
        with pytest.raises(Exception, match="disk I/O error"):
            await service.change_rules(8, HOST, {"turn_seconds": 45})
    assert table.rules is app and Rules.from_json(table.record.rules) == app
    await service.change_rules(8, HOST, {"turn_seconds": 45})
    assert table.rules == app.replace(turn_seconds=45) and table.record.rules == table.rules.to_json()
    await service.add_computer(8, HOST)
    await service.start(8, HOST)
    assert table.match.rules is table.rules
    # 003 with no time bank: the host has the 45 s to pick (a computer player its own delay).
    first = 45 if table.match.deal.turn == 0 else service.settings.computer_delay_seconds
    assert table.clock.deadline == service.clock.now() + first
