"""Malformed requests to ``searchkit serve``: every POST endpoint answers each with a 4xx and a
one-line message, never a bare 500 or a traceback.  Wrong types, Unicode digits, huge and
many-digit numbers, deep nesting, bodies over the limits, text that is not JSON, files that
are not what the endpoint reads."""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from searchkit.plugins import domains, engines
from searchkit.render.save import SUFFIXES
from searchkit.serve.app import MAX_JSON, MAX_UPLOAD, build_app
from searchkit.serve.searches import MAX_EXPANDED, MAX_RATE

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette's note about httpx versions
    from starlette.testclient import TestClient

UPLOADS = {"/api/games/load", "/api/games/open", "/api/games/{gid}/picture"}  # a file as the body, not JSON
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


class Live:
    """A server with a game of each kind and a paused search, for the endpoints that need one."""

    def __init__(self) -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self.client = TestClient(build_app())
        self.client.__enter__()
        self.npuzzle = self.ok("/api/games", {"game": "npuzzle"})["id"]
        self.sokoban = self.ok("/api/games", {"game": "sokoban"})["id"]
        self.search = self.ok("/api/searches", {"domain": "npuzzle", "engine": "bfs", "rate": 0})["id"]
        self.client.app.state.searches.get(self.search).streaming = True  # kept while the tests run

    def ok(self, url: str, body: dict) -> dict:
        r = self.client.post(url, json=body)
        assert r.status_code == 200, r.text
        doc: dict = r.json()
        return doc

    def url(self, route: str, kind: str = "npuzzle") -> str:
        return route.format(gid=self.sokoban if kind == "sokoban" else self.npuzzle, sid=self.search)

    def post(self, url: str, content: bytes, **kw: Any) -> tuple[int, str]:
        r = self.client.post(url, content=content, **kw)
        try:
            message = r.json().get("error", "")
        except ValueError:
            message = ""
        return r.status_code, message

    def close(self) -> None:
        self.client.delete(f"/api/searches/{self.search}")
        self.client.__exit__(None, None, None)


@pytest.fixture(scope="module")
def live() -> Iterator[Live]:
    server = Live()
    yield server
    server.close()


def post_routes() -> list[str]:
    return sorted(r.path for r in build_app().routes if "POST" in (getattr(r, "methods", None) or ()))


JSON_ROUTES = [r for r in post_routes() if r not in UPLOADS]


def refused(status: int, message: str) -> bool:
    return 400 <= status < 500 and bool(message.strip()) and "\n" not in message and "Traceback" not in message


def not_an_object(raw: bytes) -> bool:
    try:
        return not isinstance(json.loads(raw), dict)
    except (ValueError, RecursionError):
        return True


def deep(n: int) -> bytes:
    return b"[" * n + b"]" * n


def many_digits(n: int) -> bytes:
    return b'{"max_expanded": ' + b"9" * n + b', "size": ' + b"7" * n + b"}"


FIXED_BODIES = [
    b"{nope",
    b"\xff\xfe\x00garbage",
    b"null",
    b"[1, 2]",
    b'"text"',
    b"42",
    deep(20_000),  # 40 KB of nesting: deeper than Python's parser goes
    b'{"a": ' * 5000 + b"1" + b"}" * 5000,
    many_digits(5000),  # more digits than Python reads as an integer
    b'{"x": "' + b"a" * (MAX_JSON + 1) + b'"}',  # over the JSON limit
    '{"size": "\u00b2"}'.encode()[:-1],  # cut short
]
json_garbage = st.one_of(
    st.sampled_from(FIXED_BODIES),
    st.binary(min_size=1, max_size=200).filter(not_an_object),
    st.text(min_size=1, max_size=200).map(str.encode).filter(not_an_object),
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
        lambda inner: st.lists(inner, max_size=4),
        max_leaves=10,
    ).map(lambda v: json.dumps(v).encode()),
)


@pytest.mark.parametrize("route", post_routes())
def test_every_post_route_is_fuzzed(route: str) -> None:
    assert route in JSON_ROUTES or route in UPLOADS, f"add {route} to this module's requests"
    assert any(case[0] == route for case in FIELDS) or route in UPLOADS or route.endswith(BODILESS), route


@FUZZ
@given(route=st.sampled_from(JSON_ROUTES), body=json_garbage)
def test_a_body_that_is_no_json_object_is_refused_with_a_message(live: Live, route: str, body: bytes) -> None:
    assert refused(*live.post(live.url(route), body, headers={"Content-Type": "application/json"}))


