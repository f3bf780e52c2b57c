"""Sokoban pictures: positions drawn with plain shapes, frames of a LURD solution, GIF/PNG."""

from __future__ import annotations

import pytest
from pictures import gif, same
from PIL import Image
from searchkit_sokoban.levels import load_level, parse_level
from searchkit_sokoban.lurd import replay_lurd
from searchkit_sokoban.picture import (
    CELL,
    END_PAUSE_MS,
    MOVE_MS,
    PUSH_MS,
    START_MS,
    board_picture,
    grid_of,
    render_board,
    replay_positions,
    solution_frames,
    write_outputs,
)

from searchkit import InputError

LEVEL = """\
  ####
###  ####
#     $ #
# #  #$ #
# . .#@ #
#########
"""
LURD = "ruuLLLulDrrrrddlUruLLLddllluurRDrdLuuurDD"  # 13 pushes, 41 moves


def final_picture(level_text: str, lurd: str) -> Image.Image:
    """The solved position, found by the plugin's own replayer and drawn from scratch."""
    level = parse_level(level_text)
    end = replay_lurd(level, lurd, keep_boards=True).boards[-1]
    done = grid_of("\n".join(end))
    floor = grid_of(level_text).floor
    return render_board(
        done.walls, done.goals, done.boxes, done.player, done.width, done.height, floor=floor, facing=lurd[-1].lower()
    )


def test_grid_of_text_and_level_agree():
    a, b = grid_of(LEVEL), grid_of(parse_level(LEVEL))
    assert a == b
    assert a.player == (4, 6) and a.boxes == {(2, 6), (3, 6)} and a.goals == {(4, 2), (4, 4)}
    assert (0, 0) not in a.floor and (2, 1) in a.floor  # outside the walls is not floor


def test_squares_are_drawn_differently():
    g = grid_of(LEVEL)
    pic = render_board(g.walls, g.goals, g.boxes, g.player, g.width, g.height, floor=g.floor)
    assert pic.size == (g.width * CELL, g.height * CELL)

    def cell(r, c, img=pic):
        return img.crop((c * CELL, r * CELL, (c + 1) * CELL, (r + 1) * CELL))

    wall, floor, goal, box, player, outside = cell(0, 2), cell(2, 1), cell(4, 2), cell(2, 6), cell(4, 6), cell(0, 0)
    looks = [wall, floor, goal, box, player, outside]
    for i, a in enumerate(looks):
        for b in looks[i + 1 :]:
            assert not same(a, b)
    on_goal = render_board(g.walls, g.goals, {(4, 2)}, None, g.width, g.height, floor=g.floor)
    assert not same(cell(4, 2, on_goal), box) and not same(cell(4, 2, on_goal), goal)
    assert pic.getcolors(256) is not None  # few colours: a GIF keeps every frame exactly


def test_player_faces_where_it_went():
    g = grid_of(LEVEL)
    looks = [
        render_board(g.walls, g.goals, g.boxes, g.player, g.width, g.height, facing=f).crop(
            (6 * CELL, 4 * CELL, 7 * CELL, 5 * CELL)
        )
        for f in "udlr"
    ]
    assert len({im.tobytes() for im in looks}) == 4


@pytest.mark.parametrize("per,count", [("push", 13), ("move", 41)])
def test_frames_per_push_or_move(per, count):
    frames = list(solution_frames(LEVEL, LURD, per))
    assert len(frames) == count + 1
    assert same(frames[0], board_picture(LEVEL))
    assert same(frames[-1], final_picture(LEVEL, LURD))
    for a, b in zip(frames, frames[1:]):
        assert not same(a, b)


def test_positions_follow_the_rules():
    g = grid_of(LEVEL)
    positions = replay_positions(g, LURD, "push")
    assert positions[-1][0] == g.goals
    boxes, player, facing = positions[1]  # "ruuL": the player pushes the box at (2, 6) left
    assert player == (2, 6) and facing == "l" and boxes == {(2, 5), (3, 6)}
    for bad, needle in (
        ("x", "not a LURD letter"),
        ("d", "wall"),
        ("u", "walks into a box"),
        ("R", "no box"),
        ("U", "blocked"),
    ):
        with pytest.raises(ValueError, match=needle):
            replay_positions(g, bad)
    with pytest.raises(ValueError):
        replay_positions(g, LURD, "jump")


@pytest.mark.parametrize("per,steps,step_ms", [("push", 13, PUSH_MS), ("move", 41, MOVE_MS)])
def test_gif_and_png(tmp_path, per, steps, step_ms):
    notes = []
    write_outputs(
        parse_level(LEVEL),
        LURD,
        {"gif": str(tmp_path / "s.gif"), "png": str(tmp_path / "s.png"), "frames_per": per},
        notes.append,
    )
    frames, durations = gif(tmp_path / "s.gif")
    assert len(frames) == steps + 1
    assert durations == [START_MS] + [step_ms] * (steps - 1) + [step_ms + END_PAUSE_MS]
    assert same(frames[-1], final_picture(LEVEL, LURD))  # pixel for pixel
    with Image.open(tmp_path / "s.png") as start:
        assert same(start, frames[0]) and same(start, board_picture(LEVEL))
    assert len(notes) == 2 and all(str(tmp_path) in n for n in notes)


def test_frames_directory(tmp_path):
    write_outputs(parse_level(LEVEL), LURD, {"frames": str(tmp_path / "f")}, lambda m: None)
    files = sorted((tmp_path / "f").iterdir())
    assert len(files) == 14
    with Image.open(files[-1]) as last:
        assert same(last, final_picture(LEVEL, LURD))


def test_long_solutions_get_smaller_gif_squares(tmp_path, monkeypatch):
    from searchkit_sokoban import picture

    monkeypatch.setattr(picture, "GIF_PIXEL_BUDGET", 14 * 9 * 6 * 16 * 16)  # 16-pixel squares fit
    notes = []
    write_outputs(parse_level(LEVEL), LURD, {"gif": str(tmp_path / "s.gif")}, notes.append)
    frames, _ = gif(tmp_path / "s.gif")
    assert frames[0].size == (9 * 16, 6 * 16) and "16-pixel" in notes[0]


def test_bad_options(tmp_path):
    level = parse_level(LEVEL)
    with pytest.raises(InputError, match="--frames-per"):
        write_outputs(level, LURD, {"gif": str(tmp_path / "a.gif"), "frames_per": "step"}, print)
    with pytest.raises(InputError, match="no directory"):
        write_outputs(level, LURD, {"png": str(tmp_path / "no" / "a.png")}, print)
    assert not (tmp_path / "a.gif").exists()


def test_bundled_level_renders():
    level = load_level("microban:1")
    pic = board_picture(level)
    assert pic.size == (level.width * CELL, level.height * CELL)


def test_cli(tmp_path):
    from typer.testing import CliRunner

    from searchkit.cli import build_app

    (tmp_path / "l.txt").write_text(LEVEL)
    res = CliRunner().invoke(
        build_app(),
        [
            "solve",
            "sokoban",
            str(tmp_path / "l.txt"),
            "--gif",
            str(tmp_path / "a.gif"),
            "--png",
            str(tmp_path / "a.png"),
            "--frames-per",
            "move",
            "--json",
        ],
    )
    assert res.exit_code == 0, res.output
    import json

    doc = json.loads(res.stdout)
    frames, _ = gif(tmp_path / "a.gif")
    assert len(frames) == doc["moves"] + 1
    assert same(frames[-1], final_picture(LEVEL, doc["lurd"]))
