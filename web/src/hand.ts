// The player's grouping of their cards, kept on the page: the solver's suggestion until the
// player moves a card, then their own groups, followed as the hand changes (a picked card joins
// a group of its own at the end, a discarded one leaves its group), as the bot's HandLayout does.

export type Groups = string[][];

/** `groups` brought in line with `cards` (a multiset of codes): kept cards stay where they are. */
export function follow(groups: Groups, cards: string[]): Groups {
  const missing = new Map<string, number>();
  for (const card of cards) missing.set(card, (missing.get(card) ?? 0) + 1);
  const kept: Groups = [];
  for (const group of groups) {
    const still = group.filter((card) => {
      const left = missing.get(card) ?? 0;
      if (left === 0) return false;
      missing.set(card, left - 1);
      return true;
    });
    if (still.length) kept.push(still);
  }
  const extra: string[] = [];
  for (const [card, count] of missing) for (let i = 0; i < count; i++) extra.push(card);
  if (extra.length) kept.push(extra);
  return kept;
}

/** Moves one copy of `card` from group `from` to group `to` (`to` = groups.length: a new group). */
export function moveCard(groups: Groups, card: string, from: number, to: number): Groups {
  if (from === to || !groups[from]?.includes(card)) return groups;
  const next = groups.map((group) => [...group]);
  next[from].splice(next[from].indexOf(card), 1);
  if (to >= next.length) next.push([card]);
  else next[to].push(card);
  return next.filter((group) => group.length > 0);
}

/** Where the card lies: the first group holding it. */
export function groupOf(groups: Groups, card: string): number {
  return groups.findIndex((group) => group.includes(card));
}
