// Cards as the server writes them (`AS`, `10H`, `QD`, `JK`), drawn as the bot's pictures draw
// them (render/theme.py, render/sprites.py): a white face, the rank and suit in the corner and a
// large pip, spades and clubs near-black, hearts and diamonds red, the printed joker violet, a
// wild card's gold star badge, and the red back of the closed deck.

export type Suit = "S" | "H" | "D" | "C";

export interface Card {
  code: string;
  rank: number; // A=1 .. K=13, the printed joker 0
  suit: Suit | null;
}

const RANKS: Record<string, number> = { A: 1, J: 11, Q: 12, K: 13 };
const LABELS: Record<number, string> = { 1: "A", 11: "J", 12: "Q", 13: "K" };
export const SYMBOLS: Record<Suit, string> = { S: "♠", H: "♥", D: "♦", C: "♣" };

export function parseCard(code: string): Card {
  if (code === "JK") return { code, rank: 0, suit: null };
  const suit = code.slice(-1) as Suit;
  const label = code.slice(0, -1);
  return { code, rank: RANKS[label] ?? Number(label), suit };
}

export function rankLabel(rank: number): string {
  return LABELS[rank] ?? String(rank);
}

/** Whether the card counts as a joker this deal (the printed joker, or the wild rank). */
export function isWild(card: Card, wildRank: number | null): boolean {
  return card.rank === 0 || (wildRank !== null && card.rank === wildRank);
}

/** A card face: a button, so that a finger or a mouse can take it, and a screen reader names it. */
export function cardFace(code: string, wildRank: number | null, name: string): HTMLElement {
  const card = parseCard(code);
  const face = document.createElement("button");
  face.type = "button";
  face.className = "card";
  face.dataset.card = code;
  face.setAttribute("aria-label", name);
  if (card.suit === null) {
    face.classList.add("joker");
    face.innerHTML = `<span class="index">JK</span><span class="pip">★</span>`;
  } else {
    face.classList.add(card.suit === "H" || card.suit === "D" ? "red" : "black");
    const symbol = SYMBOLS[card.suit];
    face.innerHTML = `<span class="index">${rankLabel(card.rank)}<br>${symbol}</span><span class="pip">${symbol}</span>`;
  }
  if (isWild(card, wildRank)) {
    face.classList.add("wild");
    face.insertAdjacentHTML("beforeend", `<span class="badge" aria-hidden="true">★</span>`);
  }
  return face;
}

export function cardBack(): HTMLElement {
  const back = document.createElement("div");
  back.className = "card back";
  back.innerHTML = `<span class="star" aria-hidden="true">★</span>`;
  return back;
}
