import { HttpError } from "./http";

/** What to tell the person about a failed call: the server's message when it sent one, else the error's text. */
export function errorMessage(err: unknown): string {
  if (err instanceof HttpError) return err.serverMessage ?? err.message;
  return err instanceof Error ? err.message : "";
}
