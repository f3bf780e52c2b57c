"""The sliding picture puzzle: a picture cut into the board's tiles, boards drawn as images.

The picture is cut by the goal: the piece in goal cell ``p`` belongs to tile ``goal[p]``,
so the solved board shows the picture whatever cell the goal gives the blank.  The blank
is an empty hole; on the solved board the missing piece is put back and the frame is the
picture itself, pixel for pixel, as sliding-picture games do when the puzzle is done.

Pictures come from any file Pillow reads (square-cropped with ``ImageOps.fit``, EXIF
orientation applied, JPEGs decoded at reduced scale with ``Image.draft``) or from
`default_picture`, drawn here in code.  Bad files raise a one-line `InputError`.
"""

from __future__ import annotations

import math
import random
import struct
import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import ExifTags, Image, ImageDraw, ImageFilter, ImageFont, ImageOps, UnidentifiedImageError

from searchkit import InputError, Result
from searchkit.render import check_directory, check_file, save_frames, save_gif, save_png

BOARD_SIDE = 480  # pixels along the board's longer side
MIN_TILE = 12
MAX_DECODE_PIXELS = 50_000_000  # a file decoded at full size (not a JPEG) may be at most this big
GIF_PIXEL_BUDGET = 64_000_000  # Pillow holds every GIF frame (1 byte a pixel) until it writes
START_MS, MOVE_MS, END_PAUSE_MS = 1000, 300, 2000
EMPTY = (12, 12, 14)  # the blank's hole
MATTE = (236, 236, 236)  # what shows through transparent parts of a picture
OUTPUT_OPTIONS = ("gif", "frames", "png")


