// Admin > Health's answers about the platform itself (docs/operations.md#health): the last cron run with each task's
// outcome, the database's migrations against those this Worker was built with, and the grinders that fill custom
// orders. Shared by the Worker (worker/operations/health.ts) and the panel (web/src/routes/-admin/HealthTab.tsx).

/**
 * ok: it ran without an error; failed: it threw or ran out of time (`detail`: its error); skipped: what it needs did
 * not hold (`detail`: why, e.g. unsafe payment settings); not-run: the run was stopped by the platform before it.
 */
export const CRON_TASK_OUTCOMES = ["ok", "failed", "skipped", "not-run"] as const;
export type CronTaskOutcome = { task: string; outcome: (typeof CRON_TASK_OUTCOMES)[number]; detail: string | null };

/** Each cron task in words, by its name in the record (worker/jobs/scheduled.ts CRON_TASKS); the worker test holds every task to one. */
export const CRON_TASK_WORDS: Record<string, string> = {
  "cron-record": "Recording the run",
  "chain-ethereum": "Checking the Ethereum nodes",
  "chain-solana": "Checking the Solana nodes",
  alerts: "Sending alerts",
  "sign-in-expiry": "Clearing expired sign-ins",
  "forget-idle-users": "Forgetting idle wallets",
  verify: "Verifying reported payments",
  "scan-ethereum": "Finding unreported Ethereum payments",
  "scan-solana": "Finding unreported Solana payments",
  expire: "Ending unpaid reservations",
  overdue: "Closing purchases past their last deadline",
  "reconcile-ethereum": "Reconciling the Ethereum payments",
  "reconcile-solana": "Reconciling the Solana payments",
  prices: "Fetching coin prices",
  "market-trends": "Updating market trends",
  "key-rewrap": "Re-sealing keys under the current secret",
  "custom-orders": "Expiring unfilled custom orders",
  "rarity-rescore": "Moving listings to the current rarity scale",
  "value-calibration": "Calibrating estimated values",
  offers: "Ending and expiring offers",
  collectors: "Notifying collectors",
  "supply-claims": "Expiring stale supply claims",
};

/** A task in words; one this table lacks (a task of another version) by its name with spaces. */
export function cronTaskWords(task: string): string {
  const words = CRON_TASK_WORDS[task] ?? task.replace(/[-_]+/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export type LastCronRun = {
  startedAt: string;
  finishedAt: string;
  /** finishedAt - startedAt, in milliseconds; null for a run the platform stopped (when it ended is not known). */
  durationMs: number | null;
  /** The names of the tasks that failed (the record's own list; "payments" when the payment tasks were skipped). */
  failedTasks: string[];
  /** Every task of this Worker's cron table, in the order they run, with its outcome in that run. */
  tasks: CronTaskOutcome[];
};

export type MigrationsHealth = {
  /** Rows in D1's d1_migrations table: the migrations applied to this database. */
  applied: number;
  /** The newest applied migration's file name; null when none is. */
  newest: string | null;
  /** How many migration files this Worker was built with (migrations/, through drizzle-kit's journal). */
  built: number;
  /** Files this Worker was built with that the database has not applied, in order: the Worker may read a missing table. */
  missing: string[];
  /** Applied migrations this Worker does not know of: a newer version migrated the database (harmless while it serves). */
  newer: string[];
};

/**
 * working: seen within the claim lease and holding an order; idle: seen within the lease, holding none; silent: not
 * seen within the lease yet still holding an order (stopped or cut off: the order waits until the claim lapses);
 * gone: not seen within the lease and holding nothing.
 */
export const GRINDER_STATES = ["working", "idle", "silent", "gone"] as const;
export type GrinderState = (typeof GRINDER_STATES)[number];

export type GrinderHold = {
  orderId: number;
  prefix: string;
  suffix: string;
  /** When the claim lapses unless a progress report renews it; after that any grinder may take the order. */
  claimExpiresAt: string | null;
  /** Attempts reported by this claim so far. */
  attempts: number | null;
};

export type GrinderHealth = {
  /** The grinder's own random id (the grinder prints it with its name on start). */
  id: string;
  /** The id in words ("Amber Falcon"): the same name the grinder prints, so an operator can tell which process it is. */
  name: string;
  /** What it grinds on, as the grinder says ("GPU NVIDIA H200", "CPU, 8 threads"). */
  label: string;
  /** The admin wallet it signed in with. */
  adminWallet: string | null;
  state: GrinderState;
  startedAt: string;
  lastSeenAt: string;
  /** Candidates per second in its last progress report; null before its first. */
  rate: number | null;
  /** The orders it holds a claim on (grinding). */
  holds: GrinderHold[];
};

const ADJECTIVES = [
  "Amber",
  "Azure",
  "Brave",
  "Bright",
  "Calm",
  "Clever",
  "Coral",
  "Crimson",
  "Dusty",
  "Eager",
  "Fierce",
  "Gentle",
  "Golden",
  "Hidden",
  "Icy",
  "Jade",
  "Keen",
  "Lively",
  "Lucky",
  "Mellow",
  "Misty",
  "Nimble",
  "Olive",
  "Proud",
  "Quiet",
  "Rapid",
  "Rusty",
  "Silver",
  "Steady",
  "Swift",
  "Velvet",
  "Wild",
];
const ANIMALS = [
  "Badger",
  "Bison",
  "Condor",
  "Crane",
  "Dolphin",
  "Falcon",
  "Ferret",
  "Finch",
  "Fox",
  "Gecko",
  "Heron",
  "Ibis",
  "Jaguar",
  "Koala",
  "Lemur",
  "Lynx",
  "Marten",
  "Moose",
  "Newt",
  "Otter",
  "Owl",
  "Panda",
  "Puffin",
  "Raven",
  "Salmon",
  "Seal",
  "Stork",
  "Tapir",
  "Tiger",
  "Walrus",
  "Wombat",
  "Yak",
];

/**
 * A grinder id in words: two words picked by a hash of the id (FNV-1a), the same on the server and in the grinder's
 * own output. 1,024 names: two grinders may share one, so the panel shows the start of the id beside it.
 */
export function grinderName(id: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return `${ADJECTIVES[h % ADJECTIVES.length]} ${ANIMALS[(h >>> 5) % ANIMALS.length]}`;
}
