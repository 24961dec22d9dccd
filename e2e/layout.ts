// Issue 22 §5: nothing covers anything on a phone. For the visible interactive elements and headings of a page:
// no two bounding boxes overlap (one inside the other, as a heading inside its link, is not an overlap), and none
// reaches past the viewport's sides, unless it sits in a container that scrolls sideways on purpose (a wide
// table, a strip of cards), and none in the header is cut off by its container. Answers the findings as readable
// lines; an empty list is a pass.
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