def tile_side(width: int, height: int, side: int = BOARD_SIDE) -> int:
    """Pixels per tile so the board's longer side is about ``side``."""
    return max(MIN_TILE, side // max(width, height))


# -- reading pictures ------------------------------------------------------------------------
def load_picture(path: str | Path, size: tuple[int, int]) -> Image.Image:
    """The picture in ``path`` cropped and scaled to exactly ``size`` (RGB).

    A JPEG is decoded at 1/2, 1/4 or 1/8 scale when that still covers ``size`` (it never
    sits in memory at full size); other formats are decoded whole up to
    `MAX_DECODE_PIXELS` and refused beyond it, as is anything over Pillow's
    decompression-bomb limit.
    """
    path = Path(path)
    if not path.exists():
        raise InputError(f"image {str(path)!r} not found")
    if path.is_dir():
        raise InputError(f"image {str(path)!r} is a directory, not a picture file")
    try:
        if path.stat().st_size == 0:
            raise InputError(f"image {str(path)!r} is an empty file")
        with warnings.catch_warnings():
            # over MAX_IMAGE_PIXELS Pillow only warns, and on a broken file it warns before it
            # fails ("Corrupt EXIF data", printed with its source line): the size check and the
            # errors below decide, in one line
            warnings.simplefilter("ignore")
            with Image.open(path) as opened:
                im = _decode(opened, size, path)
            return _fit(im, size)
    except InputError:  # already one clear line (an InputError is a ValueError: keep it out of the net below)
        raise
    except Image.DecompressionBombError:
        limit = 2 * (Image.MAX_IMAGE_PIXELS or 0)
        raise InputError(f"image {str(path)!r} is too large to open safely (over {limit:,} pixels)") from None
    except UnidentifiedImageError:
        raise InputError(f"image {str(path)!r} is not a picture Pillow can read") from None
    except (OSError, SyntaxError, ValueError, EOFError, struct.error) as e:
        reason = " ".join((getattr(e, "strerror", None) or str(e) or type(e).__name__).split())
        raise InputError(f"cannot read image {str(path)!r}: {reason}") from None
    except MemoryError:
        raise InputError(f"image {str(path)!r} does not fit in memory") from None


def picture_png(data: bytes | None, side: int) -> bytes:
    """The web page's picture: ``data`` (an uploaded file) or the built-in one, cropped
    square to ``side`` pixels, as PNG bytes; a one-line InputError for a bad file."""
    import io
    import tempfile

    if data is None:
        im = default_picture((side, side))
    else:
        with tempfile.TemporaryDirectory(prefix="searchkit-upload-") as tmp:
            path = Path(tmp) / "upload"
            path.write_bytes(data)
            try:
                im = load_picture(path, (side, side))
            except InputError as e:
                message = str(e).replace(f"image {str(path)!r}", "the uploaded file")
                message = message.replace(f"{str(path)!r}", "upload")
                raise InputError(message) from None
    out = io.BytesIO()
    im.save(out, "PNG")
    return out.getvalue()


def _decode(im: Image.Image, size: tuple[int, int], path: Path) -> Image.Image:
    """Decode ``im`` no larger than needed to cover ``size`` after EXIF rotation."""
    try:
        orientation = im.getexif().get(ExifTags.Base.Orientation, 1)
    except Exception:  # a broken EXIF block is no reason to refuse the picture
        orientation = 1
    want = (size[1], size[0]) if orientation in (5, 6, 7, 8) else size
    im.draft("RGB", want)  # JPEG: scale down while decoding; other formats ignore it
    if im.width * im.height > MAX_DECODE_PIXELS:
        raise InputError(
            f"image {str(path)!r} is too large to decode: {im.width} x {im.height} pixels "
            f"(at most {MAX_DECODE_PIXELS // 1_000_000} million unless it is a JPEG)"
        )
    if im.width < 1 or im.height < 1:
        raise InputError(f"image {str(path)!r} has no pixels ({im.width} x {im.height})")
    im.load()
    if orientation != 1:
        im = ImageOps.exif_transpose(im)
    return im


def _fit(im: Image.Image, size: tuple[int, int]) -> Image.Image:
    """Flatten transparency onto `MATTE`, then centre-crop and scale to ``size``."""
    if im.mode in ("RGBA", "LA", "PA") or (im.mode == "P" and "transparency" in im.info):
        rgba = im.convert("RGBA")
        im = Image.new("RGBA", rgba.size, MATTE + (255,))
        im.alpha_composite(rgba)
    if im.mode != "RGB":
        im = im.convert("RGB")
    scale = max(size[0] / im.width, size[1] / im.height)
    if scale < 0.5:  # shrink cheaply first (reducing_gap), keeping enough pixels to cover size
        cover = (max(size[0], math.ceil(im.width * scale)) + 1, max(size[1], math.ceil(im.height * scale)) + 1)
        im.thumbnail(cover, Image.Resampling.LANCZOS, reducing_gap=2.0)
    return ImageOps.fit(im, size, Image.Resampling.LANCZOS)


# -- the built-in picture --------------------------------------------------------------------
def default_picture(size: tuple[int, int]) -> Image.Image:
    """A sunset over hills and a lake, drawn in code (same picture every time).

    The sky's colour runs from violet to gold across as well as down, and the moon, stars,
    sun, birds, hills, trees and reflections spread over the whole frame, so neighbouring
    tiles look different even on a 16 x 16 board.
    """
    w, h = size
    ss = 2  # draw at twice the size and shrink: smooth edges without antialiased primitives
    W, H = w * ss, h * ss
    unit = min(W, H)
    rng = random.Random(15)
    img = _sky(W, H)

    over = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(over)
    # stars, fading towards the horizon
    for _ in range(int(140 * W * H / unit**2)):
        x, y = rng.random() * W, rng.random() ** 1.6 * H * 0.5
        alpha = int(230 * (1 - y / (H * 0.5)))
        r = unit * (0.002 + rng.random() * 0.004)
        d.ellipse((x - r, y - r, x + r, y + r), fill=(255, 250, 230, alpha))
    for _ in range(int(12 * W * H / unit**2)):
        x, y = rng.random() * W, rng.random() * H * 0.3
        _sparkle(d, x, y, unit * (0.012 + rng.random() * 0.012), (255, 255, 240, 220))
    img.alpha_composite(over)

    _moon(img, W * 0.16, H * 0.15, unit * 0.075)
    sun = (W * 0.63, H * 0.57, unit * 0.12)
    _sun(img, *sun)
    _clouds(img, W, H, unit, rng)

    over = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(over)
    for i in range(5):  # birds near the sun
        x, y = W * (0.42 + 0.07 * i + rng.random() * 0.03), H * (0.33 + 0.05 * math.sin(i * 1.7))
        s = unit * (0.018 + 0.006 * (i % 3))
        d.line(
            [(x - s, y - s * 0.5), (x, y), (x + s, y - s * 0.6)],
            fill=(40, 20, 50, 230),
            width=max(2, int(unit * 0.005)),
        )
    img.alpha_composite(over)

    horizon = H * 0.72
    layers = [  # far to near: paler, then darker and higher contrast
        (0.50, 0.07, (176, 96, 150), (214, 130, 150)),
        (0.58, 0.06, (112, 62, 128), (150, 80, 130)),
        (0.65, 0.05, (58, 40, 96), (84, 52, 110)),
    ]
    for base, amp, top, bottom in layers:
        _hills(img, W, H, base, amp, top, bottom, horizon, rng)
    _lake(img, W, H, horizon, sun[0], unit)
    _trees(img, W, H, horizon, unit, rng)
    return img.convert("RGB").resize((w, h), Image.Resampling.LANCZOS)


def _lerp(a: tuple, b: tuple, t: float) -> tuple:
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b))


