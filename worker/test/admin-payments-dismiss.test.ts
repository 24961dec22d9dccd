// Admin > Payments: an admin dismisses a payment listed for refund with a note, when no refund will be sent (issue 34:
// rows no one could clear). Audited, once; the difference that listed it is resolved with the same note.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { AttentionResponse } from "../../schema/purchases";
import { actors, call, ethWallet, type Wallet } from "./purchase-fixtures";

let admin: Wallet;
beforeAll(async () => {
  ({ seller: admin } = await actors());
});

/** A payment owed back, and the difference that listed it; their ids. */
async function owed(): Promise<{ escrowId: string; differenceId: string }> {
  const escrowId = crypto.randomUUID();
  const differenceId = crypto.randomUUID();
  const hash = `0x${crypto.randomUUID().replace(/-/g, "")}${crypto.randomUUID().replace(/-/g, "")}`;
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO escrow_transactions (id, network, amount, currency, sender_address, status, tx_hash, amount_base_units, attention_reason, refund_status,
                                        refund_base_units, created_at)
       VALUES (?, 'ethereum', '0.00002', 'ETH', '0xabc', 'refund', ?, '20000000000000', 'unmatched', 'needed', '20000000000000', ?)`,
    ).bind(escrowId, hash, Date.now()),
    env.DB.prepare(
      `INSERT INTO payment_attention (id, network, kind, ref, tx_hash, amount_base_units, escrow_id, detail, status, created_at)
       VALUES (?, 'ethereum', 'uncredited', ?, ?, '20000000000000', ?, 'from a stranger', 'open', ?)`,
    ).bind(differenceId, hash, hash, escrowId, Date.now()),
  ]);
  return { escrowId, differenceId };
}

const row = (table: string, id: string) => env.DB.prepare(`SELECT * FROM ${table} WHERE id = ?`).bind(id).first<Record<string, unknown>>();

describe("POST /api/admin/payments/:id/dismiss", () => {
  it("only an admin, with a note; bad input changes nothing", async () => {
    const { escrowId } = await owed();
    const path = `/api/admin/payments/${escrowId}/dismiss`;
    expect((await call("POST", path, undefined, { note: "our own test" })).status).toBe(401);
    expect((await call("POST", path, await ethWallet(), { note: "our own test" })).status).toBe(403);
    for (const body of [{}, { note: "" }, { note: "  " }, { note: 5 }, { note: "x".repeat(1001) }, "not json"]) {
      const res = await call("POST", path, admin, body);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
    }
    expect((await call("POST", "/api/admin/payments/not-an-id/dismiss", admin, { note: "our own test" })).status).toBe(400);
    expect((await call("POST", `/api/admin/payments/${crypto.randomUUID()}/dismiss`, admin, { note: "our own test" })).status).toBe(404);
    expect(await row("escrow_transactions", escrowId)).toMatchObject({ refund_status: "needed", resolution_note: null });
  });

  it("dismisses once, audited, resolving its difference; the row leaves the list", async () => {
    const { escrowId, differenceId } = await owed();
    const note = "Sent by our own hot wallet while testing; nothing to send back";
    const res = await call("POST", `/api/admin/payments/${escrowId}/dismiss`, admin, { note });
    expect(res.status).toBe(200);
    expect(await row("escrow_transactions", escrowId)).toMatchObject({
      refund_status: "dismissed",
      resolution_note: note,
      resolved_by: admin.address.toLowerCase(),
    });
    expect(await row("payment_attention", differenceId)).toMatchObject({ status: "resolved", resolution_note: `Refund dismissed: ${note}` });
    const audit = await env.DB.prepare("SELECT performed_by, metadata FROM transaction_audit WHERE action = 'refund_dismissed' AND metadata LIKE ?")
      .bind(`%${escrowId}%`)
      .first<{ performed_by: string; metadata: string }>();
    expect(audit!.performed_by).toBe(admin.address.toLowerCase());
    expect(JSON.parse(audit!.metadata)).toMatchObject({ escrowId, note, amountBaseUnits: "20000000000000" });

    expect((await call("POST", `/api/admin/payments/${escrowId}/dismiss`, admin, { note: "again" })).status).toBe(409);
    expect((await call("POST", `/api/admin/payments/${escrowId}/refund`, admin, { refundTxHash: `0x${"ab".repeat(32)}` })).status).not.toBe(200);
    const listed = await (await call("GET", "/api/admin/payments/attention", admin)).json<AttentionResponse>();
    expect(listed.payments.some((p) => p.id === escrowId)).toBe(false);
  });
});
