// The admin role and the contract-wallet rule (roles.ts): an admin is a key. A wallet that is an admin (listed or
// marked) may sign in on the nodes' word only when ADMIN_CONTRACT_WALLETS names it, and a session proven that way is
// an admin's only then.
import { describe, expect, it } from "vitest";
import { contractProofRefusal, namedContractAdmin, sessionIsAdmin } from "./roles";

const ADMIN = "0x1111111111111111111111111111111111111111";
const CONTRACT = "0x2222222222222222222222222222222222222222";
const OTHER = "0x3333333333333333333333333333333333333333";
// Not on this machine: the public-dev-wallet rule stays out of the way of these wallets, none of which is one.
const env = {
  ADMIN_WALLETS: `${ADMIN}, ${CONTRACT}`,
  ADMIN_CONTRACT_WALLETS: CONTRACT.toUpperCase().replace("0X", "0x"),
  SITE_ORIGIN: "https://vanity.example",
};

describe("contractProofRefusal", () => {
  it("refuses a listed admin and a row-marked admin, naming ADMIN_CONTRACT_WALLETS", () => {
    expect(contractProofRefusal(env, "ethereum", ADMIN, false)).toMatch(/admin signs in only with a signature its own key makes.*ADMIN_CONTRACT_WALLETS/);
    expect(contractProofRefusal(env, "ethereum", ADMIN.toUpperCase().replace("0X", "0x"), false)).not.toBeNull();
    expect(contractProofRefusal(env, "ethereum", OTHER, true)).not.toBeNull();
  });

  it("lets a wallet that is no admin, or an admin ADMIN_CONTRACT_WALLETS names (any letter case), through", () => {
    expect(contractProofRefusal(env, "ethereum", OTHER, false)).toBeNull();
    expect(contractProofRefusal(env, "ethereum", CONTRACT, false)).toBeNull();
    expect(contractProofRefusal({ ...env, ADMIN_CONTRACT_WALLETS: undefined }, "ethereum", CONTRACT, false)).not.toBeNull();
  });

  it("names Ethereum wallets only", () => {
    expect(namedContractAdmin({ ADMIN_WALLETS: "", ADMIN_CONTRACT_WALLETS: CONTRACT }, "solana", CONTRACT)).toBe(false);
    expect(namedContractAdmin({ ADMIN_WALLETS: "", ADMIN_CONTRACT_WALLETS: ` ${CONTRACT} ,` }, "ethereum", CONTRACT)).toBe(true);
  });
});

describe("sessionIsAdmin", () => {
  const host = "vanity.example";
  const session = (walletAddress: string, proof: "key" | "contract", userRowIsAdmin = false) => ({
    network: "ethereum" as const,
    walletAddress,
    userRowIsAdmin,
    proof,
  });

  it("a key's session of an admin is an admin's; a contract's is not unless named", () => {
    expect(sessionIsAdmin(env, host, session(ADMIN, "key"))).toBe(true);
    expect(sessionIsAdmin(env, host, session(ADMIN, "contract"))).toBe(false);
    expect(sessionIsAdmin(env, host, session(OTHER, "contract", true))).toBe(false);
    expect(sessionIsAdmin(env, host, session(OTHER, "key", true))).toBe(true);
    expect(sessionIsAdmin(env, host, session(CONTRACT, "contract"))).toBe(true);
  });

  it("naming a wallet in ADMIN_CONTRACT_WALLETS makes no admin of it by itself", () => {
    expect(sessionIsAdmin({ ...env, ADMIN_WALLETS: ADMIN }, host, session(CONTRACT, "contract"))).toBe(false);
    expect(sessionIsAdmin(env, host, session(OTHER, "key"))).toBe(false);
  });
});
