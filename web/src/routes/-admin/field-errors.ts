// What a refused save tells a settings form: the API names each refused field's problem in `fields` (worker's
// validate with perField, docs/api.md#conventions), and the form shows it at that field after the field's label
// ("Exchange fee: enter a percentage such as 2.5"). What belongs to no field of the form (a rate limit, a refusal
// without fields) stays one message above Save.
import { errorMessage } from "../../api/error-message";
import { HttpError } from "../../api/http";

export type FieldErrors = { fields: Record<string, string>; form: string | null };

export const NO_ERRORS: FieldErrors = { fields: {}, form: null };

/**
 * `labels`: the form's fields by their API name, in the words of the form ("exchangeFeePercentage" → "Exchange fee").
 * `say` words a field's problem; a form whose problems already read as sentences of their own shows them bare.
 */
export function fieldErrors(
  err: unknown,
  labels: Readonly<Record<string, string>>,
  say: (label: string, problem: string) => string = (label, problem) => `${label}: ${problem}`,
): FieldErrors {
  const body = err instanceof HttpError ? err.body : null;
  const given = body?.fields;
  const raw = given && typeof given === "object" && !Array.isArray(given) ? (given as Record<string, unknown>) : {};
  const fields: Record<string, string> = {};
  const elsewhere: string[] = [];
  for (const [name, problem] of Object.entries(raw)) {
    if (typeof problem !== "string") continue;
    if (Object.hasOwn(labels, name)) fields[name] = say(labels[name], problem);
    else elsewhere.push(`${name}: ${problem}`);
  }
  if (Object.keys(fields).length === 0) return { fields, form: errorMessage(err) || "The change could not be saved" };
  return { fields, form: elsewhere.length > 0 ? elsewhere.join("; ") : null };
}

/** The first of `order` (the form's fields, top to bottom) that has an error: where the focus goes after a refusal. */
export const firstRefused = (errors: FieldErrors, order: readonly string[]) => order.find((name) => name in errors.fields);
