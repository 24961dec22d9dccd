// Who is buying: always the session's wallet. Wallet fields a client sends (buyerId, buyerWallet, account)
// are only compared with it, never trusted.
import { sameAddress } from "../../schema/address";
import type { AuthSession } from "../auth/middleware";
import { ApiError } from "../http/errors";

/** The same wallet, with the network's address rules (Ethereum ignores letter case, Solana does not). */
export function sameWallet(session: Pick<AuthSession, "network" | "walletAddress">, claimed: string): boolean {
  return sameAddress(session.network, claimed.trim(), session.walletAddress);
}

/** 403 when a wallet named in the request is not the signed-in one. */
export function assertSessionWallet(session: AuthSession, claimed: string | undefined, field: string) {
  if (claimed !== undefined && !sameWallet(session, claimed)) {
    throw new ApiError(403, `${field} is not the signed-in wallet; sign in with that wallet to buy with it`);
  }
}
