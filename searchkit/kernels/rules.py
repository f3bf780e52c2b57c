"""The one way a domain offers compiled rules: `CompiledRules` and the functions of its rules module.

A problem whose method ``compiled_rules()`` returns a `CompiledRules` runs the engines
``idastar``, ``astar``, ``greedy`` and ``bfs`` compiled (numba) when numba is installed:
the kernels (`searchkit.kernels.idastar`, ``bestfirst``, ``breadth``) search over the
domain's functions, specialised to them in a generated module (`searchkit.kernels.generate`).

The rules module is an importable module (named by ``CompiledRules.module``) whose
top-level functions, each compiled with numba's ``@njit`` (``cache=True`` advised), have
these names and signatures.  ``s`` is the state: a one-dimensional ``uint64`` array of
``width`` words (the domain packs its state into them); ``ctx`` is the domain's tuple of
numpy arrays (`CompiledRules.context`), passed unchanged to every call; a move ``m`` is a
small integer ``0 <= m < 256`` (the table stores it in one byte).

* ``moves(s, ctx, out) -> n``: writes the codes of the moves legal in ``s`` to
  ``out[:n]`` (``out`` is an ``int64`` array of ``max_moves`` entries) and returns ``n``, in
  the order of the Python problem's ``successors`` (the same order gives the same
  expansions as the Python engines).
* ``apply(s, m, ctx) -> cost``: makes move ``m`` in place and returns its cost.
* ``undo(s, m, ctx)``: takes move ``m`` back in place (``s`` is exactly as before
  ``apply``).  Needed by ``idastar`` only.
* ``h(s, ctx) -> int``: the heuristic's estimate; a negative value means a dead state (the
  Python heuristic's infinity), never expanded.
* ``is_goal(s, ctx) -> bool``.

Optional, each offered by defining it in the module:

* ``h_after(s, m, hs, ctx) -> int``: the estimate of the state move ``m`` leads to from
  ``s`` (not yet changed), given ``s``'s estimate ``hs``; the incremental heuristic.  Must
  equal ``h`` of that state.
* ``cost(s, m, ctx) -> int``: the cost ``apply(s, m, ctx)`` would return, without changing
  ``s``; with ``h_after`` it lets IDA* prune a child without making the move.
* ``inverse(m, ctx) -> int``: the move that takes ``m`` straight back (-1: none).  With the
  problem's ``cycle_check = "parent"`` IDA* then skips the move back without making it
  (otherwise it makes each move and compares the child with the parent).
* ``derive(s, ctx)``: fills the derived words ``s[key_width:]`` from the key words
  ``s[:key_width]``; required when ``CompiledRules.key_width`` is below ``width``.
* ``hs(s, ctx, out)``: one estimate per open list, ``out[j]`` for list ``j`` (``out`` is an
  ``int64`` array of ``CompiledRules.lists`` entries); a state any of them calls dead
  (negative) is never queued.  Required when ``lists`` is above 1 (the best-first kernel
  then takes its lists in turns, as `searchkit.engines.alternation` does), and used in
  place of ``h`` by the best-first kernel whenever defined.
* ``hs_after(s, m, ctx, out)``: ``hs`` of the state move ``m`` leads to from ``s`` (not yet
  changed): the incremental ``hs``.  Must equal it.

Derived words carry bookkeeping a domain updates per move, such as an incremental
heuristic's partial sums: ``apply`` keeps them up to date, ``undo`` need restore only the key
words (IDA* saves and restores the derived ones per depth), the tables store and compare
only the key words (a state loaded from a table is completed by ``derive``).

Costs and estimates are integers (``int64``; a path cost at most 2**31 - 1 in the tables,
an estimate at most 2**24 - 1 for the best-first kernels): a domain with real-valued costs
has no compiled rules yet.  The functions allocate nothing (the kernels call them per node,
compiled without numba's reference counting: `searchkit.kernels.generate`) and keep nothing
between calls outside ``s`` that could change an answer (a cache in the context, such as the
last move ``h_after`` priced, is allowed: every call answers as without it).

``searchkit check`` (`searchkit.testing`) holds the rules to the Python problem on sampled
states: the same children, costs and actions, the same ``h`` and goal test, ``undo`` and
the optional functions consistent with them; it names the first state where they disagree.

Cost of the contract: the generated module's name hashes the rules module's source and
that of the modules whose compiled functions it imports (not modules it reaches otherwise).
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..compiled import numba_available
from ..errors import InputError

REQUIRED = ("moves", "apply", "h", "is_goal")
OPTIONAL = ("undo", "h_after", "cost", "inverse", "derive", "hs", "hs_after")
MAX_LISTS = 8  # the most open lists a best-first search takes in turns
MAX_WIDTH = 64  # words: the widest state the kernels take
MAX_MOVES = 256  # move codes fit one byte
CHOICES = ("auto", "on", "off")


@dataclass(frozen=True)
class CompiledRules:
    """What a problem's ``compiled_rules()`` returns: its rules module and how its states and
    actions cross between Python and the kernels.

    ``module``: the importable name of the rules module (see this module's docstring for its
    functions).  ``width``: the state's size in ``uint64`` words.  ``context``: a tuple of
    numpy arrays (the domain's tables) passed to every function.  ``encode(state)``: the
    Python state's words (an array of ``width`` ``uint64``); ``decode(words)``: the Python
    state those words hold (equal to the one the Python problem reaches).  ``action(m,
    words)``: the Python action of move ``m`` made from the state ``words`` (the action the
    Python problem's successors name).  ``max_moves``: the most moves ``moves`` ever
    writes.  ``key_width``: the leading words that identify a state (None: all ``width``);
    ``encode`` gives and ``decode`` takes these, the rest are derived (the rules' ``derive``).
    ``encode_rows(states)``, optional: the key words of many states at once, a row each
    (what `encode` gives them one by one, faster: a portfolio's meetings ask for many).
    ``lists``: the open lists of a best-first search over them, one estimate each (the
    rules' ``hs``), taken in turns.  Costs and estimates are integers.
    """

    module: str
    width: int
    context: tuple[Any, ...]
    encode: Callable[[Any], Any]
    decode: Callable[[Any], Any]
    action: Callable[[int, Any], Any]
    max_moves: int
    key_width: int | None = None
    encode_rows: Callable[[list[Any]], Any] | None = None
    lists: int = 1

    @property
    def keys(self) -> int:
        """The number of key words (those that identify a state)."""
        return self.width if self.key_width is None else self.key_width

    def check(self) -> None:
        """`InputError` (one line) unless the description is one the kernels take."""
        if not isinstance(self.width, int) or not 1 <= self.width <= MAX_WIDTH:
            raise InputError(
                f"compiled rules {self.module}: a state of {self.width} words (the kernels take 1 to {MAX_WIDTH})"
            )
        if not isinstance(self.max_moves, int) or not 1 <= self.max_moves <= MAX_MOVES:
            raise InputError(
                f"compiled rules {self.module}: max_moves {self.max_moves} (the kernels take 1 to {MAX_MOVES})"
            )
        if not isinstance(self.keys, int) or not 1 <= self.keys <= self.width:
            raise InputError(f"compiled rules {self.module}: key_width {self.key_width} (1 to the width, {self.width})")
        if not isinstance(self.lists, int) or not 1 <= self.lists <= MAX_LISTS:
            raise InputError(
                f"compiled rules {self.module}: {self.lists} open lists (the kernels take 1 to {MAX_LISTS})"
            )
        if not isinstance(self.context, tuple) or not self.context:
            raise InputError(f"compiled rules {self.module}: the context must be a non-empty tuple of numpy arrays")
        import numpy as np

        if not all(isinstance(a, np.ndarray) for a in self.context):
            raise InputError(f"compiled rules {self.module}: the context must be a tuple of numpy arrays")

    def words(self, keys: Any, derive: Callable[[Any, Any], None] | None) -> Any:
        """The ``width`` words of a state from its key words ``keys`` (a ``uint64`` array of
        ``key_width``): a new array, its derived words filled by the rules' ``derive``."""
        import numpy as np

        words = np.zeros(self.width, dtype=np.uint64)
        words[: self.keys] = keys[: self.keys]
        if self.keys < self.width and derive is not None:
            derive(words, self.context)
        return words

    def functions(self) -> dict[str, Any]:
        """The rules module's functions by name (the optional ones it lacks left out);
        `InputError` when the module cannot be imported or lacks a required one."""
        try:
            mod = importlib.import_module(self.module)
        except ImportError as e:
            raise InputError(f"compiled rules: cannot import {self.module!r} ({e})") from None
        missing = [n for n in REQUIRED if not callable(getattr(mod, n, None))]
        if missing:
            raise InputError(f"compiled rules {self.module} lack {', '.join(missing)}")
        fns = {n: getattr(mod, n) for n in REQUIRED + OPTIONAL if callable(getattr(mod, n, None))}
        if self.keys < self.width and "derive" not in fns:
            raise InputError(f"compiled rules {self.module} have derived words (key_width) but no derive")
        if self.lists > 1 and "hs" not in fns:
            raise InputError(f"compiled rules {self.module} have {self.lists} open lists but no hs")
        return fns


def rules_of(problem: Any) -> CompiledRules | None:
    """The problem's compiled rules (None when it offers none)."""
    offer = getattr(problem, "compiled_rules", None)
    if not callable(offer):
        return None
    rules = offer()
    if rules is None:
        return None
    if not isinstance(rules, CompiledRules):
        raise InputError(f"compiled_rules() returned {type(rules).__name__}, not a CompiledRules")
    return rules


def wants_nodes(observer: Any) -> bool:
    """Whether ``observer`` listens to every node (a compiled run reports progress only)."""
    if observer is None:
        return False
    from ..observer import Observer

    kind = type(observer)
    return kind.expand is not Observer.expand or kind.generate is not Observer.generate


def choose(
    problem: Any, compiled: str, engine: str, observer: Any = None, needs: tuple[str, ...] = ()
) -> CompiledRules | None:
    """The rules to run ``engine`` compiled with, or None for the Python engine.

    ``compiled``: ``"auto"`` (compiled when the problem offers rules with the optional
    functions ``needs``, numba is available and no observer listens to every node), ``"on"``
    (compiled or an `InputError`) or ``"off"``."""
    if compiled not in CHOICES:
        raise InputError(f"{engine} parameter compiled must be one of {', '.join(CHOICES)} (got {compiled!r})")
    if compiled == "off":
        return None
    rules = rules_of(problem)
    if compiled == "on":
        if rules is None:
            raise InputError(f"{engine} -P compiled=on: the problem offers no compiled rules (compiled_rules)")
        if not numba_available():
            raise InputError(f"{engine} -P compiled=on: numba is not available here (install searchkit[fast])")
    elif rules is None or not numba_available() or wants_nodes(observer):
        return None
    rules.check()
    if needs and compiled == "auto" and not set(needs) <= set(rules.functions()):
        return None  # e.g. idastar on rules without undo: the Python engine
    return rules


def chosen_for(engine: Any, params: dict[str, Any], problem: Any, observer: Any = None) -> CompiledRules | None:
    """The rules the engine ``engine`` (an `EngineInfo`) run with ``params`` on ``problem``
    runs compiled over (`choose`), or None: an engine without the parameter ``compiled``, or
    one that runs in Python.  What the callers that load the kernels ahead ask."""
    spec = engine.specs.get("compiled")
    if spec is None:
        return None
    return choose(problem, params.get("compiled", spec.default), engine.name, observer)


def rules_source(module: str) -> str:
    """The source text of the rules module ``module`` and of every module whose compiled
    functions it imports (what names its generated kernels, so a change to either compiles
    them afresh)."""
    mod = importlib.import_module(module)
    names = {module}
    for value in vars(mod).values():
        py_func = getattr(value, "py_func", None)  # a numba dispatcher: where its function lives
        if py_func is not None and isinstance(getattr(py_func, "__module__", None), str):
            names.add(py_func.__module__)
    texts = []
    for name in sorted(names):
        try:
            texts.append(inspect.getsource(importlib.import_module(name)))
        except (OSError, TypeError):
            raise InputError(f"compiled rules {module}: the source of {name} cannot be read") from None
    return "\0".join(texts)


# -- the names the kernel templates are written against ------------------------------------------
# A generated module binds them to a rules module's functions (and defines the flags); here
# they only document the signatures and are never called.

HAS_H_AFTER = False  # the rules define h_after
HAS_INVERSE = False  # the rules define inverse
HAS_DERIVE = False  # the rules define derive
HAS_HS = False  # the rules define hs
HAS_HS_AFTER = False  # the rules define hs_after


def moves(s: Any, ctx: Any, out: Any) -> int:
    raise NotImplementedError("a kernel template's placeholder: bound in the generated module")


def apply(s: Any, m: int, ctx: Any) -> int:
    raise NotImplementedError("a kernel template's placeholder: bound in the generated module")


def undo(s: Any, m: int, ctx: Any) -> None:
    raise NotImplementedError("a kernel template's placeholder: bound in the generated module")


def h(s: Any, ctx: Any) -> int:
    raise NotImplementedError("a kernel template's placeholder: bound in the generated module")


def h_after(s: Any, m: int, hs: int, ctx: Any) -> int:
    raise NotImplementedError("a kernel template's placeholder: bound in the generated module")


def cost(s: Any, m: int, ctx: Any) -> int:
    raise NotImplementedError("a kernel template's placeholder: bound in the generated module")


def inverse(m: int, ctx: Any) -> int:
    raise NotImplementedError("a kernel template's placeholder: bound in the generated module")


def derive(s: Any, ctx: Any) -> None:
    raise NotImplementedError("a kernel template's placeholder: bound in the generated module")


def is_goal(s: Any, ctx: Any) -> bool:
    raise NotImplementedError("a kernel template's placeholder: bound in the generated module")


def hs(s: Any, ctx: Any, out: Any) -> None:
    raise NotImplementedError("a kernel template's placeholder: bound in the generated module")


def hs_after(s: Any, m: int, ctx: Any, out: Any) -> None:
    raise NotImplementedError("a kernel template's placeholder: bound in the generated module")
