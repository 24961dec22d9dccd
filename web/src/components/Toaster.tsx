import * as Toast from "@radix-ui/react-toast";
import { useEffect, useRef, useState } from "react";
import { edgeAfterFocus, FIELD_SELECTOR, type ToastEdge } from "./toast-placement";
import { dismissToast, TOAST_DURATION_MS, useToasts } from "./toast-store";

const VARIANT_CLASSES = {
  default: "border-slate-700 bg-slate-900",
  success: "border-emerald-600 bg-emerald-950",
  destructive: "border-red-600 bg-red-950",
};

/**
 * Radix toast with the spec's constants: 5000 ms, swipe right past 50 px, F8 focuses the region. At the top,
 * under the header; to the other edge while the field the person is in lies under them (toast-placement.ts).
 * From sm up they float at the top right, beside the page's column. Below sm there is no room beside it: over
 * the page they covered "Back to Marketplace" and the title, so there they take their own place in the page's
 * flow right under the header (the page moves down while they show) and stay pinned under it as the page
 * scrolls; the root layout mounts the region between the header and the page for this.
 */
export function Toaster() {
  const toasts = useToasts();
  const [edge, setEdge] = useState<ToastEdge>("top");
  const viewport = useRef<HTMLOListElement>(null);
  const open = toasts.some((t) => t.open);
  const top = edge === "top";
  useEffect(() => {
    if (!open) setEdge("top");
  }, [open]);
  useEffect(() => {
    const onFocus = (e: FocusEvent) => {
      if (!(e.target instanceof Element) || !e.target.matches(FIELD_SELECTOR)) return;
      const shown = viewport.current?.querySelector('[data-testid="toast"]') ? viewport.current.getBoundingClientRect() : null;
      const field = e.target.getBoundingClientRect();
      setEdge((now) => edgeAfterFocus(now, field, shown));
    };
    document.addEventListener("focusin", onFocus);
    return () => document.removeEventListener("focusin", onFocus);
  }, []);
  return (
    <Toast.Provider duration={TOAST_DURATION_MS} swipeDirection="right" swipeThreshold={50}>
      {toasts.map((t) => (
        <Toast.Root
          key={t.id}
          open={t.open}
          onOpenChange={(open) => !open && dismissToast(t.id)}
          type={t.variant === "destructive" ? "foreground" : "background"}
          className={`grid grid-cols-[1fr_auto] gap-x-3 rounded-lg border p-4 shadow-lg data-[swipe=end]:translate-x-full data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] ${VARIANT_CLASSES[t.variant ?? "default"]}`}
          data-testid="toast"
        >
          <Toast.Title className="font-semibold">{t.title}</Toast.Title>
          {t.description && <Toast.Description className="col-start-1 text-sm text-slate-300">{t.description}</Toast.Description>}
          <Toast.Close aria-label="Close" className="col-start-2 row-span-2 row-start-1 self-start rounded px-2 text-slate-400 hover:text-white">
            ×
          </Toast.Close>
        </Toast.Root>
      ))}
      <div className={top ? "max-sm:sticky max-sm:top-14 max-sm:z-30" : undefined}>
        <Toast.Viewport
          ref={viewport}
          hotkey={["F8"]}
          className={`flex w-full flex-col gap-2 outline-none ${
            top
              ? `sm:fixed sm:top-14 sm:right-0 sm:z-50 sm:max-w-sm sm:p-4 ${open ? "max-sm:px-3 max-sm:pt-2" : ""}`
              : "fixed right-0 bottom-0 z-50 max-w-sm p-4"
          }`}
          data-edge={edge}
        />
      </div>
    </Toast.Provider>
  );
}