def _ramp(stops: list[tuple[float, tuple]], t: float) -> tuple:
    for (t0, c0), (t1, c1) in zip(stops, stops[1:]):
        if t <= t1:
            return _lerp(c0, c1, max(0.0, (t - t0) / (t1 - t0)))
    return stops[-1][1]


def _sky(W: int, H: int) -> Image.Image:
    """A 2-D gradient: night violet at the top to gold at the horizon, cooler on the left."""
    down = [
        (0.0, (18, 16, 60)),
        (0.3, (74, 34, 120)),
        (0.52, (206, 84, 128)),
        (0.66, (252, 160, 96)),
        (0.75, (255, 214, 128)),
        (1.0, (255, 214, 128)),
    ]
    cool, warm = (40, 110, 210), (255, 120, 40)
    n = 48
    small = Image.new("RGB", (n, n))
    px = small.load()
    assert px is not None  # a new image has its pixels already
    for j in range(n):
        base = _ramp(down, j / (n - 1))
        for i in range(n):
            x = i / (n - 1)
            tint = _lerp(cool, warm, x)
            strength = 0.28 * (1 - abs(j / (n - 1) - 0.2))
            px[i, j] = _lerp(base, tint, strength)
    return small.resize((W, H), Image.Resampling.BICUBIC).convert("RGBA")


def _sparkle(d: ImageDraw.ImageDraw, x: float, y: float, r: float, fill: tuple) -> None:
    k = r * 0.22
    d.polygon(
        [
            (x, y - r),
            (x + k, y - k),
            (x + r, y),
            (x + k, y + k),
            (x, y + r),
            (x - k, y + k),
            (x - r, y),
            (x - k, y - k),
        ],
        fill=fill,
    )


def _glow(img: Image.Image, x: float, y: float, r: float, rings: int, spread: float, fill: tuple) -> None:
    """A soft halo: ``rings`` faint discs growing by ``spread`` x r, blurred."""
    glow = Image.new("RGBA", img.size, (0, 0, 0, 0))
    d = ImageDraw.Draw(glow)
    for i in range(rings, 0, -1):
        g = r * (1 + spread * i)
        d.ellipse((x - g, y - g, x + g, y + g), fill=fill)
    img.alpha_composite(glow.filter(ImageFilter.GaussianBlur(r * 0.3)))


def _moon(img: Image.Image, x: float, y: float, r: float) -> None:
    _glow(img, x, y, r, 6, 0.25, (200, 210, 255, 10))
    mask = Image.new("L", img.size, 0)
    m = ImageDraw.Draw(mask)
    m.ellipse((x - r, y - r, x + r, y + r), fill=255)
    m.ellipse((x - r * 0.45, y - r * 1.1, x + r * 1.45, y + r * 0.8), fill=0)  # the crescent's bite
    img.paste((250, 244, 210, 255), mask=mask)


def _sun(img: Image.Image, x: float, y: float, r: float) -> None:
    _glow(img, x, y, r, 10, 0.22, (255, 200, 90, 16))
    disc = Image.new("RGBA", img.size, (0, 0, 0, 0))
    d = ImageDraw.Draw(disc)
    for i in range(12):  # a disc from deep orange at the rim to pale yellow at the centre
        g = r * (1 - i / 14)
        d.ellipse((x - g, y - g, x + g, y + g), fill=_lerp((255, 120, 50), (255, 246, 190), i / 11) + (255,))
    for i in range(4):  # the classic banded lower half
        top = y + r * (0.25 + 0.18 * i)
        d.rectangle((x - r, top, x + r, top + r * (0.03 + 0.02 * i)), fill=(0, 0, 0, 0))
    img.alpha_composite(disc)


