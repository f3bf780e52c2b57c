"""Sokoban level files: the standard text format, collections, bundled sets, validation.

A file holds one level or a collection.  Board rows use ``#`` wall, ``@`` player, ``+``
player on goal, ``$`` box, ``*`` box on goal, ``.`` goal and space/``-``/``_`` floor;
run-length counts (``4#``) and ``|`` row separators are expanded.  Lines that are not board
rows (``;`` comments, ``'quoted names'``, ``Title: ...``) are metadata: the paragraph just
before a board names it, and a ``Title:`` line right after a board does too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from searchkit import InputError

WALL, PLAYER, PLAYER_GOAL, BOX, BOX_GOAL, GOAL, FLOOR = "#", "@", "+", "$", "*", ".", " "
BOARD_CHARS = frozenset("#@+$*.-_ ")
ROW_CHARS = BOARD_CHARS | frozenset("0123456789|")
BUNDLED = {"microban": "microban.txt", "xsokoban": "xsokoban.txt", "sasquatch": "sasquatch_ii.txt"}
MAX_SIDE = 100  # rows and columns of a level: bigger boards take minutes just to set up (push distances)
MAX_FILE_BYTES = 8 * 1024 * 1024  # a level file; the largest collections are a few MB
_RLE = re.compile(r"([0-9]+)(.)")
_KEY_VALUE = re.compile(r"^\s*(title|author|comment|date|collection)\s*:\s*(.*)$", re.IGNORECASE)


@dataclass(frozen=True)
class Level:
    """One validated level: rectangular rows in canonical characters plus its names."""

    rows: tuple[str, ...]
    title: str | None = None
    names: tuple[str, ...] = ()  # every metadata line that may name it (for --level TITLE)
    number: int = 1  # 1-based position in its file
    source: str = ""

    @property
    def width(self) -> int:
        return len(self.rows[0]) if self.rows else 0

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def label(self) -> str:
        return self.title or str(self.number)

    def text(self) -> str:
        """The board as text, trailing spaces removed (what a Sokoban program reads)."""
        return "\n".join(r.rstrip() for r in self.rows) + "\n"


@dataclass
class _Block:
    rows: list[tuple[int, str]] = field(default_factory=list)  # (line number, row)
    before: list[list[str]] = field(default_factory=list)  # metadata paragraphs before it
    after: list[str] = field(default_factory=list)  # Title:-style lines right after it
    stray_player: tuple[int, int] | None = None  # (line, column) of a player just above it, outside its walls


def expand_row(text: str, limit: int = MAX_SIDE) -> list[str]:
    """Expand run-length counts and split ``|``-separated rows.

    ValueError (`parse_levels` adds where) when a row would be longer than ``limit`` or the
    line would make more than ``limit`` rows: ``99999999#`` is refused before it is expanded."""
    if any(c in "0123456789" for c in text):
        counts = [m.group(1) for m in _RLE.finditer(text)]
        if any(len(c) > 9 for c in counts) or len(_RLE.sub("", text)) + sum(map(int, counts)) > limit * (limit + 1):
            raise ValueError(f"expands to more than {limit} x {limit} squares")
        text = _RLE.sub(lambda m: m.group(2) * int(m.group(1)), text)
    rows = text.split("|")
    if len(rows) > limit:
        raise ValueError(f"makes {len(rows)} rows; a level may have at most {limit}")
    wide = max(len(r.rstrip()) for r in rows)
    if wide > limit:
        raise ValueError(f"makes a row {wide} squares wide; a level may be at most {limit}")
    return rows


def _is_row(line: str) -> bool:
    return "#" in line and all(c in ROW_CHARS for c in line)


def _looks_like_row(line: str) -> bool:
    """A line that starts like a board row (wall first) but has other characters."""
    s = line.lstrip(" ")
    return s[:1] == "#" or (s[:1].isdigit() and s.lstrip("0123456789")[:1] == "#")


