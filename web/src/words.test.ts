import { describe, expect, it } from "vitest";
import { KIND_WORDS, missingHindi, STATUS_WORDS, wordsFor } from "./words";

// The page's own source, as text: every `say("…")` in it must have its Hindi.
const sources = import.meta.glob("./main.ts", { query: "?raw", import: "default", eager: true }) as Record<
  string,
  string
>;

describe("the page's words", () => {
  it("have a Hindi text for every English one the page says", () => {
    const said = [...Object.values(sources)[0].matchAll(/say\(\s*"((?:[^"\\]|\\.)*)"/g)].map((found) => found[1]);
    expect(said.length).toBeGreaterThan(20);
    expect(missingHindi([...said, ...Object.values(STATUS_WORDS), ...Object.values(KIND_WORDS)])).toEqual([]);
  });

  it("fill in their values in either language", () => {
    expect(wordsFor("en")("{n} cards", { n: 13 })).toBe("13 cards");
    expect(wordsFor("hi")("{n} cards", { n: 13 })).toBe("13 पत्ते");
  });
});
