// Admin > Payments: an admin dismisses a payment listed for refund with a note, when no refund will be sent (else
// they are rows no one could clear). Audited, once; the difference that listed it is resolved with the same note.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { actors, call, ethWallet, type Wallet } from "./purchase-fixtures";
import { client, unchecked } from "./client";

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
    const dismiss = (who: Wallet | undefined, body: unknown) =>
      typeof body === "string"
        ? call("POST", client().admin.payments[":id"].dismiss.$path({ param: { id: escrowId } }), who, body) // not JSON: raw
        : client(who).admin.payments[":id"].dismiss.$post({ param: { id: escrowId }, json: unchecked(body) });
    expect((await dismiss(undefined, { note: "our own test" })).status).toBe(401);
    expect((await dismiss(await ethWallet(), { note: "our own test" })).status).toBe(403);
    for (const body of [
      {},
      { note: "" },
      { note: "  " },
      { note: "\u200b\u200b\u200b" },
      { note: "..." },
      { note: 5 },
      { note: "x".repeat(1001) },
      "not json",
    ]) {
      const res = await dismiss(admin, body);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
    }
    expect((await client(admin).admin.payments[":id"].dismiss.$post({ param: { id: "not-an-id" }, json: { note: "our own test" } })).status).toBe(400);
    expect((await client(admin).admin.payments[":id"].dismiss.$post({ param: { id: crypto.randomUUID() }, json: { note: "our own test" } })).status).toBe(404);
    expect(await row("escrow_transactions", escrowId)).toMatchObject({ refund_status: "needed", resolution_note: null });
  });

  it("dismisses once, audited, resolving its difference; the row leaves the list", async () => {
    const { escrowId, differenceId } = await owed();
    const note = "Sent by our own hot wallet while testing; nothing to send back";
    const res = await client(admin).admin.payments[":id"].dismiss.$post({ param: { id: escrowId }, json: { note } });
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

    expect((await client(admin).admin.payments[":id"].dismiss.$post({ param: { id: escrowId }, json: { note: "again" } })).status).toBe(409);
    expect(
      (await client(admin).admin.payments[":id"].refund.$post({ param: { id: escrowId }, json: { refundTxHash: `0x${"ab".repeat(32)}` } })).status,
    ).not.toBe(200);
    const listed = await (await client(admin).admin.payments.attention.$get()).json();
    expect(listed.payments.some((p) => p.id === escrowId)).toBe(false);
  });
});
