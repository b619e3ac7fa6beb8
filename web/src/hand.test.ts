import { describe, expect, it } from "vitest";
import { follow, groupOf, moveCard } from "./hand";

describe("the player's groups", () => {
  it("keep their places when a card is picked: the new card comes last, alone", () => {
    expect(follow([["5H", "6H", "7H"], ["KS", "KD"]], ["5H", "6H", "7H", "KS", "KD", "2C"])).toEqual([
      ["5H", "6H", "7H"],
      ["KS", "KD"],
      ["2C"],
    ]);
  });

  it("lose a discarded card, and a group left empty", () => {
    expect(follow([["5H", "6H"], ["2C"]], ["5H", "6H"])).toEqual([["5H", "6H"]]);
  });

  it("hold two alike once each (two decks)", () => {
    expect(follow([["7S", "7S"]], ["7S"])).toEqual([["7S"]]);
  });

  it("move one card between groups, or to a group of its own", () => {
    const groups = [["5H", "6H"], ["7H", "KS"]];
    expect(moveCard(groups, "7H", 1, 0)).toEqual([["5H", "6H", "7H"], ["KS"]]);
    expect(moveCard(groups, "KS", 1, 2)).toEqual([["5H", "6H"], ["7H"], ["KS"]]);
    expect(groupOf(groups, "KS")).toBe(1);
  });
});
