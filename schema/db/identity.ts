// Identity: users, used sign-in nonces, sessions and the rate-limit counters.
import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { bool, createdAt, NETWORKS } from "./columns";

/** How a session's wallet proved itself at sign-in (worker/auth/siwe.ts). */
export const SIGN_IN_PROOFS = ["key", "contract"] as const;
export type SignInProof = (typeof SIGN_IN_PROOFS)[number];

export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    username: text("username").notNull(),
    walletAddress: text("wallet_address").notNull(),
    network: text("network", { enum: NETWORKS }).notNull(),
    email: text("email"),
    membershipTier: text("membership_tier").notNull().default("basic"),
    isVerified: bool("is_verified").notNull().default(false),
    isAdmin: bool("is_admin").notNull().default(false),
    reputationScore: integer("reputation_score").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("users_username_unique").on(t.username), uniqueIndex("users_wallet_unique").on(t.walletAddress)],
);

// Used sign-in nonces (docs/sign-in.md; worker/auth/nonce.ts): nonces are stateless (HMAC-signed, nothing stored when one
// is issued), so only those a verify attempt has used are kept, by their 128 random bits, until they expire: the
// primary key refuses a second use.
export const usedSignInNonces = sqliteTable(
  "used_sign_in_nonces",
  {
    nonce: text("nonce").primaryKey(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [
    index("used_sign_in_nonces_expiry").on(t.expiresAt),
    check("used_sign_in_nonces_random", sql`length(${t.nonce}) = 32 AND ${t.nonce} NOT GLOB '*[^0-9a-f]*'`),
  ],
);

// Sessions: only the hash of the opaque cookie value is stored, bound to (network, address).
export const sessions = sqliteTable(
  "sessions",
  {
    idHash: text("id_hash").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    network: text("network", { enum: NETWORKS }).notNull(),
    walletAddress: text("wallet_address").notNull(),
    expiresAt: integer("expires_at").notNull(),
    createdAt: createdAt(),
    // How the wallet proved itself at sign-in (docs/sign-in.md#contract-wallets): "key", a signature that recovered to
    // it in the Worker; "contract", the nodes' word for a contract wallet, which never makes an admin unless
    // ADMIN_CONTRACT_WALLETS names it. A row that does not say is the weaker one.
    proof: text("proof", { enum: SIGN_IN_PROOFS }).notNull().default("contract"),
  },
  (t) => [index("sessions_user").on(t.userId), index("sessions_expiry").on(t.expiresAt), check("sessions_proof", sql`${t.proof} IN ('key', 'contract')`)],
);

// Fixed-window request counters (worker/http/rate-limit.ts): one row per (key, window start), bumped by an
// atomic upsert; rows of windows that have ended are deleted as new ones are counted.
export const rateLimits = sqliteTable(
  "rate_limits",
  {
    key: text("key").notNull(),
    windowStart: integer("window_start").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] }), index("rate_limits_window").on(t.windowStart)],
);

export type User = typeof users.$inferSelect;
export type Session = typeof sessions.$inferSelect;
