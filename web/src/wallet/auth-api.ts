// The sign-in calls (README "Sign-in"): nonce, verify, session, logout.
import type { NonceRequest, NonceResponse, SessionResponse, VerifyRequest } from "../../../schema/auth";
import { request } from "../api/http";

export const requestNonce = (body: NonceRequest) => request<NonceResponse>("POST", "/api/auth/nonce", body);
export const verifySignIn = (body: VerifyRequest) => request<SessionResponse>("POST", "/api/auth/verify", body);
export const fetchSession = () => request<SessionResponse>("GET", "/api/auth/session");

/** Ends the server session; never throws (a failed logout must not keep the browser "connected"). */
export async function logout(): Promise<void> {
  try {
    await request("POST", "/api/auth/logout");
  } catch {
    /* the cookie expires on its own */
  }
}
