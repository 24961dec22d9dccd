// The sign-in calls (docs/sign-in.md#the-calls): nonce, verify, session, logout.
import type { InferRequestType } from "hono/client";
import { api, read } from "../api/http";

const auth = api.auth;

export const requestNonce = (body: InferRequestType<typeof auth.nonce.$post>["json"]) => read(auth.nonce.$post({ json: body }));
export const verifySignIn = (body: InferRequestType<typeof auth.verify.$post>["json"]) => read(auth.verify.$post({ json: body }));
export const fetchSession = () => read(auth.session.$get());

/** Ends the server session; never throws (a failed logout must not keep the browser "connected"). */
export async function logout(): Promise<void> {
  try {
    await read(auth.logout.$post());
  } catch {
    /* the cookie expires on its own */
  }
}
