// The page's words in English and Hindi, by the language the server says the player's Discord
// app speaks (the bot's catalog words, shared/hindi-glossary.md). The server's own refusals come
// already in the player's language.

type Catalog = Record<string, string>;

const HINDI: Catalog = {
  "Connecting to the table…": "टेबल से जुड़ रहे हैं…",
  "Reconnecting…": "फिर से जुड़ रहे हैं…",
  "The table cannot be reached now: open it again later.": "अभी टेबल तक नहीं पहुँच पा रहे: बाद में दोबारा खोलें।",
  "There is no table in this channel: open one with /rummy new.":
    "इस चैनल में कोई टेबल नहीं है। /rummy new से एक खोलें।",
  "Waiting for the host to start the match.": "होस्ट के मैच शुरू करने का इंतज़ार है।",
  "Everyone in? Start the match.": "सब आ गए? मैच शुरू करें।",
  "Your turn: pick a card.": "आपकी बारी: एक पत्ता उठाएँ।",
  "Your turn: discard a card, or declare.": "आपकी बारी: एक पत्ता फेंकें, या डिक्लेयर करें।",
  "{name}'s turn": "{name} की बारी",
  "The next deal starts soon.": "अगली डील जल्द शुरू होगी।",
  "Deal {n}": "डील {n}",
  "{s} s left": "{s} सेकंड बचे",
  "time bank {s} s": "टाइम बैंक {s} सेकंड",
  "Time bank: {s} s left": "टाइम बैंक: {s} सेकंड बचे",
  "Seats: {n} of {most}": "सीटें: {most} में से {n}",
  "host": "होस्ट",
  "Join": "जुड़ें",
  "Leave": "छोड़ें",
  "Add easy computer": "आसान कंप्यूटर जोड़ें",
  "Add strong computer": "मज़बूत कंप्यूटर जोड़ें",
  "Start": "शुरू करें",
  "Rejoin": "रीजॉइन",
  "Split": "स्प्लिट",
  "End the pool now and share it?": "पूल अभी खत्म करके आपस में बाँट लें?",
  "Split: {n} of {m} agree": "स्प्लिट: {m} में से {n} सहमत",
  "Wild joker: {rank}": "वाइल्ड जोकर: {rank}",
  "Closed deck": "बंद गड्डी",
  "Open card": "खुला पत्ता",
  "{n} cards": "{n} पत्ते",
  "Discard": "फेंकें",
  "Drop": "ड्रॉप",
  "Declare": "डिक्लेयर",
  "Sort": "सुझाव",
  "New group": "नया ग्रुप",
  "Yes": "हाँ",
  "Cancel": "रद्द करें",
  "Drop out of this deal? It costs {points} points.": "इस डील से ड्रॉप करें? इसके {points} अंक लगेंगे।",
  "Declare with {card} as the finish card?": "{card} को फ़िनिश पत्ता बनाकर डिक्लेयर करें?",
  "Show your 13 cards now, before picking?": "उठाने से पहले अभी अपने 13 पत्ते शो करें?",
  "This looks valid.": "यह सही लगता है।",
  "This is a wrong show: {reason}": "यह गलत शो है: {reason}",
  "Yes, drop": "हाँ, ड्रॉप करें",
  "Yes, declare": "हाँ, डिक्लेयर करें",
  "Keep playing": "खेलते रहें",
  "Declare anyway (−{points})": "फिर भी डिक्लेयर करें (−{points})",
  "A wrong show costs {points} points.": "गलत शो के {points} अंक लगते हैं।",
  "pure sequence": "प्योर सीक्वेंस",
  "impure sequence": "इम्प्योर सीक्वेंस",
  "set": "सेट",
  "spare jokers": "बचे जोकर",
  "not a group": "ग्रुप नहीं",
  "You are watching this table.": "आप यह टेबल देख रहे हैं।",
  "Results": "नतीजे",
  "Score: {n}": "स्कोर: {n}",
  "Total": "कुल",
  "Match over: {name} wins.": "मैच खत्म: {name} जीते।",
  "Match over.": "मैच खत्म।",
  "you": "आप",
  "dropped": "ड्रॉप",
  "declared": "डिक्लेयर",
  "wrong show": "गलत शो",
  "left": "टेबल छोड़ी",
  "sitting out": "बाहर बैठे",
  "Deal": "डील",
  "Tap a card, then a group to move it, or the open card to discard it.":
    "पत्ता छुएँ, फिर उसे ले जाने के लिए कोई ग्रुप, या फेंकने के लिए खुला पत्ता।",
  "Sign-in failed: open the table again.": "साइन-इन नहीं हो सका: टेबल फिर से खोलें।",
};

// A group's kind as the engine judges it (`GroupKind`), as the bot's words name it.
export const KIND_WORDS: Record<string, string> = {
  pure_sequence: "pure sequence",
  impure_sequence: "impure sequence",
  set: "set",
  spare_jokers: "spare jokers",
  invalid: "not a group",
};

// A seat's state in the deal (the engine's `SeatStatus`), as the seats row says it.
export const STATUS_WORDS: Record<string, string> = {
  dropped: "dropped",
  left: "left",
  wrong_show: "wrong show",
  declared: "declared",
  sitting_out: "sitting out",
};

export type Say = (text: string, values?: Record<string, string | number>) => string;

export function wordsFor(language: string): Say {
  const catalog = language === "hi" ? HINDI : {};
  return (text, values = {}) => {
    const found = catalog[text] ?? text;
    return found.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
  };
}

/** Every English text has its Hindi one (a unit test reads this). */
export function missingHindi(texts: string[]): string[] {
  return texts.filter((text) => !(text in HINDI));
}