@pytest.mark.parametrize("route", JSON_ROUTES)
@pytest.mark.parametrize("body", FIXED_BODIES, ids=lambda b: f"{b[:12]!r}-{len(b)}")
def test_each_fixed_bad_body_at_each_json_route(live: Live, route: str, body: bytes) -> None:
    status, message = live.post(live.url(route), body)
    assert refused(status, message), (status, message)
    if len(body) > MAX_JSON:
        assert status == 413 and message == "the request is larger than 64 KB: too large to send"


def numbers_outside(low: int, high: int) -> st.SearchStrategy[Any]:
    """Whole numbers out of ``low``..``high`` and everything that is no whole number."""
    return st.one_of(
        st.integers(max_value=low - 1),
        st.integers(min_value=high + 1),
        st.integers(min_value=20, max_value=4000).map(lambda k: 10**k),
        st.just("9" * 5000),
        st.text(st.characters(categories=["Nd", "No"]), min_size=1, max_size=4).filter(lambda t: not t.isascii()),
        st.floats().filter(lambda x: x != int(x) if x == x and abs(x) != float("inf") else True),
        st.booleans(),
        st.lists(st.integers(), max_size=2),
        st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
        st.text(max_size=8).filter(lambda t: not (t.isascii() and t.isdigit()) and t != ""),
    )


not_text = st.one_of(st.integers(), st.floats(), st.booleans(), st.lists(st.integers(), max_size=2), st.just({"a": 1}))


def unknown(*known: str) -> st.SearchStrategy[str]:
    """Names none of ``known`` (compared as the server compares them, folded)."""
    return st.text(min_size=1, max_size=12).filter(lambda t: t.strip().lower().lstrip(".") not in {*known, "", "none"})


bad_rate = st.one_of(
    st.integers(max_value=-1),
    st.integers(min_value=MAX_RATE + 1),
    st.floats().filter(lambda x: not 0 <= x <= MAX_RATE),
    st.text(),
    st.booleans(),
    st.lists(st.integers(), max_size=2),
)
BODILESS = ("/undo", "/redo", "/restart", "/hint", "/solve", "/cancel")
SEARCH = {"domain": "npuzzle", "options": {"board": "1 2 3 4 5 6 7 0 8"}}

# (route, the game it needs, a good body, the field made bad, the bad values)
FIELDS: list[tuple[str, str, dict, str, st.SearchStrategy[Any]]] = [
    ("/api/searches", "", SEARCH, "max_expanded", numbers_outside(1, MAX_EXPANDED)),
    ("/api/searches", "", SEARCH, "random_seed", numbers_outside(0, 2**63 - 1)),
    ("/api/searches", "", SEARCH, "instance", numbers_outside(0, 999)),
    ("/api/searches", "", SEARCH, "domain", st.one_of(not_text, unknown(*domains()))),
    ("/api/searches", "", SEARCH, "engine", st.one_of(not_text, unknown(*engines()))),
    ("/api/searches", "", SEARCH, "heuristic", not_text),
    (
        "/api/searches",
        "",
        SEARCH,
        "options",
        st.one_of(st.integers(1), st.text(min_size=1), st.lists(st.none(), min_size=1)),
    ),
    ("/api/searches", "", SEARCH, "rate", bad_rate),
    (
        "/api/trees",
        "",
        {**SEARCH, "format": "json"},
        "format",
        st.one_of(not_text, unknown(*(x[1:] for x in SUFFIXES))),
    ),
    ("/api/trees", "", {**SEARCH, "format": "json"}, "max_expanded", numbers_outside(1, MAX_EXPANDED)),
    ("/api/games", "", {"game": "npuzzle"}, "game", st.one_of(not_text, unknown("npuzzle", "sokoban"))),
    # npuzzle reads its size and depth with int(): " 4 " and "٤" are 4 to it, so only non-strings here
    ("/api/games", "", {"game": "npuzzle"}, "size", numbers_outside(3, 5).filter(lambda v: not isinstance(v, str))),
    (
        "/api/games",
        "",
        {"game": "npuzzle"},
        "depth",
        numbers_outside(1, 10_000).filter(lambda v: not isinstance(v, str)),
    ),
    (
        "/api/games",
        "",
        {"game": "sokoban"},
        "collection",
        st.one_of(not_text, unknown("microban", "xsokoban", "sasquatch")),
    ),
    ("/api/games", "", {"game": "sokoban"}, "level", numbers_outside(1, 155)),
    ("/api/games/{gid}/move", "npuzzle", {}, "move", not_text),
    (
        "/api/games/{gid}/move",
        "npuzzle",
        {},
        "cell",
        st.one_of(st.floats(), st.booleans(), st.text(), st.lists(st.integers())),
    ),
    ("/api/games/{gid}/move", "sokoban", {}, "direction", st.one_of(not_text, unknown("up", "down", "left", "right"))),
    ("/api/games/{gid}/replay", "sokoban", {}, "moves", st.one_of(not_text, st.just("   "), st.just("xyz"))),
    ("/api/searches/{sid}/pace", "", {}, "rate", bad_rate),
    ("/api/searches/{sid}/pace", "", {}, "steps", numbers_outside(1, 1000)),
]


