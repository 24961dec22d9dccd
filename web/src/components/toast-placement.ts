// Where toasts show: at the top of the screen, under the header, where a page has its title and status rather
// than the fields a person fills in (the "Private Key Released!" toast, at the bottom, covered the keystore
// password fields on a phone). Should a field the person moves into lie under the toasts all the same, they move
// to the other edge, so no toast covers what is being typed. On a phone (below sm) "the top" is a place of their
// own in the page's flow under the header, so they push the back link and the title down instead of covering
// them (Toaster.tsx).

export type ToastEdge = "top" | "bottom";
type Box = Pick<DOMRect, "left" | "right" | "top" | "bottom">;

export const overlaps = (a: Box, b: Box) => a.left < b.right && a.right > b.left && a.top < b.bottom && a.bottom > b.top;

/** The edge after the focus moved into a field at `field`, with the toasts now at `edge` in `toasts`. */
export function edgeAfterFocus(edge: ToastEdge, field: Box, toasts: Box | null): ToastEdge {
  if (!toasts || !overlaps(field, toasts)) return edge;
  return edge === "top" ? "bottom" : "top";
}

/** The controls a person types or chooses in. */
export const FIELD_SELECTOR = "input, textarea, select, [contenteditable]";
