// The rummy table as a Discord Activity. Inside Discord the Embedded App SDK says who the player
// is (authorize → our server exchanges the code → authenticate); outside it, for local tests, the
// SDK's own mock stands in (`?mock&code=…&guild=…&channel=…`, the code coming from the test's
// Discord double). Then one live connection (`/api/live`, relative: Discord's proxy maps it) sends
// the table's views and takes the moves; it reconnects after a drop and gets the current view.
import { DiscordSDK, DiscordSDKMock } from "@discord/embedded-app-sdk";
import { cardBack, cardFace, parseCard, rankLabel, SYMBOLS } from "./cards";
import { follow, groupOf, moveCard, type Groups } from "./hand";
import { KIND_WORDS, STATUS_WORDS, wordsFor, type Say } from "./words";
import "./style.css";

interface Seat {
  name: string;
  user_id: string | null;
  computer: string | null;
}
interface DealView {
  phase: string;
  turn: number;
  open_card: string | null;
  closed_count: number;
  wild_rank: number | null;
  statuses: string[];
  hand_sizes: number[];
}
interface TableJson {
  status: string;
  host_id: string | null;
  max_seats: number;
  seats: Seat[];
  now: number;
  // `base`: when the turn's own time ends; its seat's time bank runs from then to `deadline`
  clock: { seat: number | null; deadline: number; base: number | null } | null;
  rules: { first_drop: number; middle_drop: number; wrong_show: number };
  match: {
    phase: string;
    standings: number[];
    seat_status: string[];
    history: (number | null)[][];
    winners: number[];
    winner: number | null;
    deal_number: number;
    rejoinable: number[];
    can_split: boolean;
    split_votes: number[];
    deal: DealView | null;
  } | null;
}
interface HandJson {
  seat: number;
  cards: string[];
  suggested: Groups;
  picked: string | null;
  turn: string;
  legal: {
    pick_closed: boolean;
    pick_open: boolean;
    discards: string[];
    drop: boolean;
    declare: boolean;
    drop_cost: number;
    wrong_show_cost: number;
  };
}
// The engine's judgement of the player's groups (`declare`: of the declaration they would make).
interface Judged {
  type: "judged";
  id: string;
  declare: boolean;
  groups: Groups;
  kinds: string[];
  finish: string | null;
  valid: boolean;
  reason: string | null;
}
interface StateFrame {
  type: "state";
  table: TableJson | null;
  hand: HandJson | null;
  seat: number | null;
}
type Frame =
  | StateFrame
  | { type: "welcome"; user_id: string; language: string }
  | { type: "done"; id: string }
  | { type: "elsewhere"; shard: number }
  | { type: "moved"; text: string }
  | Judged
  | { type: "refused"; id?: string; text: string };

const app = document.getElementById("app") as HTMLElement;
let say: Say = wordsFor("en");
let state: StateFrame | null = null;
let received = 0; // the page's clock when the state came (seconds), for the countdown
let groups: Groups = [];
let custom = false; // the player moved a card: their groups, not the solver's
let selected: string | null = null;
let kinds: string[] = []; // the engine's kind of each group, as last judged (their colours)
let declaring = ""; // the id of the declaration being judged before it is confirmed
let socket: WebSocket | null = null;
let moves = 0;
let notice = "";
let me = ""; // the user the connection is bound to (the server's word, from Discord)

// ------------------------------------------------------------------ signing in

interface Who {
  token: string;
  user: string;
  guild: string;
  channel: string;
}

async function signIn(): Promise<Who> {
  const params = new URLSearchParams(location.search);
  const config = (await (await fetch("api/config")).json()) as { client_id: string };
  if (params.has("mock")) {
    const sdk = new DiscordSDKMock(config.client_id, params.get("guild"), params.get("channel"), null);
    const code = params.get("code") ?? "";
    const user = { id: params.get("user") ?? "", username: "", discriminator: "0", bot: false, avatar: null };
    sdk._updateCommandMocks({
      authorize: async () => ({ code }),
      authenticate: async ({ access_token }) => ({
        access_token: access_token ?? "",
        user: { ...user, public_flags: 0, global_name: null },
        scopes: ["identify"],
        expires: "",
        application: { id: config.client_id, name: "", description: "", icon: null },
      }),
    });
    return finish(sdk, config.client_id);
  }
  const sdk = new DiscordSDK(config.client_id);
  await sdk.ready();
  return finish(sdk, config.client_id);
}

