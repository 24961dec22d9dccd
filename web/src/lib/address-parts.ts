// How an address with its highlighted pattern is laid out (HighlightedAddress): cut into runs, highlighted or
// not; where it may break (at its quarters, never inside a highlighted run when that can be helped), so a narrow
// box shows even pieces instead of a line with one or two characters left over; and a compact form for tight
// lists (the first and last characters and every highlighted run, the rest elided), which never breaks.

export type AddressPart = { text: string; hit: boolean; elided?: boolean };
type Range = readonly [number, number];

/** The address cut into runs by its [start, end) highlight ranges (in any order, overlapping or not). */
export function addressParts(address: string, ranges: readonly Range[]): AddressPart[] {
  const parts: AddressPart[] = [];
  let at = 0;
  for (const [start, end] of [...ranges].sort((a, b) => a[0] - b[0])) {
    if (start > at) parts.push({ text: address.slice(at, start), hit: false });
    if (end > Math.max(start, at)) parts.push({ text: address.slice(Math.max(start, at), end), hit: true });
    at = Math.max(at, end);
  }
  if (at < address.length) parts.push({ text: address.slice(at), hit: false });
  return parts;
}

/**
 * Where the address may break: at its quarters, each moved to the nearer end of a highlighted run that spans it
 * when that end is within an eighth of the address (a longer run is cut where it must be). With the lines
 * balanced (HighlightedAddress), a box too narrow for the whole address shows two even halves, a narrower one
 * three or four even pieces; never a line with a character or two left over.
 */
export function breakPoints(address: string, ranges: readonly Range[]): number[] {
  const n = address.length;
  const points = new Set<number>();
  for (const k of [1, 2, 3]) {
    const target = Math.round((n * k) / 4);
    const spanning = ranges.find(([start, end]) => start < target && target < end);
    let at = target;
    if (spanning) {
      const [start, end] = spanning;
      const nearer = target - start <= end - target ? start : end;
      if (Math.abs(nearer - target) <= n / 8) at = nearer;
    }
    if (at > 0 && at < n) points.add(at);
  }
  return [...points].sort((a, b) => a - b);
}

/** `parts` cut at the characters `at` (ascending) into consecutive pieces, losing nothing. */
export function splitParts(parts: readonly AddressPart[], at: readonly number[]): AddressPart[][] {
  const pieces: AddressPart[][] = [[]];
  let pos = 0;
  let next = 0;
  for (const p of parts) {
    let text = p.text;
    while (next < at.length && at[next] < pos + text.length) {
      const cut = at[next] - pos;
      if (cut > 0) pieces[pieces.length - 1].push({ ...p, text: text.slice(0, cut) });
      pieces.push([]);
      text = text.slice(Math.max(cut, 0));
      pos += Math.max(cut, 0);
      next++;
    }
    if (text) pieces[pieces.length - 1].push({ ...p, text });
    pos += text.length;
  }
  while (pieces.length < at.length + 1) pieces.push([]);
  return pieces;
}

/** A run of plain characters longer than this is elided in the compact form; a shorter one is kept as it is. */
const ELIDE_OVER = 3;

/**
 * The compact form: the first `head` and last `tail` characters and every highlighted run, the plain runs between
 * them longer than ELIDE_OVER replaced by one "…" (`elided`). "0x000D14…c3547b2" style, with "000" highlighted.
 */
export function compactParts(address: string, ranges: readonly Range[], head = 6, tail = 4): AddressPart[] {
  const keep = new Array<boolean>(address.length).fill(false);
  const mark = (start: number, end: number) => {
    for (let i = Math.max(0, start); i < Math.min(address.length, end); i++) keep[i] = true;
  };
  mark(0, head);
  mark(address.length - tail, address.length);
  for (const [start, end] of ranges) mark(start, end);
  const out: AddressPart[] = [];
  let pos = 0;
  for (const part of addressParts(address, ranges)) {
    const from = pos;
    pos += part.text.length;
    if (part.hit) {
      out.push(part);
      continue;
    }
    // A plain run: its kept characters stay, and each gap of dropped ones longer than ELIDE_OVER becomes "…".
    let text = "";
    let gap = "";
    const flushGap = () => {
      if (gap.length > ELIDE_OVER) {
        if (text) out.push({ text, hit: false });
        out.push({ text: "…", hit: false, elided: true });
        text = "";
      } else text += gap;
      gap = "";
    };
    for (let i = 0; i < part.text.length; i++) {
      if (keep[from + i]) {
        flushGap();
        text += part.text[i];
      } else gap += part.text[i];
    }
    flushGap();
    if (text) out.push({ text, hit: false });
  }
  return out;
}
