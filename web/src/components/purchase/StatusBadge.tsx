import type { PurchaseStatus } from "../../../../schema/purchase-lifecycle";
import { type BadgeColour, purchaseStatusDisplay } from "../../lib/purchase-status";

const COLOURS: Record<BadgeColour, string> = {
  green: "bg-emerald-500/15 text-emerald-300 ring-emerald-500/40",
  yellow: "bg-amber-500/15 text-amber-300 ring-amber-500/40",
  blue: "bg-sky-500/15 text-sky-300 ring-sky-500/40",
  red: "bg-red-500/15 text-red-300 ring-red-500/40",
  grey: "bg-slate-500/20 text-slate-300 ring-slate-500/40",
};

/**
 * The purchase's status as a coloured badge, the same on the purchase page and in My Purchases (the colour is
 * never the only signal: the label says it). The sentence behind it is the badge's title.
 */
export function StatusBadge({ status, failureReason, size = "md" }: { status: PurchaseStatus; failureReason: string | null; size?: "sm" | "md" }) {
  const { label, colour, detail } = purchaseStatusDisplay(status, failureReason);
  return (
    <span
      className={`inline-flex items-center rounded-full font-semibold ring-1 ${size === "sm" ? "px-2 py-0.5" : "px-3 py-1"} text-xs ${COLOURS[colour]}`}
      data-testid="purchase-status"
      data-status={status}
      title={detail}
    >
      {label}
    </span>
  );
}
