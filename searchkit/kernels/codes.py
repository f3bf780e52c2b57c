"""The numbers the compiled kernels and their Python drivers exchange.

A kernel returns one status code and keeps its counters in a small ``int64`` array (``sc``)
whose slots are named here, so a driver can stop it after a slice of expansions and resume
it exactly where it stopped.  The best-first kernel's open list orders slots by a key
``(f << SEC_BITS) | sec`` (``sec`` is ``h``, or ``g`` where ``f`` does not weigh ``g``);
the bounds below keep it positive.
"""

from __future__ import annotations

# statuses a kernel returns
PAUSED = 0  # the slice's expansions are spent: check the limits, then call again
FOUND = 1  # a goal was reached (its depth or slot is in ``sc``)
EXHAUSTED = 2  # nothing left: the iteration (IDA*) or the whole space ended
FULL = 3  # the table, the open list or the path arrays need room before the next expansion
RANGE = 4  # a number left the range the packed entries hold (`G_MAX`, `F_MAX`, `SEC_MAX`)
MET = 5  # best-first: a state another search asked for was stored (its slot in ``sc[MEETING]``)

# slots of ``sc``
EXPANDED, GENERATED, DUPLICATES, REOPENED = 0, 1, 2, 3
COUNT = 4  # states in the table (best-first, breadth-first); depth (IDA*)
FRONTIER = 5  # open-list entries (best-first); unused by the others
MAX_FRONTIER = 6
TURN = 7  # best-first: the open list whose turn it is to give the next state (several lists)
GOAL = 8  # the goal's slot (best-first, breadth-first)
HEAD = 9  # the next slot to expand (breadth-first)
BOUND, NEXT_BOUND = 10, 11  # IDA*'s bound on f and the least f above it seen in this iteration
ASKED = 12  # best-first: fingerprints in the set of states other searches asked for (`meeting`)
MEETING = 13  # best-first: the slot of a stored state whose fingerprint was asked for, -1 for none
SC_SIZE = 14

# slots of the best-first bucket queue's ``qs`` (`searchkit.kernels.buckets`)
NB, KSIZE, FREE, NFREE, USED = 0, 1, 2, 3, 4  # buckets, heap size, free chunk list, its length, chunks ever used
QS_SIZE = 5
CHUNK = 128  # slots per chunk of a bucket's FIFO

DEPTH = COUNT  # IDA*: the depth of the node being expanded

# best-first: what a cheaper path to a stored state does (``reopen``)
KEEP_FIRST = 0  # nothing: the first path found stays (greedy)
IMPROVE_OPEN = 1  # a state not yet expanded takes it; an expanded one stays closed
REOPEN_ALL = 2  # any state takes it, an expanded one is queued again (A*)
# IDA*'s cycle checks (`Problem.cycle_check`)
CYCLE_PARENT, CYCLE_PATH = 1, 2

# packed open-list entries
SEC_BITS = 24
SEC_MAX = (1 << SEC_BITS) - 1  # the largest h a weighted-g ordering holds (greedy saturates g here)
F_MAX = (1 << (62 - SEC_BITS)) - 1  # the largest priority f
SLOT_BITS = 31
SLOT_MASK = (1 << SLOT_BITS) - 1  # also the most states a table holds
G_MAX = (1 << 31) - 1  # the largest path cost a table stores (``int32``)
NO_BOUND = 1 << 62  # "nothing cut off yet" for IDA*'s next bound
