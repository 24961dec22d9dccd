import * as Toast from "@radix-ui/react-toast";
import { dismissToast, TOAST_DURATION_MS, useToasts } from "./toast-store";

const VARIANT_CLASSES = {
  default: "border-slate-700 bg-slate-900",
  success: "border-emerald-600 bg-emerald-950",
  destructive: "border-red-600 bg-red-950",
};

/** Radix toast with the spec's constants: 5000 ms, swipe right past 50 px, F8 focuses the region. */
export function Toaster() {
  const toasts = useToasts();
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
      <Toast.Viewport hotkey={["F8"]} className="fixed right-0 bottom-0 z-50 flex w-full max-w-sm flex-col gap-2 p-4 outline-none" />
    </Toast.Provider>
  );
}
