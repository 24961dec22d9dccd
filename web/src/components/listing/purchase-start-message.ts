// What a buyer is told when a purchase could not start: the server's words, made concrete for the cases a
// buyer can act on (the listing is reserved until a time, the price changed, the session ended).
import { HttpError } from "../../api/http";
import { formatTime } from "../../lib/date-format";

export function purchaseStartMessage(err: unknown, currency: string, now = Date.now()): string {
  if (!(err instanceof HttpError)) return err instanceof Error && err.message ? err.message : "An error occurred while creating the transaction";
  // The reservation's refusals carry when the holder's reservation ends, or the current price (worker/purchases/reserve.ts).
  const b = err.body ?? {};
  if (err.status === 409 && typeof b.reservedUntil === "string" && b.reservedUntil) {
    const until = new Date(b.reservedUntil);
    if (Number.isFinite(until.getTime())) {
      const minutes = Math.max(1, Math.ceil((until.getTime() - now) / 60_000));
      return `Another buyer has reserved this address until ${formatTime(until)} (about ${minutes} minute${minutes === 1 ? "" : "s"}). If they do not pay, it is available again then.`;
    }
  }
  if (err.status === 409 && typeof b.currentPrice === "string" && b.currentPrice)
    return `The price has changed to ${b.currentPrice} ${currency}. Check the new price and buy again.`;
  if (err.status === 401) return "Your session has ended. Connect your wallet again to buy.";
  if (err.status === 429) return b.message ?? "Too many purchase attempts. Wait a minute and try again.";
  return b.message ?? b.error ?? err.message;
}
