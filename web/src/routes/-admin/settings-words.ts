// Admin > Settings in words: a fee configuration's state, who set a row (a wallet, or the defaults a migration
// seeded), and what a change set, instead of the table's own values ("in-force", "migration 0018", JSON).
import { formatCount } from "../../lib/number-format";

const STATES = { "in-force": "In force", scheduled: "Scheduled", superseded: "Replaced" } as const;

/** "In force", "Scheduled", "Replaced". */
export const feeStateWords = (state: keyof typeof STATES): string => STATES[state];

/** "Ethereum", "Solana". */
export const networkWords = (network: string): string => (network === "solana" ? "Solana" : network === "ethereum" ? "Ethereum" : network);

/** A wallet that set the row, or where a default came from: a seeded row names its migration, or nothing. */
export function setByWords(createdBy: string | null): string {
  if (createdBy === null || createdBy === "") return "The store's default";
  if (/^migration \d+$/.test(createdBy)) return "The store's default (set by an update)";
  return createdBy;
}

/** "12,000,000 keys a second". */
export const rateWords = (keysPerSecond: number): string => `${formatCount(keysPerSecond)} keys a second`;

/** camelCase or snake_case to words: "exchangeFeePercentage" -> "exchange fee percentage". */
const words = (key: string) =>
  key
    .replace(/_/g, " ")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase();

/** What a change set, as "exchange fee percentage 0.5, network Ethereum"; anything not an object says so plainly. */
export function changeWords(details: unknown): string {
  if (details === null || typeof details !== "object" || Array.isArray(details)) return details === null || details === undefined ? "—" : String(details);
  const parts = Object.entries(details as Record<string, unknown>)
    .filter(([, value]) => value !== null && value !== undefined && typeof value !== "object")
    .map(([key, value]) => `${words(key)} ${key === "network" ? networkWords(String(value)) : String(value)}`);
  return parts.length > 0 ? parts.join(", ") : "—";
}