def _player_column(line: str) -> int | None:
    """The 1-based column of the player on a line of board squares without a wall, else None."""
    if WALL in line or not all(c in BOARD_CHARS for c in line):
        return None
    columns = [c for c, ch in enumerate(line, 1) if ch in (PLAYER, PLAYER_GOAL)]
    return columns[0] if columns else None


def _clean_lines(text: str) -> list[tuple[str, str]]:
    """Each line as read (without line end) and cleaned: trailing blanks dropped, tabs in the
    indentation expanded to 8 columns.  A tab after the first other character is kept: it is
    not part of the level format, and `_blocks` refuses it in a board row."""
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = []
    for raw in text.splitlines():
        body = raw.rstrip()
        rest = body.lstrip(" \t")
        lines.append((raw, body[: len(body) - len(rest)].expandtabs(8) + rest))
    return lines


def _refuse_tab(raw: str, line: str, in_board: bool, source: str, number: int) -> None:
    """InputError naming the column of a tab inside a line that is a board row but for its tabs."""
    squares = line.replace("\t", FLOOR)
    if "\t" in line and (_is_row(squares) or (in_board and all(c in ROW_CHARS for c in squares))):
        column = raw.index("\t", len(raw) - len(raw.lstrip(" \t"))) + 1
        raise InputError(
            f"{source}: a tab inside a board row, line {number}, column {column}: tabs are not part of "
            "the level format (floor is a space, '-' or '_')"
        )


def _blocks(text: str, source: str) -> tuple[list[_Block], list[list[str]]]:
    """Group lines into boards with their metadata; also return trailing metadata."""
    blocks: list[_Block] = []
    paragraphs: list[list[str]] = [[]]
    current: _Block | None = None
    just_ended: _Block | None = None  # the board that the previous line belonged to
    previous = ""  # the line before, when it was not a board row
    for number, (raw, line) in enumerate(_clean_lines(text), 1):
        _refuse_tab(raw, line, current is not None, source, number)
        if _is_row(line) or (current is not None and line.strip() and all(c in ROW_CHARS for c in line)):
            if current is None:
                current = _Block(before=[p for p in paragraphs if p])
                column = _player_column(previous)
                current.stray_player = None if column is None else (number - 1, column)
                blocks.append(current)
                paragraphs = [[]]
            current.rows.append((number, line))
            continue
        previous = line
        if current is not None:
            just_ended, current = current, None
        if not line.strip():
            just_ended = None
            if paragraphs[-1]:
                paragraphs.append([])
            continue
        if _looks_like_row(line):
            bad = next(c for c in line if c not in ROW_CHARS)
            raise InputError(f"{source}: unknown character {bad!r} in line {number}")
        meta = line.strip()
        if just_ended is not None and _KEY_VALUE.match(meta):
            just_ended.after.append(meta)
            continue
        just_ended = None
        paragraphs[-1].append(meta)
    return blocks, [p for p in paragraphs if p]


def _name_of(meta: str) -> str:
    meta = meta.lstrip(";").strip()
    m = _KEY_VALUE.match(meta)
    if m:
        return m.group(2).strip() if m.group(1).lower() == "title" else ""
    if len(meta) >= 2 and meta[0] == meta[-1] and meta[0] in "'\"":
        meta = meta[1:-1].strip()
    return meta


def _titles(block: _Block) -> tuple[str | None, tuple[str, ...]]:
    names: list[str] = []
    for meta in block.after:
        m = _KEY_VALUE.match(meta)
        if m and m.group(1).lower() == "title":
            names.append(m.group(2).strip())
    if block.before:
        names.extend(_name_of(m) for m in block.before[-1])
    names = [n for n in names if n]
    return (names[0] if names else None), tuple(names)


def _normalise(rows: list[tuple[int, str]], where: str) -> tuple[list[str], int]:
    out: list[str] = []
    for number, row in rows:
        try:
            out.extend(expand_row(row))
        except ValueError as e:
            raise InputError(f"{where}: line {number} {e}") from None
        if len(out) > MAX_SIDE:
            raise InputError(f"{where}: the level is more than {MAX_SIDE} rows high (line {number})")
    out = [r.rstrip() for r in out]
    while out and not out[-1].strip():
        out.pop()
    width = max((len(r) for r in out), default=0)
    table = str.maketrans({"-": " ", "_": " "})
    return [r.translate(table).ljust(width) for r in out], rows[0][0]


