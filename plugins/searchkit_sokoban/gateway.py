"""Gateway: the deepest position near the start that every solution passes through.

The pull search (`pull.py`) must end on the start position exactly, and where the start is
cramped that is what defeats it: in Microban 153 the player starts shut in by two boxes,
and the boxes around it can be moved in one order only before it gets out, so a pull
search guided by distances to the start squares puts them back in a wrong order and
shuts itself out.  Forwards those first pushes are no problem: a small breadth-first
search finds them.  So the pull search aims at a *gateway* found forwards instead.

A breadth-first search from the start over plain pushes (deadlock pruning only, no
macros) stores up to ``budget`` positions in whole layers of equal depth.  A position is
*alive* when it can reach the last layer; dead branches (all pruned within the budget)
are dropped.  Depth grows by at most one per push, so every path from the start to the
last layer - and so every solution not found inside the budget - takes an edge from
depth ``d`` to ``d + 1`` between alive positions.  When exactly one position of layer
``d`` has such an edge, every solution passes through it: that is a gateway, and the
deepest one wins (the start itself when there is none).  On 153 it is the position
where the player first gets out, ten pushes in.

Sound whenever the pruning is: detectors only drop dead positions, and PI-corral pruning
keeps a solution, which then passes through the gateway like any other path.
"""

from __future__ import annotations

from collections import deque
from time import process_time
from weakref import WeakKeyDictionary

GATEWAY_BUDGET = 3000  # positions; about 0.2 s of breadth-first search
# children generated before giving up (no gateway): a layer is whole or not at all, and on a
# level of hundreds of boxes one layer has millions; the bundled levels' most is 46,794
GATEWAY_CHILDREN = 100_000
# CPU seconds before giving up: where each push is costly to prune (corral proofs on a dense
# level) the positions alone took 11.8 s (Sasquatch III 46) and 2 s (Microban II 131), all of
# it before any member of the default searched; a gateway found in the bundled sets, Sasquatch
# and Sasquatch III took 0.4 s at most
GATEWAY_SECONDS = 1.0


def find_gateway(
    problem, budget: int = GATEWAY_BUDGET, children_limit: int = GATEWAY_CHILDREN, seconds: float = GATEWAY_SECONDS
) -> tuple[list, list] | None:
    """``(pushes, states)`` from the start to the deepest gateway, or None for the start.

    ``problem`` is a plain pushes-mode `SokobanProblem` (no macros: they may skip a
    solution's positions).  None too when the search meets a goal or runs out of
    positions within the budget, or generates more than ``children_limit`` children or
    spends more than ``seconds`` of CPU first (it runs before any search's limits apply):
    the searches handle those levels.
    """
    began = process_time()
    start = problem.initial_state()
    if problem.is_goal(start):
        return None
    parent: dict = {start: None}  # state -> (previous state, push)
    depth = {start: 0}
    children: dict = {}
    layers = [[start]]
    stored, generated = 1, 0
    while stored < budget:
        layer = []
        for state in layers[-1]:
            kids = []
            successors = problem.successors(state)
            generated += len(successors)
            if generated > children_limit or process_time() - began > seconds:
                return None
            for action, child, _cost in successors:
                if problem.is_goal(child):
                    return None
                kids.append(child)
                if child not in parent:
                    parent[child] = (state, action)
                    depth[child] = len(layers)
                    layer.append(child)
            children[state] = kids
        if not layer:
            return None
        layers.append(layer)
        stored += len(layer)
    if len(layers) < 3:
        return None
    # alive: reaches the last layer (which is generated but not expanded)
    back: dict = {}
    for state, kids in children.items():
        for child in kids:
            back.setdefault(child, []).append(state)
    alive = set(layers[-1])
    queue = deque(layers[-1])
    while queue:
        for prev in back.get(queue.popleft(), ()):
            if prev not in alive:
                alive.add(prev)
                queue.append(prev)
    for d in range(len(layers) - 2, 0, -1):
        crossing = [s for s in layers[d] if s in alive and any(c in alive and depth[c] == d + 1 for c in children[s])]
        if len(crossing) == 1:
            gate = crossing[0]
            actions, states = [], [gate]
            link = parent[gate]
            while link is not None:
                prev, action = link
                actions.append(action)
                states.append(prev)
                link = parent[prev]
            actions.reverse()
            states.reverse()
            return actions, states
    return None


def aim(forward, budget: int = GATEWAY_BUDGET) -> tuple[tuple[tuple, tuple, int] | None, tuple[int, int]]:
    """Where a search from the solved position aims: ``(lead_in, start)``, the pushes and
    positions to the gateway with their count and the gateway itself, or ``(None, the start)``
    when there is none (``budget`` 0: not looked for).  ``forward``: as for `find_gateway`.

    Remembered per board and detectors switched off: the default's pull searches and
    ``fess-aim``'s two backward searches each ask, and on a large level each answer took
    about a second (Sasquatch II 9: 6 % of ``fess-aim``'s first 30 s)."""
    known = _AIMS.setdefault(forward.board, {})
    key = (budget, forward.disabled)
    if key not in known:
        found = find_gateway(forward, budget) if budget > 0 and not forward.board.impossible else None
        if found is None:
            known[key] = None, forward.initial_state()
        else:
            known[key] = (tuple(found[0]), tuple(found[1]), len(found[0])), found[1][-1]
    return known[key]


_AIMS: WeakKeyDictionary = WeakKeyDictionary()  # per board, per (budget, detectors off): `aim`'s answer
