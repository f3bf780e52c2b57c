"""searchkit-gridpath: grid path-finding on Moving AI maps, a searchkit plugin example.

Adds the ``gridpath`` domain, the ``jps`` engine and the n-puzzle heuristic
``inversion-max``; see the README for the step-by-step tutorial.
"""

__version__ = "0.1.0"
