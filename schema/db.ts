// The database schema (D1 / SQLite through drizzle-orm). Every table of the spec's data schema
// plus what the design needs: sign-in nonces and sessions, integer
// price units beside each decimal price, and the indexes that keep the invariants in the database.
//
// Conventions:
// - Money: `price` is the decimal string the spec shows (at most 8 decimals); `priceUnits` is the same
//   amount as an integer count of 1e-8 units, used for sorting and arithmetic (docs/api.md#conventions).
// - Time: integer milliseconds since the epoch.
// - Ethereum wallet addresses are stored lower-case (identity is case-insensitive); listing addresses
//   keep the checksummed form buyers expect to see.
//
// The tables live in schema/db/ by domain; this file is the one import for both sides and for drizzle-kit.
export * from "./db/columns";
export * from "./db/identity";
export * from "./db/listings";
export * from "./db/purchases";
export * from "./db/analytics";
export * from "./db/custom-orders";
export * from "./db/settings";
export * from "./db/operations";
export * from "./db/collectors";
export * from "./db/offers";
export * from "./db/supply";
