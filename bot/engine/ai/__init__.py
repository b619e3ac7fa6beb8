"""Computer players: a policy per level that turns one seat's view into one legal command.

A player only ever receives `Deal.view(seat)`, so it cannot cheat: what it knows about the
other hands is what the table showed (the open pile, the discards and who took which discard).
Both levels lean on the exact solver; they differ in what they ask of it.

* Easy plays the way a casual player does: it takes the open card when the solver says the
  card lowers its points, throws the solver's discard (or, now and then, just a high card) and
  never drops.
* Strong scores a 13-card hand by more than its points (which, without a life, are simply the
  sum of the cards and say nothing about progress): the deadwood left outside the solver's
  melds, discounted by the live cards that would meld it (card counting over every card it has
  seen), plus what the missing lives cost, plus how far the hand is from a show by the cards it
  still misses and how likely they are to come (`distance`), plus the points the hand would be
  charged, weighed more the later the deal (the likelier another player shows). It takes the
  open card only when that score clearly improves, keeps its discards away from what the next
  player has been collecting, and drops (first or middle) when the hand is likely to cost more
  than the drop: what such a hand nets was measured in self-play, by its pure sequence, its
  jokers, the table's size and the turn.

Decisions are deterministic given the `random.Random` the player was made with.

The modules: `player` (the seat, and the easy level), `strong` (the strong level's decisions),
`scoring` and `distance` (what they weigh), `unseen` (what the table showed) and `common` (what
both levels ask).
"""

from bot.engine.ai.player import ComputerPlayer, Level, decide
from bot.engine.ai.unseen import taken_from_open, unseen_cards

__all__ = ["ComputerPlayer", "Level", "decide", "taken_from_open", "unseen_cards"]
