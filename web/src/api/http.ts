// The one place the browser talks to the API. `api` is Hono's typed client on the Worker's app type
// (worker/app.ts AppType, imported as a type only: no Worker code reaches the bundle), so what a call sends is
// the route's own validation schema and what it answers is the handler's own return type; a route that
// changes its shape is a type error here (client.type-test.ts). Every call includes credentials; any non-OK
// answer becomes an HttpError whose message is "<status>: <body text>" (or the status text when the body is
// empty), as the spec's generic rule says.
import { type ClientResponse, hc } from "hono/client";
import type { SuccessStatusCode } from "hono/utils/http-status";
import type { ErrorBody } from "../../../schema/api";
import type { AppType } from "../../../worker/app";

/** Read the stored wallet address, sent as x-wallet-address on /admin/ calls (it authorises nothing). */
export function storedWallet(): string | null {
  try {
    return localStorage.getItem("walletAddress");
  } catch {
    return null;
  }
}

/** Owner-changing calls carry the stored wallet in x-wallet-address too (it authorises nothing; the session does). */
export function walletHeader(): Record<string, string> {
  const wallet = storedWallet();
  return wallet ? { "x-wallet-address": wallet } : {};
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly bodyText: string,
    statusText: string,
    message = `${status}: ${bodyText || statusText}`,
  ) {
    super(message);
  }

  /** The body as the API's error shape (`{error, message, ...extra}`), or null when it is not one. */
  get body(): Partial<ErrorBody> | null {
    try {
      const body = JSON.parse(this.bodyText) as unknown;
      if (!body || typeof body !== "object" || Array.isArray(body)) return null;
      const record = body as Record<string, unknown>;
      const error = typeof record.error === "string" ? record.error : undefined;
      const message = typeof record.message === "string" ? record.message : undefined;
      return error === undefined && message === undefined ? null : { ...record, error, message };
    } catch {
      return null;
    }
  }

  /** The server's `message` (or `error`) field when the body is the API's JSON error shape. */
  get serverMessage(): string | null {
    const body = this.body;
    return body?.message ?? body?.error ?? null;
  }
}

/** The fetch every call goes through: credentials always, and the stored wallet on any path with /admin/. */
export function apiFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const wallet = storedWallet();
  if (wallet && String(input).includes("/admin/")) headers.set("x-wallet-address", wallet);
  return fetch(input, { ...init, headers, credentials: "include" });
}

/** The API, typed by the Worker's routes: `api.addresses.featured.$get({ query: {} })`, `api.transactions.initiate.$post({ json })`. */
export const api = hc<AppType>("/", { fetch: apiFetch }).api;

/**
 * An `:id` path parameter from outside (a page's URL), encoded: the client puts parameters into the path as they
 * are, and "../admin/stats" must stay one segment.
 */
export const idParam = (id: string) => ({ param: { id: encodeURIComponent(id) } });

/** What a call answers when it succeeds: the JSON of its 2xx answers (error answers are HttpErrors). */
export type Answer<R> =
  R extends ClientResponse<infer T, infer S, infer F> ? ([Extract<S, SuccessStatusCode>] extends [never] ? never : F extends "json" ? T : never) : never;

/** The JSON a route answers with an error status it names (the refusals a route returns rather than throws). */
export type Refusal<R> =
  R extends ClientResponse<infer T, infer S, infer F> ? ([Extract<S, SuccessStatusCode>] extends [never] ? (F extends "json" ? T : never) : never) : never;

/** The success answer of a client call: `AnswerOf<typeof api.config.$get>`. */
export type AnswerOf<F extends (...args: never[]) => Promise<unknown>> = Answer<Awaited<ReturnType<F>>>;
/** The refusals of a client call. */
export type RefusalOf<F extends (...args: never[]) => Promise<unknown>> = Refusal<Awaited<ReturnType<F>>>;

type Options = {
  /** A 401 yields null instead of an error (the spec's optional mode of the default data reader). */
  on401?: "throw" | "null";
  /** The error's message instead of "<status>: <body text>" (the home page's "HTTP error! status: N"). */
  message?: (status: number) => string;
};

/** Awaits a call: its JSON when the answer is OK, else an HttpError carrying the status and the body text. */
export async function read<R extends ClientResponse<unknown, number, string>>(call: Promise<R>): Promise<Answer<R>>;
export async function read<R extends ClientResponse<unknown, number, string>>(
  call: Promise<R>,
  options: Options & { on401: "null" },
): Promise<Answer<R> | null>;
export async function read<R extends ClientResponse<unknown, number, string>>(call: Promise<R>, options: Options): Promise<Answer<R>>;
export async function read<R extends ClientResponse<unknown, number, string>>(call: Promise<R>, options: Options = {}): Promise<Answer<R> | null> {
  const res = await call;
  if (res.ok) return (await res.json()) as Answer<R>;
  if (res.status === 401 && options.on401 === "null") return null;
  const text = await res.text();
  throw new HttpError(res.status, text, res.statusText, options.message?.(res.status));
}