def field_case(case: tuple) -> str:
    return f"{case[0]}:{case[3]}"


@pytest.mark.parametrize("case", FIELDS, ids=field_case)
def test_a_bad_field_is_refused_naming_it(live: Live, case: tuple) -> None:
    route, kind, good, field, bad = case

    @FUZZ
    @given(value=bad)
    def check(value: Any) -> None:
        status, message = live.post(live.url(route, kind), json.dumps({**good, field: value}).encode())
        assert refused(status, message), (value, status, message)
        said = message.split("(got ")[0]  # what the server says, not the value it echoes
        assert not re.search(r"(^|\s)--[a-z]", said), message  # the API's own words, not the command line's flags

    check()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("max_expanded", "²", "max_expanded must be a whole number from 1 to 200,000 (got '²')"),
        ("max_expanded", 200_001, "max_expanded must be a whole number from 1 to 200,000 (got 200001)"),
        ("random_seed", 2**63, "random_seed must be a whole number from 0 to 9,223,372,036,854,775,807 (got 9223"),
    ],
)
def test_numbers_out_of_range_are_refused_naming_the_range(live: Live, field: str, value: Any, message: str) -> None:
    status, said = live.post("/api/searches", json.dumps({**SEARCH, field: value}).encode())
    assert status == 400 and said.startswith(message)


def test_a_level_out_of_range_names_the_field_not_a_flag(live: Live) -> None:
    status, message = live.post("/api/games", json.dumps({"game": "sokoban", "level": "9999"}).encode())
    assert (status, message.split(":")[0]) == (400, "level 9999 is out of range (1–155)")


BAD_FILES = [
    b"\x00" * 64,
    b"\x89PNG\r\n\x1a\n" + b"\x00" * 40,
    b"{nope",
    b"[]",
    b'{"format": "searchkit-save"}',
    deep(20_000),
    many_digits(5000),
    "²³ no level here".encode(),
]


@FUZZ
@given(
    route=st.sampled_from(sorted(UPLOADS)),
    body=st.one_of(
        st.sampled_from(BAD_FILES),
        st.binary(min_size=1, max_size=300).filter(lambda b: b"@" not in b and b"+" not in b),
    ),
    level=st.one_of(st.just("1"), numbers_outside(1, 1).map(str)),
)
def test_a_file_that_is_not_what_the_endpoint_reads_is_refused(live: Live, route: str, body: bytes, level: str) -> None:
    url = live.url(route)
    query = {"game": "sokoban", "name": "x.txt", "level": level} if route.endswith("/open") else {}
    assert refused(*live.post(url, body, params=query))


@pytest.mark.parametrize("route", sorted(UPLOADS))
def test_an_upload_over_the_limit_is_413_naming_the_limit(live: Live, route: str) -> None:
    query = {"game": "sokoban", "name": "x.txt"} if route.endswith("/open") else {}
    status, message = live.post(live.url(route), b"#" * (MAX_UPLOAD + 1), params=query)
    assert (status, message) == (413, "the file is larger than 8 MB: too large to send")


@pytest.mark.parametrize("query", [{}, {"game": "chess"}, {"game": ["a", "b"]}, {"game": "sokoban", "level": "²"}])
def test_open_with_a_bad_query_is_refused(live: Live, query: dict) -> None:
    assert refused(*live.post("/api/games/open", b"#####\n#@$.#\n#####\n", params=query))
