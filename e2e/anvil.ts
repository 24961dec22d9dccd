// One JSON-RPC call to the e2e stack's anvil (mining control, balances, receipts); a node error is thrown.
import { inject } from "vitest";

export async function anvil<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(inject("rpcUrl"), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}
