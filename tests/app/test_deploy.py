"""The deployment files, checked where Docker cannot run (a client here, no engine): compose.yaml
read as Compose reads it, the Dockerfile's instructions, and the systemd units verified by
systemd itself where it is installed. What they promise: each service gets only the settings it
needs (the bots never see the database's password on its own), no anonymous volumes, a restart
policy that does not loop on exit 2, the image installed from the hashed lock file."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


def compose() -> dict:
    return yaml.safe_load((ROOT / "compose.yaml").read_text())


def bots(services: dict) -> dict:
    return {name: service for name, service in services.items() if name.startswith("shard-")}


def test_compose_gives_each_service_only_the_settings_it_needs():
    services = compose()["services"]
    db, shards = services["db"], bots(services)
    assert len(shards) == 2
    assert "env_file" not in db  # the bots' token never reaches the database's container
    assert db["environment"]["POSTGRES_PASSWORD_FILE"] == "/run/secrets/db_password"
    assert "POSTGRES_PASSWORD" not in db["environment"]
    assert db["secrets"] == ["db_password"] and "db_password" in compose()["secrets"]
    for name, shard in shards.items():
        assert shard["env_file"] == [".env", "database.env"], name
        assert not any("POSTGRES" in key for key in shard["environment"]), name
        assert "secrets" not in shard, name
        assert shard["environment"]["RUMMY_SHARD_IDS"] == name.removeprefix("shard-")
    assert "POSTGRES_PASSWORD" not in (ROOT / ".env.example").read_text()
    assert "${" not in (ROOT / "compose.yaml").read_text()  # no secret interpolated into a value


def test_no_anonymous_volumes_and_no_restart_loop_on_exit_2():
    services = compose()["services"]
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert not re.search(r"^VOLUME", dockerfile, flags=re.MULTILINE)  # each shard would get one
    for name, shard in bots(services).items():
        assert "volumes" not in shard, name  # on PostgreSQL a shard keeps nothing on disk
        assert re.fullmatch(r"on-failure:\d+", shard["restart"]), name
        assert shard["depends_on"]["db"]["condition"] == "service_healthy"
    volumes = services["db"]["volumes"]
    assert all(":" in volume and not volume.startswith("/") for volume in volumes)  # named


def test_the_image_installs_the_hashed_lock_and_its_run_example_publishes_the_port():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "pip install --require-hashes -r requirements.lock" in dockerfile
    assert "pip install --no-deps --no-build-isolation ." in dockerfile
    run = " ".join(line.strip("# \\") for line in dockerfile.splitlines() if line.startswith("#   "))
    assert "docker run" in run and "-p 127.0.0.1:9108:9108" in run and "--restart on-failure:" in run
    assert "!requirements.lock" in (ROOT / ".dockerignore").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    assert "--require-hashes -r requirements-dev.lock" in ci


def pinned(lock: Path) -> dict[str, str]:
    found = re.findall(r"^([A-Za-z0-9_.-]+)==(\S+) \\$", lock.read_text(), flags=re.MULTILINE)
    return {name.lower().replace("_", "-"): version for name, version in found}


def test_the_lock_files_pin_every_dependency_with_hashes():
    runtime, dev = pinned(ROOT / "requirements.lock"), pinned(ROOT / "requirements-dev.lock")
    for lock in ("requirements.lock", "requirements-dev.lock"):
        text = (ROOT / lock).read_text()
        entries = re.split(r"\n(?=[A-Za-z0-9])", text.split("\n\n", 1)[1])
        assert all("--hash=sha256:" in entry for entry in entries if "==" in entry), lock
    for name in ("discord-py", "aiosqlite", "asyncpg", "pillow", "setuptools"):
        assert name in runtime
    for name in ("pytest", "ruff", "mypy", "pyyaml"):
        assert name in dev
    shared = runtime.keys() & dev.keys()
    assert {name: runtime[name] for name in shared} == {name: dev[name] for name in shared}


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed here")
def test_the_systemd_units_verify_and_stop_on_exit_2(tmp_path):
    for unit, name in (
        ("rummy-bot.service", "rummy-bot.service"),
        ("rummy-bot@.service", "rummy-bot@1.service"),
    ):
        text = (ROOT / "deploy" / unit).read_text()
        assert "RestartPreventExitStatus=2" in text and "Restart=on-failure" in text
        # The one path that differs on this machine: where the bot's Python is installed.
        (tmp_path / name).write_text(text.replace("/opt/rummy-bot/bin/python", sys.executable))
        done = subprocess.run(
            ["systemd-analyze", "verify", "--man=no", str(tmp_path / name)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0 and done.stdout + done.stderr == "", done.stdout + done.stderr
    template = (ROOT / "deploy" / "rummy-bot@.service").read_text()
    assert "Environment=RUMMY_SHARD_IDS=%i" in template
