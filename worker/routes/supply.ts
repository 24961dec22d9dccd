// Supply that runs itself, mounted on /api/supply (the calls are listed in schema/supply.ts; docs/supply.md).
// Admins set targets; grinders (`npm run grind -- --supply`, admin sessions as for custom orders) claim work on
// them, report progress and list their sealed hits at the target's price. Every call is an admin's.
import { Hono } from "hono";
import * as v from "valibot";
import {
  createTargetBody,
  editTargetBody,
  MAX_SUPPLY_TARGETS,
  SUPPLY_CLAIM_LEASE_MS,
  SUPPLY_SEALED_MAX_ROWS,
  type SupplyClaimAnswer,
  supplyClaimBody,
  supplyHolderBody,
  type SupplyProgressAnswer,
  supplyProgressBody,
  type SupplySealedAnswer,
  type SupplyTargetList,
  type SupplyTargetView,
} from "../../schema/supply";
import { requireAdmin } from "../auth/middleware";
import { requireSecrets } from "../deployment/middleware";
import type { Db } from "../db/database";
import { ApiError } from "../http/errors";
import { validId } from "../http/params";
import { validate } from "../http/validate";
import { claimWork, listSealed, releaseClaim, reportProgress } from "../supply/claims";
import { createTarget, deleteTarget, editTarget, listTargets, moveTarget } from "../supply/targets";
import type { AppEnv } from "../types";
import { sealedRow } from "./admin";

const noStore = { "Cache-Control": "no-store" };
const leaseSeconds = SUPPLY_CLAIM_LEASE_MS / 1000;

const supplySealedBody = v.strictObject({
  grinder: supplyHolderBody.entries.grinder,
  rows: v.pipe(
    v.array(sealedRow, "rows must be an array of sealed rows {keyId, enc, ciphertext}"),
    v.minLength(1, "rows must hold at least one row"),
    v.maxLength(SUPPLY_SEALED_MAX_ROWS, `rows may hold at most ${SUPPLY_SEALED_MAX_ROWS} sealed rows per request`),
  ),
});

/** The target as the list shows it (a target deleted meanwhile is a 404). */
async function oneTarget(db: Db, id: number): Promise<SupplyTargetView> {
  const found = (await listTargets(db, Date.now())).find((t) => t.id === id);
  if (!found) throw new ApiError(404, `supply target ${id} does not exist`);
  return found;
}

export const supplyRoutes = new Hono<AppEnv>()
  // Listing sealed hits opens them with the intake key (KEY_ENCRYPTION_SECRET) and seals them into the vault.
  .use("/claims/:id/sealed", requireSecrets)
  .use("*", requireAdmin)
  .get("/targets", async (c) => {
    const targets = await listTargets(c.var.db, Date.now());
    return c.json({ targets, maxTargets: MAX_SUPPLY_TARGETS } satisfies SupplyTargetList, 200, noStore);
  })
  .post("/targets", validate("json", createTargetBody, { perField: true }), async (c) => {
    const id = await createTarget(c.var.db, c.var.session.userId, c.req.valid("json"), Date.now());
    return c.json((await oneTarget(c.var.db, id)) satisfies SupplyTargetView, 201, noStore);
  })
  .patch("/targets/:id", validId("supply target"), validate("json", editTargetBody, { perField: true }), async (c) => {
    const id = c.req.valid("param").id;
    await editTarget(c.var.db, id, c.req.valid("json"), Date.now());
    return c.json((await oneTarget(c.var.db, id)) satisfies SupplyTargetView, 200, noStore);
  })
  .post("/targets/:id/pause", validId("supply target"), async (c) => {
    const id = c.req.valid("param").id;
    await moveTarget(c.var.db, id, "pause", Date.now());
    return c.json((await oneTarget(c.var.db, id)) satisfies SupplyTargetView, 200, noStore);
  })
  .post("/targets/:id/resume", validId("supply target"), async (c) => {
    const id = c.req.valid("param").id;
    await moveTarget(c.var.db, id, "resume", Date.now());
    return c.json((await oneTarget(c.var.db, id)) satisfies SupplyTargetView, 200, noStore);
  })
  .delete("/targets/:id", validId("supply target"), async (c) => {
    await deleteTarget(c.var.db, c.req.valid("param").id);
    return c.json({ success: true }, 200, noStore);
  })
  .post("/claims", validate("json", supplyClaimBody), async (c) => {
    const { grinder, label } = c.req.valid("json");
    const claim = await claimWork(c.var.db, { grinder, adminId: c.var.session.userId }, label, Date.now());
    return c.json({ claim, leaseSeconds } satisfies SupplyClaimAnswer, 200, noStore);
  })
  .post("/claims/:id/progress", validId("supply claim"), validate("json", supplyProgressBody), async (c) => {
    const { grinder, attempts, rate } = c.req.valid("json");
    const go = await reportProgress(c.var.db, c.req.valid("param").id, { grinder, adminId: c.var.session.userId }, attempts, rate, Date.now());
    return c.json({ continue: go, leaseSeconds } satisfies SupplyProgressAnswer, 200, noStore);
  })
  .post("/claims/:id/sealed", validId("supply claim"), validate("json", supplySealedBody), async (c) => {
    const { grinder, rows } = c.req.valid("json");
    const answer = await listSealed(c.var.db, c.env, c.req.valid("param").id, { grinder, adminId: c.var.session.userId }, rows, Date.now());
    return c.json(answer satisfies SupplySealedAnswer, 200, noStore);
  })
  .post("/claims/:id/release", validId("supply claim"), validate("json", supplyHolderBody), async (c) => {
    await releaseClaim(c.var.db, c.req.valid("param").id, { grinder: c.req.valid("json").grinder, adminId: c.var.session.userId }, Date.now());
    return c.json({ success: true }, 200, noStore);
  });
