// The word dictionaries and their matching: a word counts when it is the whole prefix or suffix run of
// the address (longest dictionary word wins). Matching walks a trie over case-folded characters, so it
// allocates nothing and never backtracks.
import { BASE58_ALPHABET } from "../../../schema/address";
import type { Network } from "../../../schema/rarity";

/**
 * Words spellable in hex, at least 4 characters. Leetspeak substitutions: 0 for o, 1 for i or l, 5 for s,
 * 7 for t ("c0ffee", "0ff1ce", "5afe", "7e57").
 */
export const ETHEREUM_WORDS: readonly string[] = [
  // plain hex spellings
  "abba", "abed", "aced", "babe", "bade", "bead", "beef", "cafe", "cede", "dace", "dead", "deaf", "deed",
  "face", "fade", "feed", "added", "ebbed", "faced", "faded", "decaf", "decade", "facade", "accede",
  "efface", "beaded", "bedded", "deface", "defaced", "deadbeef", "cafebabe", "feedface", "deadface",
  "beefcafe", "decafbad", "badcafe",
  // leetspeak
  "c0de", "c0ded", "c0ffee", "f00d", "0ff1ce", "1dea", "5afe", "5eed", "5a1e", "ba5e", "ca5e", "b055",
  "10ad", "b01d", "c01d", "c001", "f001", "a55e7", "dea1", "7a1e", "1eaf", "ac1d", "d1ce", "7ac0", "be57",
  "7e57", "bea57", "fea57", "70a57", "d00d", "ad0be", "c0c0a", "f1a5c0", "5ca1ab1e", "b1e55ed", "0b5e55ed",
  "5eaf00d", "1337",
];

/**
 * Words for Solana addresses, at least 3 letters, matched case-insensitively (base58 has no O, I or l,
 * so "sol" can only appear as "soL" or "SoL"; see isDeliberateCase for how case is scored).
 */
export const SOLANA_WORDS: readonly string[] = [
  "sol", "solana", "moon", "pump", "bonk", "based", "degen", "king", "wif", "jup", "ray", "ape", "pepe",
  "doge", "cat", "dog", "gem", "rich", "bull", "bear", "whale", "alpha", "chad", "wagmi", "hodl", "send",
  "mint", "nft", "dao", "defi", "swap", "safe", "cash", "gold", "luck", "lucky", "boss", "god", "zen",
  "love", "meme", "pay", "coin", "token", "fire", "star", "sun", "hero", "magic", "super", "ninja", "punk",
  "ghost", "dragon", "tiger", "lion", "wolf", "fox", "bot", "dev", "fomo", "yolo", "phantom", "jito",
  "orca", "mev", "dex", "sage", "vault", "bank", "money", "fun", "stake", "node", "lfg", "dead", "beef",
  "cafe",
];

// Slot of a case-folded character: digits 0-9, letters 10-35; -1 for anything else.
const SLOTS = 36;
function slotOf(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 122) return c - 87;
  if (c >= 65 && c <= 90) return c - 55;
  return -1;
}

/** A trie over folded characters; `isWord[node]` is 1 when a dictionary word ends at the node. */
type Trie = { next: Int32Array; isWord: Uint8Array };

function buildTrie(words: readonly string[], reversed: boolean): Trie {
  const next: number[] = new Array(SLOTS).fill(0);
  const isWord: number[] = [0];
  for (const word of words) {
    let node = 0;
    for (let j = 0; j < word.length; j++) {
      const slot = slotOf(word.charCodeAt(reversed ? word.length - 1 - j : j));
      if (slot < 0) throw new Error(`Dictionary word "${word}" has a character outside 0-9a-z`);
      let child = next[node * SLOTS + slot];
      if (child === 0) {
        child = isWord.length;
        isWord.push(0);
        for (let s = 0; s < SLOTS; s++) next.push(0);
        next[node * SLOTS + slot] = child;
      }
      node = child;
    }
    isWord[node] = 1;
  }
  return { next: Int32Array.from(next), isWord: Uint8Array.from(isWord) };
}

const TRIES = {
  ethereum: { forward: buildTrie(ETHEREUM_WORDS, false), backward: buildTrie(ETHEREUM_WORDS, true) },
  solana: { forward: buildTrie(SOLANA_WORDS, false), backward: buildTrie(SOLANA_WORDS, true) },
};

/** Length of the longest dictionary word starting at `start` (reading forward, not past `end`), or 0. */
export function longestWordAtStart(a: string, start: number, end: number, network: Network): number {
  const { next, isWord } = TRIES[network].forward;
  let node = 0;
  let best = 0;
  for (let i = start; i < end; i++) {
    const slot = slotOf(a.charCodeAt(i));
    if (slot < 0) break;
    node = next[node * SLOTS + slot];
    if (node === 0) break;
    if (isWord[node] === 1) best = i + 1 - start;
  }
  return best;
}

/** Length of the longest dictionary word ending at `end` (reading backward, not before `start`), or 0. */
export function longestWordAtEnd(a: string, start: number, end: number, network: Network): number {
  const { next, isWord } = TRIES[network].backward;
  let node = 0;
  let best = 0;
  for (let i = end - 1; i >= start; i--) {
    const slot = slotOf(a.charCodeAt(i));
    if (slot < 0) break;
    node = next[node * SLOTS + slot];
    if (node === 0) break;
    if (isWord[node] === 1) best = end - i;
  }
  return best;
}

const IN_BASE58 = new Uint8Array(128);
for (let i = 0; i < BASE58_ALPHABET.length; i++) IN_BASE58[BASE58_ALPHABET.charCodeAt(i)] = 1;

const isUpper = (c: number) => c >= 65 && c <= 90;
const isLower = (c: number) => c >= 97 && c <= 122;

/**
 * How many case forms of this character the network's alphabet has: 2 for a letter whose upper and lower
 * case both exist (all hex letters; most base58 letters), 1 otherwise (digits; base58's o, i and L).
 */
export function caseVariants(c: number, network: Network): number {
  if (!isUpper(c) && !isLower(c)) return 1;
  if (network === "ethereum") return 2;
  return IN_BASE58[c ^ 0x20] === 1 ? 2 : 1;
}

/**
 * Whether the letters in a[from, to) are written in a deliberate case form: all lower case, all upper case,
 * or capitalised (first character an upper-case letter, the rest lower case). A letter whose other case
 * does not exist in the alphabet (base58 o, i, L) fits every form. A word in one of these forms is scored
 * as the exact string; any other mix of cases is what a case-insensitive search produces, and is scored as
 * such.
 */
export function isDeliberateCase(a: string, from: number, to: number, network: Network): boolean {
  let lower = true;
  let upper = true;
  let title = isUpper(a.charCodeAt(from)) || caseVariants(a.charCodeAt(from), network) === 1;
  let sawLetter = false;
  for (let i = from; i < to; i++) {
    const c = a.charCodeAt(i);
    if (!isUpper(c) && !isLower(c)) {
      if (i === from) title = false;
      continue;
    }
    sawLetter = true;
    if (caseVariants(c, network) === 1) continue;
    if (isUpper(c)) {
      lower = false;
      if (i !== from) title = false;
    } else {
      upper = false;
      if (i === from) title = false;
    }
  }
  return !sawLetter || lower || upper || title;
}