async function finish(sdk: DiscordSDK | DiscordSDKMock, clientId: string): Promise<Who> {
  const { code } = await sdk.commands.authorize({
    client_id: clientId,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  const answer = await fetch("api/token", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code }),
  });
  if (!answer.ok) throw new Error("sign-in");
  const { access_token } = (await answer.json()) as { access_token: string };
  const { user } = await sdk.commands.authenticate({ access_token });
  return { token: access_token, user: user.id, guild: sdk.guildId ?? "", channel: sdk.channelId ?? "" };
}

// ------------------------------------------------------------------ the live connection

// Where the live connection goes: the root, or `shard/N/` when another shard's process serves the
// channel's table (the proxy in front of the bot routes that prefix to it; see the README).
let livePath = "api/live";
// Sent elsewhere this many times in a row (no welcome between), the page stops: the proxy routes
// the shard's prefix to a process that does not serve the table, and retrying cannot mend that.
const MOST_ELSEWHERE = 3;
let elsewhere = 0;

function connect(who: Who, delay = 500): void {
  const url = new URL(livePath, location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(url);
  socket = ws;
  ws.onopen = () => {
    const hello = { type: "hello", access_token: who.token, user_id: who.user, guild_id: who.guild, channel_id: who.channel };
    ws.send(JSON.stringify(hello));
  };
  ws.onmessage = (message) => {
    const frame = JSON.parse(String(message.data)) as Frame;
    if (frame.type === "elsewhere") livePath = `shard/${frame.shard}/api/live`;
    else heard(frame);
  };
  ws.onclose = (closed) => {
    if (closed.code === 4003 || closed.code === 4029) return; // refused, or too many: said on the page
    if (closed.code === 4004) {
      elsewhere += 1;
      if (elsewhere > MOST_ELSEWHERE) {
        notice = say("The table cannot be reached now: open it again later.");
        return draw();
      }
      if (elsewhere === 1) return connect(who, delay); // at once, to the process that serves the table
    }
    notice = say("Reconnecting…");
    draw();
    setTimeout(() => connect(who, Math.min(delay * 2, 8000)), delay);
  };
}

function heard(frame: Frame): void {
  if (frame.type === "welcome") {
    elsewhere = 0;
    me = frame.user_id;
    say = wordsFor(frame.language);
    document.documentElement.lang = frame.language;
    notice = "";
  } else if (frame.type === "state") {
    const dealNumber = frame.table?.match?.deal_number ?? 0;
    if (dealNumber !== state?.table?.match?.deal_number) custom = false; // a new hand: suggested again
    state = frame;
    received = Date.now() / 1000;
    if (frame.hand) {
      groups = custom ? follow(groups, frame.hand.cards) : frame.hand.suggested;
      if (selected && !frame.hand.cards.includes(selected)) selected = null;
      judge();
    } else {
      groups = [];
      custom = false;
      selected = null;
    }
    notice = "";
  } else if (frame.type === "judged") {
    if (!frame.declare && JSON.stringify(frame.groups) === JSON.stringify(groups)) kinds = frame.kinds;
    if (frame.declare && frame.id === declaring) confirmDeclaration(frame);
  } else if (frame.type === "refused") {
    notice = frame.text;
  } else if (frame.type === "moved") {
    notice = say("Reconnecting…"); // this process no longer serves the table: the next one will
  }
  draw();
}

/** Asks the engine how the groups are judged now (`declare`: as a declaration); the answer comes
 * as a `judged` frame with the id this returns. */
function judge(declare = false, finish: string | null = null): string {
  if (!socket || !state?.hand) return "";
  moves += 1;
  const id = `j${moves}`;
  socket.send(JSON.stringify({ type: "judge", id, groups, finish, declare }));
  if (!declare) kinds = [];
  return id;
}

function play(move: Record<string, unknown>): void {
  if (!state?.hand) return;
  send({ type: "move", turn: state.hand.turn, move });
}

/** A frame that the server answers `done` or `refused` with its id (a retry keeps the id). */
function send(frame: Record<string, unknown>): void {
  if (!socket) return;
  moves += 1;
  socket.send(JSON.stringify({ ...frame, id: `${Date.now().toString(36)}-${moves}` }));
}

// ------------------------------------------------------------------ drawing

function el(tag: string, className = "", text = ""): HTMLElement {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
}

function secondsLeft(table: TableJson): number | null {
  if (!table.clock) return null;
  return Math.max(0, Math.ceil(table.clock.deadline - serverNow(table)));
}

function serverNow(table: TableJson): number {
  return table.now + (Date.now() / 1000 - received);
}

/** The turn's own seconds left, and its seat's time bank apart (spent once the turn's are). */
function turnAndBank(table: TableJson): { turn: number; bank: number } | null {
  const clock = table.clock;
  if (!clock) return null;
  const now = serverNow(table);
  const base = Math.min(clock.base ?? clock.deadline, clock.deadline);
  return {
    turn: Math.max(0, Math.ceil(base - now)),
    bank: Math.max(0, Math.ceil(clock.deadline - Math.max(base, now))),
  };
}

function cardName(code: string): string {
  const card = parseCard(code);
  return card.suit === null ? "Joker" : `${rankLabel(card.rank)}${SYMBOLS[card.suit]}`;
}

function draw(): void {
  app.replaceChildren();
  if (!state) {
    app.append(el("p", "status", notice || say("Connecting to the table…")));
    return;
  }
  const table = state.table;
  if (!table) {
    app.append(el("p", "status", say("There is no table in this channel: open one with /rummy new.")));
    return;
  }
  const match = table.match;
  const deal = match?.deal ?? null;
  app.append(statusLine(table, deal));
  if (!match && table.status === "open") {
    app.append(lobby(table));
    if (notice) app.append(el("p", "notice", notice));
    return;
  }
  app.append(seats(table, deal));
  if (deal) app.append(piles(deal));
  if (state.hand && deal) app.append(...handArea(state.hand, deal));
  else if (deal) app.append(el("p", "watching", say("You are watching this table.")));
  if (match?.phase === "between_deals" && state.seat !== null) app.append(offers(table, state.seat));
  if (match && match.history.length) app.append(results(table));
  if (notice) app.append(el("p", "notice", notice));
}

function statusLine(table: TableJson, deal: DealView | null): HTMLElement {
  const line = el("header", "status");
  line.setAttribute("role", "status");
  const match = table.match;
  let text: string;
  if (!match && me !== "" && table.host_id === me) text = say("Everyone in? Start the match.");
  else if (!match) text = say("Waiting for the host to start the match.");
  else if (match.phase === "over")
    text =
      match.winner !== null ? say("Match over: {name} wins.", { name: table.seats[match.winner].name }) : say("Match over.");
  else if (!deal) text = say("The next deal starts soon.");
  else if (state?.hand && deal.turn === state.seat)
    text = deal.phase === "pick" ? say("Your turn: pick a card.") : say("Your turn: discard a card, or declare.");
  else text = say("{name}'s turn", { name: table.seats[deal.turn].name });
  line.append(el("span", "what", text));
  if (table.clock && match?.phase !== "over") line.append(clockText(table));
  if (match) line.append(el("span", "deal", say("Deal {n}", { n: match.deal_number })));
  return line;
}

// A running clock: the turn's seconds, then the time bank's apart once the turn's are spent;
// between deals, the seconds until the next deal. Counted down in place (see the end).
function clockText(table: TableJson): HTMLElement {
  const clock = el("span", "clock");
  clock.dataset.clock = "";
  clock.textContent = clockWords(table);
  return clock;
}

function clockWords(table: TableJson): string {
  const parts = turnAndBank(table);
  if (!parts) return "";
  if (table.clock?.seat === null) return say("{s} s left", { s: secondsLeft(table) ?? 0 });
  if (parts.turn > 0 || parts.bank === 0) {
    const turn = say("{s} s left", { s: parts.turn });
    return parts.bank > 0 ? `${turn} · ${say("time bank {s} s", { s: parts.bank })}` : turn;
  }
  return say("Time bank: {s} s left", { s: parts.bank });
}

function seats(table: TableJson, deal: DealView | null): HTMLElement {
  const row = el("section", "seats");
  table.seats.forEach((seat, index) => {
    if (index === state?.seat && state.hand) return;
    const box = el("div", "seat");
    if (deal && deal.turn === index) box.classList.add("turn");
    box.append(el("span", "name", index === state?.seat ? `${seat.name} (${say("you")})` : seat.name));
    if (deal) {
      const status = deal.statuses[index];
      const shown = status === "playing" ? say("{n} cards", { n: deal.hand_sizes[index] }) : say(STATUS_WORDS[status] ?? status);
      box.append(el("span", "count", shown));
      if (table.clock?.seat === index) box.append(clockText(table));
    }
    if (table.match) box.append(el("span", "score", say("Score: {n}", { n: table.match.standings[index] })));
    row.append(box);
  });
  return row;
}

function piles(deal: DealView): HTMLElement {
  const area = el("section", "piles");
  const hand = state?.hand ?? null;
  const closed = el("button", "pile closed-pile");
  closed.id = "pick-closed";
  closed.setAttribute("aria-label", say("Closed deck"));
  closed.append(cardBack(), el("span", "label", `${say("Closed deck")} · ${deal.closed_count}`));
  closed.toggleAttribute("disabled", !hand?.legal.pick_closed);
  closed.onclick = () => play({ kind: "pick", source: "closed" });
  const open = el("div", "pile open-pile");
  open.id = "open-pile";
  open.dataset.drop = "discard";
  if (deal.open_card) {
    const face = cardFace(deal.open_card, deal.wild_rank, `${say("Open card")}: ${cardName(deal.open_card)}`);
    face.id = "pick-open";
    face.toggleAttribute("disabled", !hand?.legal.pick_open && !(selected && canDiscard(selected)));
    face.onclick = () => (selected && canDiscard(selected) ? discard(selected) : play({ kind: "pick", source: "open" }));
    open.append(face);
  }
  open.onclick = (event) => {
    if (event.target === open && selected && canDiscard(selected)) discard(selected);
  };
  open.append(el("span", "label", say("Open card")));
  const wild = el("div", "wild-rank");
  if (deal.wild_rank !== null) wild.textContent = say("Wild joker: {rank}", { rank: rankLabel(deal.wild_rank) });
  area.append(closed, open, wild);
  return area;
}

function canDiscard(card: string): boolean {
  return state?.hand?.legal.discards.includes(card) ?? false;
}

function discard(card: string): void {
  selected = null;
  play({ kind: "discard", card });
}

function handArea(hand: HandJson, deal: DealView): HTMLElement[] {
  const area = el("section", "hand");
  area.setAttribute("aria-label", say("{n} cards", { n: hand.cards.length }));
  groups.forEach((group, index) => {
    const box = el("div", "group");
    box.dataset.group = String(index);
    if (kinds[index]) {
      box.dataset.kind = kinds[index];
      box.setAttribute("aria-label", say(KIND_WORDS[kinds[index]] ?? kinds[index]));
    }
    for (const code of group) {
      const face = cardFace(code, deal.wild_rank, cardName(code));
      if (code === selected) face.classList.add("selected");
      if (code === hand.picked) face.classList.add("picked");
      face.addEventListener("pointerdown", (event) => grab(event, code, index));
      box.append(face);
    }
    box.onclick = (event) => {
      if (event.target === box && selected) place(selected, index);
    };
    area.append(box);
  });
  const fresh = el("button", "group new-group", say("New group"));
  fresh.dataset.group = String(groups.length);
  fresh.onclick = () => selected && place(selected, groups.length);
  area.append(fresh);

  const actions = el("nav", "actions");
  const throwIt = button(say("Discard"), "discard", !!selected && canDiscard(selected), () => selected && discard(selected));
  const sort = button(say("Sort"), "sort", custom, () => {
    custom = false;
    groups = hand.suggested;
    draw();
  });
  const drop = button(say("Drop"), "drop", hand.legal.drop, () =>
    confirmThen(
      say("Drop out of this deal? It costs {points} points.", { points: hand.legal.drop_cost }),
      () => play({ kind: "drop" }),
      { yes: say("Yes, drop"), no: say("Keep playing") },
    ),
  );
  // The engine judges the declaration first; the confirmation says whether it is valid.
  const declare = button(say("Declare"), "declare", hand.legal.declare, () => {
    declaring = judge(true, selected);
  });
  actions.append(throwIt, sort, drop, declare);
  const hint = el("p", "hint", say("Tap a card, then a group to move it, or the open card to discard it."));
  return [area, actions, hint];
}

function button(text: string, id: string, enabled: boolean, act: () => void): HTMLElement {
  const node = el("button", "action", text);
  node.id = id;
  node.toggleAttribute("disabled", !enabled);
  node.onclick = act;
  return node;
}

function place(card: string, to: number): void {
  const from = groupOf(groups, card);
  groups = moveCard(groups, card, from, to);
  custom = true;
  selected = null;
  judge();
  draw();
}

// A finger or a mouse: a press that does not move is a tap (select the card, or let it go); one
// that moves drags the card, dropped on a group (moved there) or on the open pile (discarded).
function grab(event: PointerEvent, code: string, from: number): void {
  const start = { x: event.clientX, y: event.clientY };
  const face = event.currentTarget as HTMLElement;
  let ghost: HTMLElement | null = null;
  const moveTo = (moved: PointerEvent) => {
    if (!ghost && Math.hypot(moved.clientX - start.x, moved.clientY - start.y) < 8) return;
    if (!ghost) {
      ghost = face.cloneNode(true) as HTMLElement;
      ghost.classList.add("ghost");
      document.body.append(ghost);
    }
    ghost.style.left = `${moved.clientX - 22}px`;
    ghost.style.top = `${moved.clientY - 30}px`;
  };
  const letGo = (up: PointerEvent) => {
    window.removeEventListener("pointermove", moveTo);
    window.removeEventListener("pointerup", letGo);
    if (!ghost) {
      selected = selected === code ? null : code;
      draw();
      return;
    }
    ghost.remove();
    const target = document.elementFromPoint(up.clientX, up.clientY)?.closest<HTMLElement>("[data-group], [data-drop]");
    if (target?.dataset.drop === "discard" && canDiscard(code)) discard(code);
    else if (target?.dataset.group !== undefined) {
      selected = code;
      place(code, Number(target.dataset.group) === from ? from : Number(target.dataset.group));
    }
  };
  window.addEventListener("pointermove", moveTo);
  window.addEventListener("pointerup", letGo);
}

function confirmDeclaration(judged: Judged): void {
  const hand = state?.hand;
  if (!hand) return;
  const question = judged.finish
    ? say("Declare with {card} as the finish card?", { card: cardName(judged.finish) })
    : say("Show your 13 cards now, before picking?");
  const shown = judged.groups.map(
    (group, index) => `${say(KIND_WORDS[judged.kinds[index]] ?? "")}: ${group.map(cardName).join(" ")}`,
  );
  const points = hand.legal.wrong_show_cost;
  // As on Discord (issue 26): a wrong show says so and what it costs, with "Keep playing" first
  // and "Declare anyway" second; a valid show is confirmed plainly.
  const verdict = judged.valid
    ? say("This looks valid.")
    : say("This is a wrong show: {reason}", { reason: judged.reason ?? "" });
  const cost = say("A wrong show costs {points} points.", { points });
  const choice = judged.valid
    ? { yes: say("Yes, declare"), no: say("Keep playing") }
    : { yes: say("Declare anyway (−{points})", { points }), no: say("Keep playing"), risky: true };
  confirmThen(
    [question, ...shown, verdict, cost].join("\n"),
    () => play({ kind: "declare", groups: [...judged.groups, ...(judged.finish ? [[judged.finish]] : [])], finish: judged.finish }),
    choice,
  );
}

// The answers a question offers: the safe one comes first; a risky "yes" is drawn in warning.
interface Choice {
  yes: string;
  no: string;
  risky?: boolean;
}

function confirmThen(question: string, act: () => void, choice?: Choice): void {
  const { yes: yesWords, no: noWords, risky } = choice ?? { yes: say("Yes"), no: say("Cancel") };
  const dialog = el("div", "dialog");
  dialog.setAttribute("role", "dialog");
  for (const line of question.split("\n")) dialog.append(el("p", "", line));
  const yes = button(yesWords, "confirm-yes", true, () => {
    dialog.remove();
    act();
  });
  yes.classList.toggle("risky", !!risky);
  const no = button(noWords, "confirm-no", true, () => dialog.remove());
  const row = el("div", "row");
  row.append(no, yes);
  dialog.append(row);
  document.body.append(dialog);
}

// The lobby: who sits, and its buttons, as the lobby message on Discord has them (the server
// checks each as the buttons' are: a seated player adds a computer, the host starts).
function lobby(table: TableJson): HTMLElement {
  const box = el("section", "lobby");
  box.append(el("h2", "", say("Seats: {n} of {most}", { n: table.seats.length, most: table.max_seats })));
  const list = el("ul", "sitters");
  for (const seat of table.seats) {
    const row = el("li", "", seat.name);
    if (seat.user_id !== null && seat.user_id === table.host_id) row.append(el("span", "tag", say("host")));
    if (seat.user_id !== null && seat.user_id === me) row.append(el("span", "tag", say("you")));
    list.append(row);
  }
  box.append(list);
  const seated = table.seats.some((seat) => seat.user_id === me);
  const full = table.seats.length >= table.max_seats;
  const press = (action: string) => () => send({ type: "lobby", action });
  const actions = el("nav", "actions lobby-actions");
  if (seated) {
    actions.append(
      button(say("Leave"), "leave", true, press("leave")),
      button(say("Add easy computer"), "add-easy", !full, press("easy")),
      button(say("Add strong computer"), "add-strong", !full, press("strong")),
    );
  } else actions.append(button(say("Join"), "join", !full, press("join")));
  if (table.host_id === me) actions.append(button(say("Start"), "start", table.seats.length >= 2, press("start")));
  box.append(actions);
  return box;
}

// Between Pool's deals: rejoin (once, after elimination) and split (2 or 3 left), as /rummy
// rejoin and /rummy split offer them.
function offers(table: TableJson, seat: number): HTMLElement {
  const match = table.match!;
  const box = el("section", "offers");
  const actions = el("nav", "actions lobby-actions");
  if (match.rejoinable.includes(seat))
    actions.append(button(say("Rejoin"), "rejoin", true, () => send({ type: "move", turn: null, move: { kind: "rejoin" } })));
  if (match.can_split && match.seat_status[seat] === "in") {
    const voted = match.split_votes.includes(seat);
    const split = () =>
      confirmThen(say("End the pool now and share it?"), () => send({ type: "move", turn: null, move: { kind: "split" } }));
    actions.append(button(say("Split"), "split", !voted, split));
  }
  if (match.split_votes.length)
    box.append(el("p", "hint", say("Split: {n} of {m} agree", { n: match.split_votes.length, m: match.seat_status.filter((s) => s === "in").length })));
  if (actions.childElementCount) box.prepend(actions);
  return box;
}

function results(table: TableJson): HTMLElement {
  const match = table.match!;
  const box = el("section", "results");
  box.append(el("h2", "", say("Results")));
  const grid = document.createElement("table");
  const head = grid.insertRow();
  head.append(el("th", "", say("Deal")));
  table.seats.forEach((seat, index) => head.append(el("th", "", index === state?.seat ? say("you") : seat.name)));
  match.history.forEach((points, deal) => {
    const row = grid.insertRow();
    row.append(el("td", "", String(deal + 1)));
    points.forEach((value, seat) => row.append(el("td", match.winners[deal] === seat ? "won" : "", value === null ? "–" : String(value))));
  });
  const total = grid.insertRow();
  total.className = "total";
  total.append(el("td", "", say("Total")));
  match.standings.forEach((value) => total.append(el("td", "", String(value))));
  box.append(grid);
  return box;
}

// ------------------------------------------------------------------ start

// The clocks count down in place (the rest is drawn anew only when something changed).
setInterval(() => {
  const table = state?.table;
  if (!table?.clock) return;
  const text = clockWords(table);
  for (const clock of document.querySelectorAll<HTMLElement>("[data-clock]")) clock.textContent = text;
}, 1000);
draw();
signIn()
  .then((who) => connect(who))
  .catch(() => {
    notice = say("Sign-in failed: open the table again.");
    app.replaceChildren(el("p", "status", notice));
  });
