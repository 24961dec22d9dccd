// The shared valibot validation hook: every request body, query and param is checked at the edge of its
// route, and a failure becomes 400 {"error":"Validation Error","message":"<field>: <problem>"}.
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

/** Validates one part of the request with a valibot schema; JSON bodies must say they are JSON. */
export function validate<T extends v.GenericSchema, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  const inner = vValidator(target, schema, (result) => {
    if (!result.success) throw new ApiError(400, describeIssues(result.issues));
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
