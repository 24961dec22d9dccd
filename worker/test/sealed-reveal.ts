// The reveal as the buyer's page makes it (docs/key-custody.md#sealed-delivery): a one-time X25519 key pair, its
// public half in the body, the sealed answer opened with the pair. Shared by the worker and chain tests.
import type { RevealResponse } from "../../schema/purchases";
import { extractableDeliveryKey, openSealedKey } from "../../schema/sealed-delivery";
import type { client } from "./client";

/** The body of a reveal whose answer is a refusal or only counted: RFC 7748's test public key (Alice's, section 6.1). */
export const REVEAL_BODY = { publicKey: "hSDwCYkwp1R0i33ctD73Wg2_Og0mOBr066SpjqqbTmo" };

/** A fresh page key pair and the reveal body that sends its public half. */
export async function pageKey(): Promise<{ pair: CryptoKeyPair; body: { publicKey: string } }> {
  const key = await extractableDeliveryKey();
  return { pair: key.pair, body: { publicKey: key.publicKey } };
}

/**
 * Reveals purchase `id` through `api` with a fresh page key pair and opens the answer: `privateKey` is the
 * opened key of a 200, null for a refusal (then `body` is the refusal).
 */
export async function revealSealed(api: ReturnType<typeof client>, id: string) {
  const page = await pageKey();
  const res = await api.transactions[":id"]["reveal-private-key"].$post({ param: { id }, json: page.body });
  const body = (await res.json()) as RevealResponse;
  const privateKey = body.success ? await openSealedKey(page.pair, id, body.sealed) : null;
  return { status: res.status, headers: res.headers, body, privateKey, pair: page.pair };
}
