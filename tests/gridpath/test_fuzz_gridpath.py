"""Fuzzing the tutorial plugin's Moving AI files (plugins/gridpath): ``.map`` and ``.scen``
text, random and mutated from the shipped ones.  A map or scenarios, or one `InputError`
line.  (The plugin is a separate distribution; its parsers are pure functions of the lines,
imported here from the source tree.  tests/gridpath/test_gridpath.py runs it installed.)"""

from __future__ import annotations

import sys

import pytest
from fuzzing import PROFILES, Profile, mutated, parses_or_refuses
from hypothesis import strategies as st
from project import GRIDPATH

SOURCE = GRIDPATH / "src"
sys.path.insert(0, str(SOURCE))
try:
    from searchkit_gridpath.movingai import PASSABLE, parse_map, parse_scen
finally:  # forget the source copy: tests/gridpath/test_gridpath.py imports the installed one
    sys.path.remove(str(SOURCE))
    for name in [m for m in sys.modules if m.split(".")[0] == "searchkit_gridpath"]:
        del sys.modules[name]

DATA = SOURCE / "searchkit_gridpath" / "data"
MAPS = [p.read_text(encoding="utf-8")[:3000] for p in sorted(DATA.glob("*.map"))]
SCENS = [p.read_text(encoding="utf-8")[:3000] for p in sorted(DATA.glob("*.scen"))]


@st.composite
def maps(draw: st.DrawFn) -> str:
    width, height = draw(st.integers(0, 12)), draw(st.integers(0, 8))
    head = [
        draw(st.sampled_from(["type octile", "type x", "type", ""])),
        f"height {draw(st.sampled_from([height, height + 1, -1, 0, 10**30]))}",
        f"width {draw(st.sampled_from([width, 0, 'w', '9' * 5000]))}",
        draw(st.sampled_from(["map", "map x", "MAP"])),
    ]
    rows = [
        "".join(draw(st.lists(st.sampled_from(".@TGSOW x\t"), min_size=width, max_size=width))) for _ in range(height)
    ]
    return "\n".join(head + rows)


MAP_TEXT = st.one_of(
    maps(), st.text(max_size=200), st.sampled_from(MAPS).flatmap(lambda t: mutated(t, ".@T\nmaptypeoctile 0123456789"))
)
SCEN_TEXT = st.one_of(
    st.text(max_size=200),
    st.text(alphabet="0123456789.\t -version\nabc", max_size=200),
    st.sampled_from(SCENS).flatmap(lambda t: mutated(t, "0123456789.\t -\nxe")),
)


@pytest.mark.parametrize("profile", PROFILES)
def test_map_files(profile: Profile) -> None:
    def check(text: str) -> None:
        grid = parses_or_refuses(lambda: parse_map(text.splitlines(), "fuzz.map"))
        if grid is not None:
            assert len(grid.rows) == grid.height and all(len(r) == grid.width for r in grid.rows)
            assert all(grid.passable(x, y) == (grid.rows[y][x] in PASSABLE) for y in range(grid.height) for x in (0,))

    profile.run(MAP_TEXT, check)


@pytest.mark.parametrize("profile", PROFILES)
def test_scenario_files(profile: Profile) -> None:
    def check(text: str) -> None:
        found = parses_or_refuses(lambda: parse_scen(text.splitlines(), "fuzz.scen"))
        assert found is None or all(0 <= s.start[0] < s.width and 0 <= s.goal[1] < s.height for s in found)

    profile.run(SCEN_TEXT, check)
