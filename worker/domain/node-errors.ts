// What a Solana node's JSON-RPC error about one signature means (docs/payments.md#deadlines): either the
// signature names no transaction the node can show ("missing": the purchase waits for it until the deadline,
// like any payment not found yet), or the node cannot say right now ("unavailable": the purchase waits until the
// last deadline). Pure, so each code's reading is unit- and mutation-tested.

/**
 * Codes that are about the signature asked for, never about the node's health: our other parameters are fixed
 * and valid, so the node is saying that no transaction has this signature, or none it can show.
 *  -32602 Invalid params: the text is not base58, or does not decode to 64 bytes ("Invalid param: WrongSize").
 *  -32015 the transaction's version is newer than maxSupportedTransactionVersion: nothing we could parse.
 */
export const SIGNATURE_ERROR_CODES: readonly number[] = [-32602, -32015];
const SIGNATURE_CODES: ReadonlySet<number | null> = new Set(SIGNATURE_ERROR_CODES);

/**
 * Every other error (-32004 block not available, -32005 node unhealthy, -32011 no history, -32016 context slot
 * not reached, -32603 internal, HTTP errors, timeouts, answers that are not JSON-RPC: `code` null) is the node's.
 */
export function solanaErrorMeaning(code: number | null): "missing" | "unavailable" {
  return SIGNATURE_CODES.has(code) ? "missing" : "unavailable";
}
