// The admin role and the contract-wallet rule (roles.ts): an admin is a key. A wallet that is an admin (listed or
// marked) may sign in on the nodes' word only when ADMIN_CONTRACT_WALLETS names it, and a session proven that way is
// an admin's only then. The rules read the deployment (readDeployment) as the request's middleware reads it, so the
// settings are written here as text.
import { describe, expect, it } from "vitest";
import { type DeploymentEnv, readDeployment } from "../deployment/deployment";
import { contractProofRefusal, isAdmin as isAdminOf, namedContractAdmin as namedOf, sessionIsAdmin as sessionIsAdminOf } from "./roles";
import type { Network, SignInProof } from "../../schema/db";

const ADMIN = "0x1111111111111111111111111111111111111111";
const CONTRACT = "0x2222222222222222222222222222222222222222";
const OTHER = "0x3333333333333333333333333333333333333333";
// Not on this machine: the public-dev-wallet rule stays out of the way of these wallets, none of which is one.
const env = {
  ADMIN_WALLETS: `${ADMIN}, ${CONTRACT}`,
  ADMIN_CONTRACT_WALLETS: CONTRACT.toUpperCase().replace("0X", "0x"),
  SITE_ORIGIN: "https://vanity.example",
};

/** The rules of the deployment `text` describes, for a request to `host`. */
const rulesOf = (text: DeploymentEnv, host: string | null = "vanity.example") => readDeployment(text, host);
const refusal = (text: DeploymentEnv, network: Network, address: string, rowIsAdmin: boolean) =>
  contractProofRefusal(rulesOf(text), network, address, rowIsAdmin);
const namedContractAdmin = (text: DeploymentEnv, network: Network, address: string) => namedOf(rulesOf(text), network, address);
const sessionIsAdmin = (text: DeploymentEnv, host: string, s: { network: Network; walletAddress: string; userRowIsAdmin: boolean; proof: SignInProof }) =>
  sessionIsAdminOf(rulesOf(text, host), s);
const isAdmin = (text: DeploymentEnv, host: string | null, network: Network, address: string, rowIsAdmin: boolean) =>
  isAdminOf(rulesOf(text, host), network, address, rowIsAdmin);

describe("contractProofRefusal", () => {
  it("refuses a listed admin and a row-marked admin, naming ADMIN_CONTRACT_WALLETS", () => {
    expect(refusal(env, "ethereum", ADMIN, false)).toMatch(/admin signs in only with a signature its own key makes.*ADMIN_CONTRACT_WALLETS/);
    expect(refusal(env, "ethereum", ADMIN.toUpperCase().replace("0X", "0x"), false)).not.toBeNull();
    expect(refusal(env, "ethereum", OTHER, true)).not.toBeNull();
  });

  it("lets a wallet that is no admin, or an admin ADMIN_CONTRACT_WALLETS names (any letter case), through", () => {
    expect(refusal(env, "ethereum", OTHER, false)).toBeNull();
    expect(refusal(env, "ethereum", CONTRACT, false)).toBeNull();
    expect(refusal({ ...env, ADMIN_CONTRACT_WALLETS: undefined }, "ethereum", CONTRACT, false)).not.toBeNull();
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

describe("isAdmin: a public dev wallet is an admin only in a local deployment", () => {
  // Account 0 of the test mnemonic: its key is in every tutorial.
  const DEV = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
  const local = {
    ADMIN_WALLETS: DEV,
    SITE_ORIGIN: "http://localhost:8787",
    ETH_RPC_URL: "http://127.0.0.1:8545",
    ETH_CHAIN_ID: "31337",
    SOL_RPC_URL: "http://127.0.0.1:8899",
    SOL_CLUSTER: "localnet",
  };
  const deployed = { ...local, SITE_ORIGIN: "https://vanity.example" };

  it("listed or row-marked: an admin on this machine, not on a deployed site", () => {
    expect(isAdmin(local, "localhost", "ethereum", DEV, false)).toBe(true);
    expect(isAdmin(local, null, "ethereum", DEV, false)).toBe(true);
    expect(isAdmin(deployed, "vanity.example", "ethereum", DEV, false)).toBe(false);
    expect(isAdmin({ ...deployed, ADMIN_WALLETS: "" }, "vanity.example", "ethereum", DEV, true)).toBe(false);
    expect(isAdmin(local, "vanity.example", "ethereum", DEV, false)).toBe(false);
  });

  it("any other wallet is an admin wherever it is listed or marked", () => {
    expect(isAdmin({ ...deployed, ADMIN_WALLETS: ADMIN }, "vanity.example", "ethereum", ADMIN, false)).toBe(true);
    expect(isAdmin({ ...deployed, ADMIN_WALLETS: "" }, "vanity.example", "ethereum", OTHER, true)).toBe(true);
    expect(isAdmin({ ...deployed, ADMIN_WALLETS: "" }, "vanity.example", "ethereum", OTHER, false)).toBe(false);
  });
});
