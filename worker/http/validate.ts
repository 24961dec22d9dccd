// The shared valibot validation hook: every request body, query and param is checked at the edge of its
// route, and a failure becomes 400 {"error":"Validation Error","message":"<field>: <problem>"}. A route whose
// form shows each problem at its field (Admin > Settings) asks for `fields` too: each refused field's first
// problem by its path (docs/api.md#conventions).
import { vValidator } from "@hono/valibot-validator";
import type { ValidationTargets } from "hono";
import * as v from "valibot";
import { ApiError } from "./errors";

export function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string {
  return issues
    .slice(0, 3)
    .map((issue) => {
      const path = v.getDotPath(issue);
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join("; ");
}

/** At most this many fields in an answer's `fields` (a bulk body can have thousands of refused rows). */
export const MAX_FIELD_ERRORS = 20;

/** Each field's first problem, by its dot path ("exchangeFeePercentage", "rows.3.price"); issues without a path are left out. */
export function issueFields(issues: readonly v.BaseIssue<unknown>[]): Record<string, string> {
  const fields = new Map<string, string>();
  for (const issue of issues) {
    const path = v.getDotPath(issue);
    if (path && !fields.has(path) && fields.size < MAX_FIELD_ERRORS) fields.set(path, issue.message);
  }
  return Object.fromEntries(fields);
}

/** A 400 about one field, in the same shape as a validation failure: for the rules a schema cannot state (one field against another, the clock). */
export function fieldError(field: string, problem: string, status: 400 | 409 = 400): ApiError {
  return new ApiError(status, `${field}: ${problem}`, { fields: { [field]: problem } });
}

/**
 * Validates one part of the request with a valibot schema; JSON bodies must say they are JSON. `perField`: a
 * refusal also carries `fields` (issueFields).
 */
export function validate<T extends v.GenericSchema, Target extends keyof ValidationTargets>(target: Target, schema: T, options: { perField?: boolean } = {}) {
  const inner = vValidator(target, schema, (result) => {
    if (result.success) return;
    const fields = options.perField ? issueFields(result.issues) : {};
    throw new ApiError(400, describeIssues(result.issues), Object.keys(fields).length > 0 ? { fields } : {});
  });
  if (target !== "json") return inner;
  const jsonOnly = (async (c, next) => {
    const type = (c.req.header("content-type") ?? "").split(";")[0].trim().toLowerCase();
    if (type !== "application/json") throw new ApiError(415, "Request body must be JSON (Content-Type: application/json)");
    return inner(c, next);
  }) as typeof inner;
  return jsonOnly;
}

/** A C0 control character or DEL: addresses, search text and CSV fields never contain one. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's job.
export const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/** A valibot check that the text has no control character; `what` names the field in the message. */
export const noControlCharacters = (what: string) => v.check((text: string) => !CONTROL_CHARACTER.test(text), `${what} must not contain control characters`);
