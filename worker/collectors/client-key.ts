// The client network a watchlist entry or saved search was made from, as the per-network bound counts it
// (docs/collectors.md#bounds). Kept as HMAC-SHA256(SESSION_SECRET, network), not the address itself: the rows live
// as long as the wallet keeps them, and a copy of the database should not say where each wallet signed in from.
// A new SESSION_SECRET starts every network's count afresh.
import { bytesToHex } from "@noble/hashes/utils.js";
import { ApiError } from "../http/errors";
import { clientNetwork } from "../http/rate-limit";

export async function clientKey(secret: string | undefined, ip: string): Promise<string> {
  // requireSession has refused the call already without it; said again for the type.
  if (!secret) throw new ApiError(503, "Sign-in services are disabled: the server is missing SESSION_SECRET");
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`collectors-client:${clientNetwork(ip)}`)));
  // 128 bits: enough that two networks never share a count.
  return bytesToHex(mac.slice(0, 16));
}
