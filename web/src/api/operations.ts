// Admin > Analytics, Settings and Health: the reads and the two settings changes, through the typed client on the
// Worker's routes (worker/routes/admin-analytics.ts, admin-settings.ts, health.ts: its `operations` part is answered
// to an admin session only).
import { mutationOptions, type QueryClient, queryOptions } from "@tanstack/react-query";
import type { InferRequestType } from "hono/client";
import type { AnalyticsPeriod } from "../../../schema/analytics";
import { type AnswerOf, api, read } from "./http";

const KEY = "/api/admin";

export const analyticsQuery = (days: AnalyticsPeriod) =>
  queryOptions({ queryKey: [KEY, "analytics", days], queryFn: () => read(api.admin.analytics.$get({ query: { days } })), placeholderData: (prev) => prev });

export const settingsQuery = () => queryOptions({ queryKey: [KEY, "settings"], queryFn: () => read(api.admin.settings.$get()) });
export type Settings = AnswerOf<typeof api.admin.settings.$get>;
export type Analytics = AnswerOf<typeof api.admin.analytics.$get>;

/** /api/health as an admin reads it, again each minute (the cron probes the chains once a minute). */
export const healthQuery = () => queryOptions({ queryKey: ["/api/health", "operations"], queryFn: () => read(api.health.$get()), refetchInterval: 60_000 });
export type Health = AnswerOf<typeof api.health.$get>;

export type FeeConfigInput = InferRequestType<typeof api.admin.settings.fees.$post>["json"];
export type QuoteSettingsInput = InferRequestType<typeof api.admin.settings.quote.$post>["json"];

const refresh = (qc: QueryClient) => qc.invalidateQueries({ queryKey: [KEY, "settings"] });

export const setFeeConfigMutation = (qc: QueryClient) =>
  mutationOptions({ mutationFn: (json: FeeConfigInput) => read(api.admin.settings.fees.$post({ json })), onSettled: () => refresh(qc) });

export const setQuoteSettingsMutation = (qc: QueryClient) =>
  mutationOptions({ mutationFn: (json: QuoteSettingsInput) => read(api.admin.settings.quote.$post({ json })), onSettled: () => refresh(qc) });
