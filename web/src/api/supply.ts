// Admin > Supply: the targets with their stock, rate and time to fill, and the admin's changes to them, through the
// typed client on the Worker's routes (worker/routes/supply.ts; docs/supply.md).
import { mutationOptions, type QueryClient, queryOptions } from "@tanstack/react-query";
import type { InferRequestType } from "hono/client";
import { type AnswerOf, api, read } from "./http";

const KEY = "/api/supply/targets";

/** Again every 15 s: the grinders' reports move the rate and the stock while the tab is open. */
export const supplyTargetsQuery = () => queryOptions({ queryKey: [KEY], queryFn: () => read(api.supply.targets.$get()), refetchInterval: 15_000 });
export type SupplyTargets = AnswerOf<typeof api.supply.targets.$get>;

export type NewTarget = InferRequestType<typeof api.supply.targets.$post>["json"];
export type TargetChange = InferRequestType<(typeof api.supply.targets)[":id"]["$patch"]>["json"];

const refresh = (qc: QueryClient) => qc.invalidateQueries({ queryKey: [KEY] });
const target = api.supply.targets[":id"];
const param = (id: number) => ({ param: { id: String(id) } });

export const createTargetMutation = (qc: QueryClient) =>
  mutationOptions({ mutationFn: (json: NewTarget) => read(api.supply.targets.$post({ json })), onSettled: () => refresh(qc) });

export const editTargetMutation = (qc: QueryClient) =>
  mutationOptions({
    mutationFn: ({ id, json }: { id: number; json: TargetChange }) => read(target.$patch({ ...param(id), json })),
    onSettled: () => refresh(qc),
  });

/** pause, resume or delete one target */
export const targetActionMutation = (qc: QueryClient) =>
  mutationOptions({
    mutationFn: async ({ id, action }: { id: number; action: "pause" | "resume" | "delete" }): Promise<unknown> => {
      if (action === "delete") return read(target.$delete(param(id)));
      return read(action === "pause" ? target.pause.$post(param(id)) : target.resume.$post(param(id)));
    },
    onSettled: () => refresh(qc),
  });
