// Nothing covers anything on a phone. For the visible interactive elements and headings of a page:
// no two bounding boxes overlap (one inside the other, as a heading inside its link, is not an overlap), and none
// reaches past the viewport's sides, unless it sits in a container that scrolls sideways on purpose (a wide
// table, a strip of cards), and none in the header is cut off by its container. Also: the page itself is no
// wider than the screen, no visible text renders under 11 px (an SVG's text shrinks with its drawing), and an
// address (HighlightedAddress, `data-address`) breaks only at its break points (`data-breaks`), or not at all
// when it has none. Answers the findings as readable lines; an empty list is a pass.
import type { Page } from "./browser";

export async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const SELECTOR = 'a[href], button, input:not([type="hidden"]), select, textarea, [role="button"], [role="link"], h1, h2, h3';
    const width = document.documentElement.clientWidth;
    const scrollsSideways = (el: Element) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const o = getComputedStyle(p).overflowX;
        if (o === "auto" || o === "scroll" || o === "hidden") return p;
      }
      return null;
    };
    const shown = (el: Element) => {
      if (el.closest('[aria-hidden="true"], [inert], .sr-only')) return false;
      const style = getComputedStyle(el);
      if (style.visibility === "hidden" || style.display === "none" || Number(style.opacity) === 0) return false;
      const r = el.getBoundingClientRect();
      return r.width > 1 && r.height > 1;
    };
    const name = (el: Element) => {
      const text = (el.getAttribute("aria-label") ?? el.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, 40);
      const id = el.getAttribute("data-testid");
      return `<${el.tagName.toLowerCase()}${id ? ` data-testid=${id}` : ""}> "${text}"`;
    };
    const els = [...document.querySelectorAll(SELECTOR)].filter(shown);
    const problems: string[] = [];
    // An inline element that wraps (a link across two lines of a paragraph) is judged by its line boxes, not by
    // the rectangle around them, which would cover the text between.
    const boxes = els.flatMap((el) => {
      const clip = scrollsSideways(el);
      const inline = getComputedStyle(el).display === "inline";
      const rects = inline ? [...el.getClientRects()] : [el.getBoundingClientRect()];
      return rects.map((raw) => {
        let r = raw;
        // Inside a scrolling container only the part inside it is on screen.
        if (clip) {
          const c = clip.getBoundingClientRect();
          const left = Math.max(r.left, c.left);
          const right = Math.min(r.right, c.right);
          const top = Math.max(r.top, c.top);
          const bottom = Math.min(r.bottom, c.bottom);
          r = new DOMRect(left, top, Math.max(0, right - left), Math.max(0, bottom - top));
        }
        // The header never scrolls on purpose: a control there cut off by its container is hidden from the person.
        if (clip && el.closest("header") && r.width < raw.width - 1)
          problems.push(`${name(el)} is cut off in the header (${Math.round(r.width)} of ${Math.round(raw.width)} px shown)`);
        return { el, r, clip };
      });
    });
    const seen = new Set<Element>();
    for (const { el, r, clip } of boxes) {
      if (seen.has(el)) continue;
      if (!clip && (r.left < -0.5 || r.right > width + 0.5) && seen.add(el))
        problems.push(`${name(el)} overflows the viewport (${Math.round(r.left)}..${Math.round(r.right)} of ${width})`);
    }
    if (document.documentElement.scrollWidth > width + 0.5)
      problems.push(`the page is ${document.documentElement.scrollWidth} px wide on a ${width} px screen`);

    const MIN_TEXT_PX = 11;
    for (const el of document.querySelectorAll("body *")) {
      if (![...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim()) || !shown(el)) continue;
      const size = parseFloat(getComputedStyle(el).fontSize);
      const scale = el instanceof SVGGraphicsElement ? Math.abs(el.getScreenCTM()?.d ?? 1) : 1;
      if (size * scale < MIN_TEXT_PX - 0.05) problems.push(`${name(el)} text renders at ${(size * scale).toFixed(1)} px (under ${MIN_TEXT_PX})`);
    }

    for (const el of document.querySelectorAll("[data-address]")) {
      if (!shown(el)) continue;
      // Each character's line, by the top of its box.
      const tops: number[] = [];
      let text = "";
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        for (let i = 0; i < (n.textContent ?? "").length; i++) {
          const range = document.createRange();
          range.setStart(n, i);
          range.setEnd(n, i + 1);
          tops.push(range.getBoundingClientRect().top);
          text += n.textContent![i];
        }
      }
      const starts = tops.flatMap((top, i) => (i > 0 && top > tops[i - 1] + 2 ? [i] : []));
      if (starts.length === 0) continue;
      const lines = [0, ...starts].map((from, k) => text.slice(from, [...starts, text.length][k])).join(" / ");
      const allowed = (el.getAttribute("data-breaks") ?? "").split(",").filter(Boolean).map(Number);
      if (allowed.length === 0) problems.push(`address ${el.getAttribute("data-address")} breaks, and it should stay on one line: ${lines}`);
      else if (starts.some((i) => !allowed.includes(i)))
        problems.push(`address ${el.getAttribute("data-address")} breaks elsewhere than at characters ${allowed.join(", ")}: ${lines}`);
    }

    const EPS = 1;
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i];
        const b = boxes[j];
        if (a.el === b.el || a.el.contains(b.el) || b.el.contains(a.el)) continue;
        if (a.r.width < 1 || a.r.height < 1 || b.r.width < 1 || b.r.height < 1) continue;
        const x = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
        const y = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
        if (x > EPS && y > EPS) problems.push(`${name(a.el)} and ${name(b.el)} overlap (${Math.round(x)}×${Math.round(y)} px)`);
      }
    }
    return problems;
  });
}

/**
 * The lines each element matching `selector` shows, as text (by the top of each character's box): ["0x000D14…",
 * "c3547b2"] for an address broken in two. Elements not laid out (hidden, or not yet rendered) answer [].
 */
export async function textLines(page: Page, selector: string): Promise<string[][]> {
  return page.evaluate((sel) => {
    return [...document.querySelectorAll(sel)].map((el) => {
      const lines: { top: number; text: string }[] = [];
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        for (let i = 0; i < (n.textContent ?? "").length; i++) {
          const range = document.createRange();
          range.setStart(n, i);
          range.setEnd(n, i + 1);
          const r = range.getBoundingClientRect();
          if (r.width === 0 && r.height === 0) continue;
          const last = lines.at(-1);
          if (last && Math.abs(r.top - last.top) <= 2) last.text += n.textContent![i];
          else lines.push({ top: r.top, text: n.textContent![i] });
        }
      }
      return lines.map((l) => l.text);
    });
  }, selector);
}

type Box = { x: number; y: number; width: number; height: number };

/** The area two boxes share, less layoutProblems' 1 px of tolerance on each side; 0 when either is absent. */
export function overlapArea(a: Box | null, b: Box | null): number {
  if (!a || !b) return 0;
  const x = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const y = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return x > 1 && y > 1 ? x * y : 0;
}
