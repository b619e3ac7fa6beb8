import os
import subprocess
import sys


def test_without_a_token_the_bot_says_what_to_set_and_points_to_the_terminal_table(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    done = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1
    assert "DISCORD_TOKEN" in done.stderr and str(tmp_path / ".env") in done.stderr
    assert "python -m bot play" in done.stderr
