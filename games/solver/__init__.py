"""A solver for Spider, Spiderette and Russian Solitaire, with full knowledge of the cards.

Pure Python beside the engine (no Django). ``solve(code, budget_seconds)`` wins a
deal, proves it lost, or gives up at its budget; a winning line is replayed by
``games.engine.replay`` before it is returned. docs/solver.md says how it
searches and why its prunings never lose a win.
"""

from .solution import Solution, SolverBug, Status
from .solve import solve, solve_game

__all__ = ["Solution", "SolverBug", "Status", "solve", "solve_game"]
