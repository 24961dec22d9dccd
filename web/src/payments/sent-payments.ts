// The payment this browser sent for a purchase, remembered until the server has seen it: a reload (or a
// crash) between the wallet's send and the confirm call resumes by confirming the same hash, never by asking
// the wallet to pay a second time. The buy flow's "pay at once" flag lives here too.

const sentKey = (id: string) => `purchasePayment:${id}`;
const autoPayKey = (id: string) => `purchaseAutoPay:${id}`;

function store(kind: "local" | "session"): Storage | null {
  try {
    return kind === "local" ? window.localStorage : window.sessionStorage;
  } catch {
    return null;
  }
}

export function rememberSentPayment(id: string, hash: string) {
  store("local")?.setItem(sentKey(id), hash);
}

export function sentPayment(id: string): string | null {
  return store("local")?.getItem(sentKey(id)) ?? null;
}

export function forgetSentPayment(id: string) {
  store("local")?.removeItem(sentKey(id));
}

/** Set by the buy flow so the purchase page opens the wallet at once (the spec's automatic payment). */
export function requestAutoPay(id: string) {
  store("session")?.setItem(autoPayKey(id), "1");
}

/** True once per buy: reloading the page afterwards never opens the wallet by itself. */
export function takeAutoPay(id: string): boolean {
  const s = store("session");
  if (s?.getItem(autoPayKey(id)) !== "1") return false;
  s.removeItem(autoPayKey(id));
  return true;
}
