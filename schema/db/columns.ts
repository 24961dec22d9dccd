// Column helpers and the network list every table shares.
import { sql } from "drizzle-orm";
import { integer } from "drizzle-orm/sqlite-core";

export const nowMs = sql`(cast(unixepoch('subsec') * 1000 as integer))`;
export const createdAt = () => integer("created_at", { mode: "number" }).notNull().default(nowMs);
export const bool = (name: string) => integer(name, { mode: "boolean" });

import { NETWORKS } from "../constants";

export { NETWORKS };
export type Network = (typeof NETWORKS)[number];
