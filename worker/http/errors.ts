// One error shape for every failure (docs/api.md#conventions): {"error": "<kind>", "message": "<what is wrong>"}.
// Handlers throw ApiError (or Hono's HTTPException); the app's onError turns it into JSON.
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ErrorBody } from "../../schema/api";

const TITLES: Record<number, string> = {
  400: "Validation Error",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  426: "Upgrade Required",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
};

export type { ErrorBody };

/** An error meant for the client: its status, message, any extra fields and any headers are sent as they are. */
export class ApiError extends HTTPException {
  constructor(
    status: ContentfulStatusCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(status, { message });
  }
}

export function errorBody(status: number, message: string, extra: Record<string, unknown> = {}): ErrorBody {
  return { error: TITLES[status] ?? "Error", message, ...extra };
}

export function handleError(err: Error, c: Context): Response {
  if (err instanceof HTTPException) {
    const extra = err instanceof ApiError ? err.extra : {};
    const res = c.json(errorBody(err.status, err.message || TITLES[err.status] || "Error", extra), err.status as ContentfulStatusCode);
    if (err.status === 429) res.headers.set("Retry-After", "60");
    if (err instanceof ApiError) for (const [name, value] of Object.entries(err.headers)) res.headers.set(name, value);
    return res;
  }
  // Unexpected: log for operators, tell the client nothing about internals.
  console.error("unhandled error", c.req.method, new URL(c.req.url).pathname, err?.name, err?.message);
  return c.json(errorBody(500, "An unexpected error occurred"), 500);
}
