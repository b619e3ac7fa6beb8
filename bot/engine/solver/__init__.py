"""The best arrangement of a hand: the fewest points it can be charged, found exactly.

Every losing hand of every deal is scored with this, and computer players call it for each
possible discard, so it has to be exact and fast in pure Python. The search splits the hand
the way the rules split it, one module a part:

* Runs live inside one suit. Each suit is solved on its own by a memoised search over its
  rank counts (`suit`), giving a small Pareto table of what the suit can reach (`tables`):
  (net jokers used, life flags (`life`)) -> least deadwood. Tables are keyed by the suit's
  counts only (`counts`, never by its letter), so one table serves all four suits and every
  later hand (`memos`). What keeps a long suit with several jokers fast: the points search
  tries only short runs (longer ones are never needed, `runs._SPAN_POINTS`), a table holds
  only what could beat the price a search must beat (`suit._suit_table`), the moves from each
  state are shared (`moves`) and their runs read from tables made at import (`runs`), a suit
  is searched from its high cards down with its Aces at the far end (`counts._at`), and where
  the rules allow it a suit keeps only one card of the wild rank in its counts
  (`suit._one_wild`). Where only the Aces link a suit's low cards to its high ones, the tables
  a hand's search starts from are made from the two apart (`suit._linked`), so that a set or a
  discard that takes a low card does not search the high ones again.
* Sets span suits but few ranks can form one, so the solver enumerates which cards go into
  sets (`sets`) and, for each choice, convolves the four suit tables (`search`).
* Jokers are one shared pool: printed jokers plus every wild-rank card. A wild-rank card sits
  in its suit's counts so it can be itself inside a run (keeping the run pure); when the suit
  does not use it that way it is released to the pool, which shows as -1 joker in the table.
* A 14-card hand chooses its discard. Which discards could leave a show is one search with
  the discard as a move (`show_discards`); the points each other discard leaves are searched
  one by one, each only for what would beat the best so far (`best`).

Points only need the fewest jokers a meld can take (spare jokers cost nothing). A declaration
must place every joker, so validity is checked separately on the winning arrangement, and only
when that fails (rare rule combinations) by an exact search over joker counts (exact mode).

Scoring needs the points only, so the groups an answer shows are laid out when first read
(`arrangement`, `assessment`), from the winning choice traced back suit by suit (`trace`) and
given its jokers (`layout`). That matters most for the three hands in four that cannot hold a
life: their points are every card, found without any search, while the melds they show (the
least deadwood) take a search of their own.

The modules import each other's names one by one, never as attributes of a module, so that
the search loops look them up as fast as if they were their own.
"""

from bot.engine.solver.arrangement import Arrangement
from bot.engine.solver.best import best_arrangement

__all__ = ["Arrangement", "best_arrangement"]
