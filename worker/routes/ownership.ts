// POST /api/addresses/verify-ownership {address, privateKey, network} -> {verified, error}: does this key
// derive this address? It proves knowledge of a key only, so no sign-in is needed; it is rate limited per
// client because it is an oracle anyone can ask. The key is never logged, stored or echoed.
import { Hono } from "hono";
import * as v from "valibot";
import { guessNetwork } from "../../schema/address";
import { NETWORKS } from "../../schema/db";
import { OWNERSHIP_MESSAGES, OWNERSHIP_RATE_LIMIT, type OwnershipResponse } from "../../schema/listings";
import { MAX_PRIVATE_KEY_LENGTH, verifyOwnership } from "../domain/ownership";
import { ApiError } from "../http/errors";
import { rateLimit } from "../http/rate-limit";
import { validate } from "../http/validate";
import type { AppEnv } from "../types";

const MAX_ADDRESS_LENGTH = 256;

const body = v.object({
  address: v.optional(
    v.pipe(
      v.string("address must be a string"),
      v.maxLength(MAX_ADDRESS_LENGTH, `address must be at most ${MAX_ADDRESS_LENGTH} characters`),
      v.regex(/^[^\u0000-\u001f\u007f]*$/, "address must not contain control characters"),
      v.trim(),
    ),
  ),
  privateKey: v.optional(v.pipe(v.string("privateKey must be a string"), v.maxLength(MAX_PRIVATE_KEY_LENGTH, `privateKey must be at most ${MAX_PRIVATE_KEY_LENGTH} characters`))),
  network: v.optional(v.picklist(NETWORKS, "network must be ethereum or solana")),
});

export const ownershipRoutes = new Hono<AppEnv>().post(
  "/verify-ownership",
  rateLimit("verify-ownership", OWNERSHIP_RATE_LIMIT.limit, OWNERSHIP_RATE_LIMIT.windowMs),
  validate("json", body),
  (c) => {
    const { address, privateKey, network } = c.req.valid("json");
    if (!address || !privateKey || privateKey.trim() === "") throw new ApiError(400, OWNERSHIP_MESSAGES.missing);
    const result = verifyOwnership(network ?? guessNetwork(address), address, privateKey);
    return c.json({ verified: result.verified, error: result.error ?? null } satisfies OwnershipResponse);
  },
);
