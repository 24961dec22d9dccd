// The spec's wallet transitions as one pure decision, shared by the EVM and Solana
// event handlers and the reconnect check:
//   - the wallet's account list became empty       -> clear the stored wallet and reload
//   - the account differs only in letter case (EVM) -> ignore, keep the saved form
//   - another account                               -> store the new account and reload
import { sameAddress } from "../../../schema/same-address";
import type { Network } from "../../../schema/db";

export type AccountChange = { action: "clear" } | { action: "ignore" } | { action: "switch"; address: string };

export function accountChange(network: Network, stored: string | null, accounts: readonly string[]): AccountChange {
  const next = accounts[0];
  if (!next) return { action: "clear" };
  if (stored !== null && sameAddress(network, next, stored)) return { action: "ignore" };
  return { action: "switch", address: next };
}
