import re
from pathlib import Path

import pytest

from bot.app.config import FIELDS, Settings, SettingsError, text, usable_cores
from bot.service.table_limits import TableLimits


def test_environment_wins_over_the_env_file(tmp_path):
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=from-file\nRUMMY_DB_PATH=file.db\nRUMMY_DEV_GUILD_ID=42\n")
    settings = Settings.load(env, {"DISCORD_TOKEN": "from-env"})
    assert settings.token == "from-env"
    assert str(settings.db_path) == "file.db" and settings.dev_guild_id == 42
    assert settings.log_level == "INFO"


def test_missing_settings_have_safe_defaults_and_bad_ones_are_refused(tmp_path):
    settings = Settings.load(tmp_path / "absent.env", {"DISCORD_TOKEN": "  "})
    assert settings.token is None and str(settings.db_path) == "rummy.db"
    with pytest.raises(SettingsError, match="server id"):
        Settings.load(None, {"RUMMY_DEV_GUILD_ID": "my-server"})


def test_a_postgresql_url_is_used_instead_of_the_file_and_its_password_is_not_shown(tmp_path):
    url = "postgresql://rummy:s3cret@db.internal:5432/rummy"
    settings = Settings.load(None, {"RUMMY_DB_PATH": "file.db", "RUMMY_DATABASE_URL": url})
    assert settings.database == url and "s3cret" not in settings.database_shown
    assert Settings.load(None, {"RUMMY_DB_PATH": "file.db"}).database_shown == "file.db"
    with pytest.raises(SettingsError, match="postgresql://"):
        Settings.load(None, {"RUMMY_DATABASE_URL": "sqlite:///rummy.db"})


def test_finished_matches_are_kept_90_days_unless_set_and_a_bad_number_is_refused():
    assert Settings.load(None, {}).keep_days == 90
    assert Settings.load(None, {"RUMMY_KEEP_DAYS": " 30 "}).keep_days == 30
    for bad in ("0", "-5", "ninety", "1.5"):
        with pytest.raises(SettingsError, match="RUMMY_KEEP_DAYS"):
            Settings.load(None, {"RUMMY_KEEP_DAYS": bad})


def test_metrics_are_off_unless_a_port_is_set_and_listen_on_this_machine_unless_told():
    assert Settings.load(None, {}).metrics_port is None
    settings = Settings.load(None, {"RUMMY_METRICS_PORT": " 9108 "})
    assert settings.metrics_port == 9108 and settings.metrics_host == "127.0.0.1"
    assert (
        Settings.load(None, {"RUMMY_METRICS_PORT": "9108", "RUMMY_METRICS_HOST": "0.0.0.0"}).metrics_host
        == "0.0.0.0"
    )
    for bad in ("0", "65536", "http", "-1"):
        with pytest.raises(SettingsError, match="RUMMY_METRICS_PORT"):
            Settings.load(None, {"RUMMY_METRICS_PORT": bad})


def test_the_request_budget_is_40_unless_set_and_must_fit_discords_limit():
    assert Settings.load(None, {}).request_budget == 40
    assert Settings.load(None, {"RUMMY_REQUEST_BUDGET": " 12.5 "}).request_budget == 12.5
    for bad in ("0", "-5", "fast", "51", "nan"):
        with pytest.raises(SettingsError, match="RUMMY_REQUEST_BUDGET"):
            Settings.load(None, {"RUMMY_REQUEST_BUDGET": bad})


def test_a_player_watching_their_dm_is_mentioned_after_half_the_clock_unless_set():
    assert Settings.load(None, {}).mention_watching_after == 0.5
    assert Settings.load(None, {"RUMMY_MENTION_WATCHING_AFTER": "0"}).mention_watching_after == 0
    assert Settings.load(None, {"RUMMY_MENTION_WATCHING_AFTER": " 1 "}).mention_watching_after == 1
    for bad in ("-0.1", "1.5", "half", "nan"):
        with pytest.raises(SettingsError, match="RUMMY_MENTION_WATCHING_AFTER"):
            Settings.load(None, {"RUMMY_MENTION_WATCHING_AFTER": bad})


def test_pictures_are_drawn_on_threads_unless_worker_processes_are_asked_for():
    assert Settings.load(None, {}).picture_workers is (usable_cores() > 1)  # where there are cores for them
    assert Settings.load(None, {"RUMMY_PICTURE_WORKERS": " 1 "}).picture_workers is True
    assert Settings.load(None, {"RUMMY_PICTURE_WORKERS": "0"}).picture_workers is False
    for bad in ("yes", "2", "true"):
        with pytest.raises(SettingsError, match="RUMMY_PICTURE_WORKERS"):
            Settings.load(None, {"RUMMY_PICTURE_WORKERS": bad})


def test_every_setting_is_documented_in_the_example_file_and_it_names_no_other():
    """`.env.example` is where an admin reads what each setting does: it holds every row of the
    settings table (set, or commented out where its default must stay), and nothing else."""
    example = (Path(__file__).resolve().parents[2] / ".env.example").read_text()
    named = set(re.findall(r"^(?:# ?)?([A-Z][A-Z0-9_]+)=", example, flags=re.MULTILINE))
    assert named == {field.env for field in FIELDS}
    assert len({field.attr for field in FIELDS}) == len(FIELDS)


def test_each_setting_refuses_a_bad_value_in_one_sentence_naming_it():
    for field in FIELDS:
        if field.parse in (text, Path):
            continue  # any text is a token, an address or a path (the store says if it cannot open it)
        with pytest.raises(SettingsError, match=f"^{field.env} must be .*, not 'x y'\\.$"):
            field.read({field.env: "x y"})


def test_member_and_server_limits_have_their_defaults_and_zero_switches_one_off():
    # issue 23: 3 tables at once, 5 opened in 10 minutes, 50 per server, a repost per 10 s
    settings = Settings.load(None, {})
    assert (settings.member_tables, settings.member_opens, settings.member_opens_minutes) == (3, 5, 10)
    assert settings.server_tables == 50 and settings.repost_seconds == 10
    limits = TableLimits()  # the service's own, the same
    assert (limits.seats_per_member, limits.opens_per_member, limits.tables_per_server) == (3, 5, 50)
    assert limits.opens_window_seconds == 60 * settings.member_opens_minutes
    changed = Settings.load(
        None,
        {
            "RUMMY_MEMBER_TABLES": "0",
            "RUMMY_MEMBER_OPENS": " 8 ",
            "RUMMY_MEMBER_OPENS_MINUTES": "30",
            "RUMMY_SERVER_TABLES": "200",
            "RUMMY_TABLE_REPOST_SECONDS": "0",
        },
    )
    assert (changed.member_tables, changed.member_opens, changed.member_opens_minutes) == (0, 8, 30)
    assert changed.server_tables == 200 and changed.repost_seconds == 0
    for key, bad in (
        ("RUMMY_MEMBER_TABLES", "-1"),
        ("RUMMY_MEMBER_OPENS", "five"),
        ("RUMMY_MEMBER_OPENS_MINUTES", "0"),
        ("RUMMY_SERVER_TABLES", "2.5"),
        ("RUMMY_TABLE_REPOST_SECONDS", "ten"),
    ):
        with pytest.raises(SettingsError, match=key):
            Settings.load(None, {key: bad})
