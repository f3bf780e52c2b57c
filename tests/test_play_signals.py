"""`searchkit play` ended by SIGTERM or SIGHUP (a closed terminal window, `timeout`)
restores the terminal, autosaves like a quit and exits with 128 + the signal: run for real
in tmux, on a private server."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from processes import wait_for

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_restores_the_terminal_and_autosaves(tmp_path, signum):
    searchkit = Path(sys.executable).with_name("searchkit")
    script = tmp_path / "run.sh"
    script.write_text(
        f"export SEARCHKIT_PLAY_DIR={tmp_path / 'saves'}\n"
        f"echo $$ > {tmp_path / 'shell.pid'}\n"
        f"{searchkit} play npuzzle --size 3 --seed 5 --new\n"
        f"echo $? > {tmp_path / 'rc'}\n"
        f"stty -a > {tmp_path / 'stty'}\n"
        "sleep 60\n"
    )
    sock = str(tmp_path / "tmux.sock")
    tmux = ["tmux", "-S", sock]
    env = {k: v for k, v in os.environ.items() if k != "TMUX"}
    subprocess.run(tmux + ["new-session", "-d", "-x", "100", "-y", "30", f"sh {script}"], check=True, env=env)
    try:

        def screen() -> str:
            return subprocess.run(tmux + ["capture-pane", "-p"], capture_output=True, text=True).stdout

        def game_pid() -> int | None:
            found = subprocess.run(
                ["pgrep", "-f", f"{searchkit} play npuzzle --size 3 --seed 5"], capture_output=True, text=True
            ).stdout.split()
            return int(found[0]) if found else None

        assert wait_for(lambda: "8-puzzle" in screen()), screen()
        alternate = subprocess.run(tmux + ["display", "-p", "#{alternate_on}"], capture_output=True, text=True)
        assert alternate.stdout.strip() == "1"

        def moved() -> bool:  # an unfinished game worth keeping: press arrows until one moves
            subprocess.run(tmux + ["send-keys", "Left", "Up", "Right", "Down"], check=True)
            return re.search(r"Moves\s+[1-9]", screen()) is not None

        assert wait_for(moved, 20), screen()
        pid = game_pid()
        assert pid is not None
        os.kill(pid, signum)
        stty = tmp_path / "stty"
        # the shell makes the file before stty writes into it: wait for what it writes
        assert wait_for(lambda: stty.exists() and stty.stat().st_size > 0), screen()
        assert (tmp_path / "rc").read_text().strip() == str(128 + signum)
        state = subprocess.run(
            tmux + ["display", "-p", "#{alternate_on} #{cursor_flag}"], capture_output=True, text=True
        )
        assert state.stdout.split() == ["0", "1"]  # out of the alternate screen, cursor shown
        assert " echo " in f" {(tmp_path / 'stty').read_text()} ".replace("\n", " ")  # echo back on
        saves = list((tmp_path / "saves").glob("*.json"))
        assert len(saves) == 1 and json.loads(saves[0].read_text())["history"], saves
    finally:
        subprocess.run(tmux + ["kill-server"], capture_output=True)
