import pytest

from bot.settings import Settings, SettingsError


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