def _clouds(img: Image.Image, W: int, H: int, unit: int, rng: random.Random) -> None:
    layer = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    for cx, cy, length, colour in (
        (0.28, 0.40, 0.30, (255, 170, 190)),
        (0.80, 0.26, 0.26, (255, 190, 170)),
        (0.12, 0.55, 0.22, (250, 150, 150)),
        (0.92, 0.48, 0.18, (255, 200, 150)),
    ):
        x0, y0 = W * cx, H * cy
        for _ in range(9):
            dx = (rng.random() - 0.5) * W * length
            rw = unit * (0.04 + rng.random() * 0.05)
            rh = rw * 0.45
            dy = -rh * rng.random() * 0.6
            d.ellipse((x0 + dx - rw, y0 + dy - rh, x0 + dx + rw, y0 + dy + rh), fill=colour + (120,))
    img.alpha_composite(layer)


def _hills(
    img: Image.Image,
    W: int,
    H: int,
    base: float,
    amp: float,
    top: tuple,
    bottom: tuple,
    horizon: float,
    rng: random.Random,
) -> None:
    waves = [
        (rng.uniform(1.5, 3.5), rng.uniform(0, 6.3), 1.0),
        (rng.uniform(4, 7), rng.uniform(0, 6.3), 0.45),
        (rng.uniform(9, 14), rng.uniform(0, 6.3), 0.18),
    ]
    steps = 120
    ridge = []
    for i in range(steps + 1):
        x = i / steps
        y = sum(a * math.sin(f * x * math.pi + p) for f, p, a in waves) / 1.63
        ridge.append((x * W, H * (base - amp * y)))
    mask = Image.new("L", (W, H), 0)
    ImageDraw.Draw(mask).polygon(ridge + [(W, horizon), (0, horizon)], fill=255)
    shade = Image.new("RGBA", (1, 64))
    for j in range(64):
        shade.putpixel((0, j), _lerp(top, bottom, j / 63) + (255,))
    top_y = int(min(y for _, y in ridge))
    fill = shade.resize((W, max(1, int(horizon) - top_y)), Image.Resampling.BILINEAR)
    layer = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    layer.paste(fill, (0, top_y))
    img.paste(layer, mask=mask)


def _lake(img: Image.Image, W: int, H: int, horizon: float, sun_x: float, unit: int) -> None:
    """Water below the horizon, darker towards the viewer and bluer to the left, with the
    sun's glitter path and ripples."""
    n = 32
    small = Image.new("RGB", (n, n))
    px = small.load()
    assert px is not None  # a new image has its pixels already
    for j in range(n):
        base = _lerp((236, 136, 124), (24, 40, 92), (j / (n - 1)) ** 0.7)
        for i in range(n):
            px[i, j] = _lerp(base, _lerp((30, 90, 170), (200, 90, 60), i / (n - 1)), 0.3)
    img.paste(small.resize((W, H - int(horizon)), Image.Resampling.BICUBIC).convert("RGBA"), (0, int(horizon)))
    layer = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    rows = 16
    for i in range(rows):
        y = horizon + (H - horizon) * (i + 0.5) / rows
        half = unit * (0.13 - 0.005 * i) * (1 + 0.25 * math.sin(i * 2.3))
        thick = max(2, (H - horizon) / rows * 0.35)
        d.rounded_rectangle(
            (sun_x - half, y, sun_x + half, y + thick), radius=thick / 2, fill=(255, 220, 140, max(40, 220 - 12 * i))
        )
        for side in (-1, 1):  # ripples across the lake
            x = sun_x + side * (half + unit * (0.06 + 0.07 * ((i * 7) % 5)))
            d.line([(x, y), (x + side * unit * 0.1, y)], fill=(255, 210, 210, 90), width=max(1, int(thick / 2)))
    img.alpha_composite(layer)


