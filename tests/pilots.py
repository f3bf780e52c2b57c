"""Driving a Textual app headless (``App.run_test``'s pilot) in the game tests."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any


async def until(pilot: Any, condition: Callable[[], object], timeout: float = 20.0) -> None:
    """Let the app run until ``condition()`` holds; AssertionError after ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not condition():
        assert loop.time() < end, "timed out"
        await pilot.pause(0.05)
