"""Sokoban level files: parsing, collections, bundled levels, and every validation error."""

from __future__ import annotations

import pytest
from searchkit_sokoban.levels import bundled_text, expand_row, load_level, parse_level, parse_levels, select

from searchkit import InputError

SIMPLE = "#####\n#@$.#\n#####\n"


def test_round_trip_of_every_symbol():
    text = "#######\n#.@ $ #\n#*+$. #\n#######\n"
    text = "#######\n#  @$.#\n# *$. #\n#######\n"
    level = parse_level(text)
    assert level.text() == text
    assert parse_level(level.text()) == level


def test_player_on_goal_and_box_on_goal():
    level = parse_level("######\n#+$ *#\n#  $.#\n######")
    assert level.rows[1] == "#+$ *#"


def test_dash_and_underscore_are_floor():
    assert parse_level("#####\n#@$.#\n#-_-#\n#####").rows[2] == "#   #"


def test_run_length_rows_and_bar_separators():
    assert expand_row("4#") == ["####"]
    assert expand_row("#@$.#|5#") == ["#@$.#", "#####"]
    assert parse_level("5#|#@$.#|5#").rows == parse_level(SIMPLE).rows
    assert parse_level("5#\n#@$.#\n5#").rows == parse_level(SIMPLE).rows


@pytest.mark.parametrize(
    "variant",
    [
        SIMPLE.replace("\n", "\r\n"),
        "\ufeff" + SIMPLE,
        "#####   \n#@$.#  \n#####\t\n",
        "\t#####\n\t#@$.#\n\t#####\n",
        "\n\n" + SIMPLE + "\n\n",
    ],
)
def test_tolerated_formatting(variant):
    level = parse_level(variant)
    assert [r.strip() for r in level.rows] == ["#####", "#@$.#", "#####"]


def test_collection_titles_and_selection():
    text = "; Collection header\n\n; One\n\n" + SIMPLE + "\n; Two\n'Nice name'\n\n#####\n#.$@#\n#####\n"
    levels = parse_levels(text)
    assert [lv.title for lv in levels] == ["One", "Two"]
    assert select(levels, "2", "x").rows[1] == "#.$@#"
    assert select(levels, "nice NAME", "x").number == 2
    assert select(levels, "one", "x").number == 1


def test_title_line_after_board():
    levels = parse_levels(SIMPLE + "Title: Tiny\nAuthor: me\n\n#####\n#.$@#\n#####\n")
    assert levels[0].title == "Tiny"
    assert levels[1].title is None and levels[1].label == "2"


def test_collection_needs_a_level_and_says_how_many():
    with pytest.raises(InputError, match="holds 2 levels"):
        parse_level(SIMPLE + "\n" + SIMPLE)


def test_bundled_microban():
    levels = parse_levels(bundled_text("microban"), "microban")
    assert len(levels) == 155
    assert "David W. Skinner" in bundled_text("microban")
    assert levels[43].names == ("44", "Duh!")
    assert load_level("microban:11") == levels[10]
    assert load_level("microban", "Duh!") == levels[43]
    assert load_level("microban", "155").title == "155"


def test_level_from_file(tmp_path):
    path = tmp_path / "one.txt"
    path.write_text(SIMPLE)
    assert load_level(str(path)).rows[1] == "#@$.#"
    assert load_level("one.txt", base_dir=tmp_path).rows[1] == "#@$.#"
    two = tmp_path / "two.txt"
    two.write_text("; A\n\n" + SIMPLE + "\n; B\n\n#####\n#.$@#\n#####\n")
    assert load_level(f"{two}:2").rows[1] == "#.$@#"  # a file's level picked as bundled ones are
    assert load_level("two.txt:B", base_dir=tmp_path).title == "B"
    with pytest.raises(InputError, match="already picks level 2"):
        load_level(f"{two}:2", "1")
    with pytest.raises(InputError, match="out of range"):
        load_level(f"{two}:3")
    with pytest.raises(InputError, match=r"not found .*FILE:N"):
        load_level(f"{tmp_path / 'three.txt'}:1")


@pytest.mark.parametrize(
    "text, needle",
    [
        ("#####\n#.$ #\n#####", "no player"),
        ("######\n#@$.@#\n######", "2 players"),
        ("######\n#@$$.#\n######", "2 boxes but 1 goals"),
        ("#####\n#@ .#\n#####", "no boxes"),
        ("#####\n#@$x#\n#####", "unknown character 'x'"),
        ("#####\n#@$.#\n#####\n#?  #", "unknown character '?'"),
        ("### #\n#@$.#\n#####", "not closed"),
        ("#####\n#@$.\n#####", "not closed"),
        ("#####\n#@ .#\n#####\n $", "a box at row 4"),
        ("", "no level"),
        ("; just a comment\n", "no level"),
    ],
)
def test_validation_errors(text, needle):
    with pytest.raises(InputError, match=needle) as info:
        parse_level(text)
    assert "\n" not in str(info.value)


def test_file_errors(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("  \n")
    with pytest.raises(InputError, match="empty"):
        load_level(str(empty))
    with pytest.raises(InputError, match="not found"):
        load_level(str(tmp_path / "missing.txt"))
    with pytest.raises(InputError, match="out of range"):
        load_level("microban", "156")
    with pytest.raises(InputError, match="out of range"):
        load_level("microban:0")
    with pytest.raises(InputError, match="no level titled"):
        load_level("microban", "no such title")


@pytest.mark.parametrize(
    "text, needle",
    [
        ("#####\n#@\t$.#\n#####", r"a tab inside a board row, line 2, column 3"),  # was "not closed"
        ("#######\n#@$.  #\n#\t    #\n#######", r"a tab inside a board row, line 3, column 2"),
        (" \t#####\n #\t@$.#\n\t#####", r"line 2, column 3"),  # a column of the line as written
        ("#####\n#@$.#\n#  \t #\n#####", r"line 3, column 4"),  # a row of floor and walls only
    ],
)
def test_a_tab_inside_a_row_is_named_with_its_line_and_column(text, needle):
    with pytest.raises(InputError, match=needle):
        parse_level(text)


def test_a_player_outside_the_walls_is_said_to_be_outside():
    with pytest.raises(InputError, match=r"the player at line 1, column 3 is outside the walls"):
        parse_level("  @\n#####\n#$. #\n#####\n")  # was "the level has no player"
    with pytest.raises(InputError, match=r"player at row 4, column 3 is outside the walls"):
        parse_level("#####\n#$. #\n#####\n  @\n")
    with pytest.raises(InputError, match="no player"):
        parse_level("  @\n\n#####\n#$. #\n#####\n")  # a paragraph apart: a title, not a row


def test_a_title_that_two_levels_share_is_refused_with_their_numbers():
    levels = parse_levels("; A\n\n" + SIMPLE + "\n; B\n\n" + SIMPLE + "\n; a\n\n" + SIMPLE)
    with pytest.raises(InputError, match=r"levels 1, 3 are all titled 'A'.*--level N"):
        select(levels, "A", "x")
    assert select(levels, "b", "x").number == 2 and select(levels, "3", "x").number == 3