def validate(rows: list[str], where: str) -> None:
    """Raise InputError unless the board has one player, boxes = goals > 0 and is closed."""
    for r, row in enumerate(rows, 1):
        for c, ch in enumerate(row, 1):
            if ch not in BOARD_CHARS:
                raise InputError(f"{where}: unknown character {ch!r} at row {r}, column {c}")
    text = "".join(rows)
    players = text.count(PLAYER) + text.count(PLAYER_GOAL)
    if players == 0:
        raise InputError(f"{where}: the level has no player ('@' or '+')")
    if players > 1:
        raise InputError(f"{where}: the level has {players} players; exactly one is allowed")
    boxes = text.count(BOX) + text.count(BOX_GOAL)
    goals = text.count(GOAL) + text.count(PLAYER_GOAL) + text.count(BOX_GOAL)
    if boxes == 0:
        raise InputError(f"{where}: the level has no boxes")
    if boxes != goals:
        raise InputError(f"{where}: the level has {boxes} boxes but {goals} goals")
    height, width = len(rows), len(rows[0])
    # Every square that is not a wall and touches the outside, flooded inwards.
    outside: set[tuple[int, int]] = set()
    stack = [
        (r, c)
        for r in range(height)
        for c in range(width)
        if (r in (0, height - 1) or c in (0, width - 1)) and rows[r][c] != WALL
    ]
    outside.update(stack)
    while stack:
        r, c = stack.pop()
        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= nr < height and 0 <= nc < width and (nr, nc) not in outside and rows[nr][nc] != WALL:
                outside.add((nr, nc))
                stack.append((nr, nc))
    for r, c in sorted(outside):
        ch = rows[r][c]
        if ch in (PLAYER, PLAYER_GOAL):
            raise InputError(
                f"{where}: the level is not closed: the player at row {r + 1}, column {c + 1} is outside the walls "
                "(can walk off the board)"
            )
        if ch in (BOX, BOX_GOAL, GOAL):
            what = "a goal" if ch == GOAL else "a box"
            raise InputError(
                f"{where}: the level is not closed: {what} at row {r + 1}, column {c + 1} is outside the walls"
            )


def parse_levels(text: str, source: str = "<text>") -> list[Level]:
    """Every level of a file, validated, in file order.  A level may be at most `MAX_SIDE`
    rows and columns, the text at most `MAX_FILE_BYTES` characters (InputError beyond)."""
    if len(text) > MAX_FILE_BYTES:
        raise InputError(f"{source}: {len(text):,} characters is too long for level files (at most {MAX_FILE_BYTES:,})")
    blocks, _trailing = _blocks(text, source)
    levels = []
    for i, block in enumerate(blocks, 1):
        title, names = _titles(block)
        line = block.rows[0][0]
        where = f"{source}: level {title or i} (line {line})" if len(blocks) > 1 else source
        rows, _line = _normalise(block.rows, where)
        if block.stray_player and not any(PLAYER in r or PLAYER_GOAL in r for r in rows):
            number, column = block.stray_player
            raise InputError(f"{where}: the player at line {number}, column {column} is outside the walls")
        validate(rows, where)
        levels.append(Level(tuple(rows), title, names, i, source))
    return levels


def parse_level(text: str, source: str = "<text>") -> Level:
    """The single level of ``text`` (a collection is an error)."""
    return select(parse_levels(text, source), None, source)