def _trees(img: Image.Image, W: int, H: int, horizon: float, unit: int, rng: random.Random) -> None:
    """Pines in varied greens on a grassy shore at both sides, lit on the sun's side, and
    fireflies over the foreground: even the darkest tiles carry something of their own."""
    layer = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    for side in (0, 1):
        shore = [
            (0, horizon - unit * 0.02),
            (W * 0.26, horizon + unit * 0.015),
            (W * 0.2, horizon + unit * 0.08),
            (0, horizon + unit * 0.14),
        ]
        if side:
            shore = [(W - x, y) for x, y in shore]
        d.polygon(shore, fill=(34, 58, 52, 255))
        for k in range(7):
            t = k / 6
            x = W * (0.02 + 0.2 * t) if side == 0 else W * (0.98 - 0.2 * t)
            tall = unit * (0.24 - 0.14 * t) * (0.85 + 0.3 * rng.random())
            foot = horizon + unit * (0.025 - 0.025 * t)
            wide = tall * 0.24
            body = (18 + rng.randrange(20), 52 + rng.randrange(40), 58 + rng.randrange(30), 255)
            lit = _lerp(body[:3], (255, 170, 110), 0.35) + (255,)
            toward_sun = 1 if side == 0 else -1
            trunk = (x - wide * 0.09, foot - tall * 0.1, x + wide * 0.09, foot + unit * 0.01)
            d.rectangle(trunk, fill=(60, 36, 30, 255))
            for tier in range(4):  # stacked triangles make a pine
                ty = foot - tall * (tier / 4.2)
                tw = wide * (1 - tier / 5)
                apex = (x, ty - tall * 0.4)
                d.polygon([(x - tw, ty), (x + tw, ty), apex], fill=body)
                edge = (x + toward_sun * tw, ty)
                d.polygon([edge, apex, (x + toward_sun * tw * 0.55, ty)], fill=lit)
    for _ in range(int(45 * W / unit)):  # fireflies
        x, y = rng.random() * W, horizon + rng.random() ** 0.8 * (H - horizon)
        r = unit * (0.004 + rng.random() * 0.004)
        d.ellipse((x - 2.4 * r, y - 2.4 * r, x + 2.4 * r, y + 2.4 * r), fill=(255, 240, 120, 45))
        d.ellipse((x - r, y - r, x + r, y + r), fill=(255, 250, 170, 255))
    img.alpha_composite(layer)


# -- boards as pictures ----------------------------------------------------------------------
class PictureBoard:
    """One picture cut into one board's tiles; `draw` turns a board tuple into an image.

    Pieces are cut (and bevelled and numbered) once, so a frame costs one paste a tile.
    """

    def __init__(self, picture: Image.Image, width: int, height: int, goal: tuple[int, ...], numbers: bool = False):
        if picture.width % width or picture.height % height or picture.width // width != picture.height // height:
            raise ValueError(
                f"a {picture.width}x{picture.height} picture does not cut into {width}x{height} square tiles"
            )
        self.picture = picture.convert("RGB")
        self.width, self.height, self.goal = width, height, tuple(goal)
        self.tile = t = picture.width // width
        font = _font(max(8, round(t * 0.24))) if numbers else None
        self.pieces: dict[int, Image.Image] = {}
        for p, tile in enumerate(self.goal):
            if tile:
                piece = self.picture.crop(self.box(p))
                self.pieces[tile] = _dress(piece, tile if numbers else None, font)
        self.hole = _hole(t)

    def box(self, cell: int) -> tuple[int, int, int, int]:
        r, c = divmod(cell, self.width)
        t = self.tile
        return c * t, r * t, (c + 1) * t, (r + 1) * t

    def draw(self, board: tuple[int, ...]) -> Image.Image:
        """The board as an image; the goal board is the whole picture, missing piece back in."""
        if tuple(board) == self.goal:
            return self.picture.copy()
        canvas = Image.new("RGB", self.picture.size, EMPTY)
        for p, tile in enumerate(board):
            canvas.paste(self.pieces[tile] if tile else self.hole, self.box(p)[:2])
        return canvas

    def frames(self, boards: Iterable[tuple[int, ...]]) -> Iterator[Image.Image]:
        return (self.draw(b) for b in boards)


def _font(size: int) -> Any:
    try:
        return ImageFont.load_default(size)  # scalable when Pillow has FreeType (Pillow >= 10.1)
    except (TypeError, OSError):
        return ImageFont.load_default()


def _dress(piece: Image.Image, number: int | None, font: Any) -> Image.Image:
    """A bevelled tile (light top-left, dark bottom-right edges), numbered if asked."""
    t = piece.width
    rgba = piece.convert("RGBA")
    over = Image.new("RGBA", rgba.size, (0, 0, 0, 0))
    d = ImageDraw.Draw(over)
    bw = max(1, t // 48)
    d.rectangle((0, 0, t - 1, bw - 1), fill=(255, 255, 255, 110))
    d.rectangle((0, 0, bw - 1, t - 1), fill=(255, 255, 255, 110))
    d.rectangle((0, t - bw, t - 1, t - 1), fill=(0, 0, 0, 140))
    d.rectangle((t - bw, 0, t - 1, t - 1), fill=(0, 0, 0, 140))
    if number is not None:
        text = str(number)
        left, top, right, bottom = d.textbbox((0, 0), text, font=font)
        pad = max(2, t // 28)
        margin = bw + max(1, t // 24)
        box = (margin, margin, margin + right - left + 2 * pad, margin + bottom - top + 2 * pad)
        d.rounded_rectangle(box, radius=pad + 1, fill=(10, 12, 20, 170))
        d.text((margin + pad - left, margin + pad - top), text, font=font, fill=(255, 255, 255, 255))
    rgba.alpha_composite(over)
    return rgba.convert("RGB")


def _hole(t: int) -> Image.Image:
    """The blank: a dark cell, a shade darker along its top and left edges like a recess."""
    hole = Image.new("RGB", (t, t), EMPTY)
    d = ImageDraw.Draw(hole)
    bw = max(1, t // 32)
    d.rectangle((0, 0, t - 1, bw - 1), fill=(0, 0, 0))
    d.rectangle((0, 0, bw - 1, t - 1), fill=(0, 0, 0))
    return hole


# -- the domain's picture outputs --------------------------------------------------------------
@dataclass
class PictureOutputs:
    """The picture files a run asked for, checked (and the picture loaded) before searching."""

    picture: Image.Image
    numbers: bool
    gif: Path | None = None
    frames: Path | None = None
    png: Path | None = None

    def write(self, problem: Any, result: Result, echo: Callable[[str], None]) -> None:
        """Write the start board, the frames and the animation of ``result``'s solution."""
        board = PictureBoard(self.picture, problem.width, problem.height, problem.goal, self.numbers)
        boards = [problem.decode(s) for s in result.states]
        moves = len(boards) - 1
        if self.png is not None:
            save_png(board.draw(boards[0]), self.png)
            echo(f"picture: the start board written to {self.png}")
        if self.frames is not None:
            save_frames(board.frames(boards), self.frames, count=len(boards))
            echo(f"frames: {len(boards)} PNG frames (start + {moves} moves) written to {self.frames}")
        if self.gif is not None:
            frames: Iterator[Image.Image] = board.frames(boards)
            w, h = self.picture.size
            scale = min(1.0, math.sqrt(GIF_PIXEL_BUDGET / (len(boards) * w * h)))
            note = ""
            if scale < 1:  # a very long solution: smaller frames keep the GIF writer's memory bounded
                small = (max(1, round(w * scale)), max(1, round(h * scale)))
                frames = (f.resize(small, Image.Resampling.LANCZOS) for f in frames)
                note = f", scaled to {small[0]}x{small[1]}"
            durations = [START_MS] + [MOVE_MS] * moves if moves else [START_MS]
            save_gif(frames, self.gif, durations, final_pause_ms=END_PAUSE_MS)
            echo(f"animation: {len(boards)} frames (start + {moves} moves{note}) written to {self.gif}")


def prepare_outputs(options: dict[str, Any], width: int, height: int) -> PictureOutputs | None:
    """Check the picture options and load the picture, or None when no picture was asked for."""
    wanted = {name: options.get(name) for name in OUTPUT_OPTIONS}
    if not any(wanted.values()):
        if options.get("image") or options.get("numbers"):
            raise InputError("--image and --numbers shape pictures: add --gif, --frames or --png to write one")
        return None
    gif = check_file(wanted["gif"], "GIF", (".gif",)) if wanted["gif"] else None
    png = check_file(wanted["png"], "picture", (".png",)) if wanted["png"] else None
    frames = check_directory(wanted["frames"]) if wanted["frames"] else None
    t = tile_side(width, height)
    size = (width * t, height * t)
    image = options.get("image")
    picture = load_picture(image, size) if image else default_picture(size)
    return PictureOutputs(picture, bool(options.get("numbers")), gif, frames, png)