def select(levels: list[Level], which: str | int | None, source: str) -> Level:
    """Pick a level by 1-based number or title (its own title first, else another name it
    has); a collection needs a choice, and a title that two levels share is refused with
    their numbers."""
    if not levels:
        raise InputError(f"{source}: no level found (empty file or no board rows)")
    if which is None or str(which).strip() == "":
        if len(levels) == 1:
            return levels[0]
        raise InputError(
            f"{source} holds {len(levels)} levels; pick one with --level N (1-{len(levels)}) or --level TITLE"
        )
    key = str(which).strip()
    if key.isascii() and key.isdigit():  # "²" is a digit to isdigit, not to int
        n = int(key) if len(key) <= 9 else 0  # thousands of digits: out of range (int() would fail)
        if not 1 <= n <= len(levels):
            shown = key if len(key) <= 12 else key[:9] + "..."
            raise InputError(
                f"--level {shown} is out of range: {source} holds {len(levels)} level(s) (1-{len(levels)})"
            )
        return levels[n - 1]
    folded = key.casefold()
    for matches in (
        [lv for lv in levels if lv.title is not None and lv.title.casefold() == folded],
        [lv for lv in levels if any(n.casefold() == folded for n in lv.names)],
    ):
        if len(matches) > 1:
            numbers = ", ".join(str(lv.number) for lv in matches)
            raise InputError(f"{source}: levels {numbers} are all titled {key!r}; pick one by number: --level N")
        if matches:
            return matches[0]
    raise InputError(f"{source}: no level titled {key!r} (the file holds {len(levels)} levels)")


def bundled_names() -> list[str]:
    return sorted(BUNDLED)


def bundled_text(name: str) -> str:
    return resources.files(__package__).joinpath("data", BUNDLED[name]).read_text(encoding="utf-8")


def split_source(source: str) -> tuple[str, str | None] | None:
    """``("microban", "11")`` for ``microban:11``, ``("microban", None)`` for ``microban``;
    None when ``source`` is not a bundled name."""
    name, _, which = source.partition(":")
    if name.lower() in BUNDLED:
        return name.lower(), (which or None)
    return None


def read_source(source: str, base_dir: Path | None = None) -> tuple[list[Level], str | None, str]:
    """Levels of a path or bundled name, the level the name picks (if any: ``microban:11``,
    ``levels.txt:3``), a label."""
    path = _resolve(source, base_dir)
    bundled = split_source(source)
    if bundled is not None and not path.exists():
        name, which = bundled
        return parse_levels(bundled_text(name), name), which, name
    if not path.exists():
        head, colon, which = source.rpartition(":")
        if colon and head and which and _resolve(head, base_dir).is_file():  # a file's level, as microban:11
            levels, _picked, label = read_source(head, base_dir)
            return levels, which, label
        hint = f" (bundled: {', '.join(bundled_names())}, e.g. microban:11; a file's level: FILE:N)"
        raise InputError(f"level file {source!r} not found{hint}")
    if path.is_dir():
        raise InputError(f"level file {source!r} is a directory")
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)  # never more: a huge file is refused, not read
    except OSError as e:
        raise InputError(f"cannot read level file {source!r}: {e.strerror or e}") from None
    if len(data) > MAX_FILE_BYTES:
        raise InputError(f"level file {source!r} is larger than {MAX_FILE_BYTES >> 20} MB: not a Sokoban level file")
    text = decode_level_bytes(data)
    if not text.strip():
        raise InputError(f"level file {source!r} is empty")
    return parse_levels(text, path.name), None, path.name


def _resolve(source: str, base_dir: Path | None) -> Path:
    """The path ``source`` names, relative ones from ``base_dir`` when given."""
    path = Path(source)
    return base_dir / path if base_dir is not None and not path.is_absolute() else path


def decode_level_bytes(data: bytes) -> str:
    """Text of a level file: UTF-8 (BOM or not), UTF-16 with its BOM (Windows editors), else latin-1."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            pass
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def load_level(source: str, level: str | int | None = None, base_dir: Path | None = None) -> Level:
    """The level named by a path or bundled name and ``--level`` (which wins)."""
    levels, picked, label = read_source(source, base_dir)
    if level is not None and picked is not None and str(level) != picked:
        raise InputError(f"{source!r} already picks level {picked}; drop --level {level}")
    return select(levels, level if level is not None else picked, label)
