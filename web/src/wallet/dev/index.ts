// The local demo's wallets: anvil's and the LiteSVM chain's funded dev accounts, offered as ordinary wallets
// (EIP-6963 and Wallet Standard) so a newcomer without an extension can sign in and pay on `npm start`.
// main.tsx imports this module only when the build sets VITE_LOCAL_DEV_WALLETS (npm start does; a production
// build drops the import, and `npm run check` scans dist/ for the keys) AND /api/config says both chains are
// local. The keys are the public dev mnemonic's: everyone has them.
import { base58 } from "@scure/base";
import { DEV_ACCOUNTS, LOCAL_CHAIN, SOLANA_DEV_ACCOUNTS } from "../../../../schema/dev-accounts";
import { createDevEthereumProvider } from "./ethereum-dev-wallet";
import { jsonRpcRelay } from "./relay";
import { createDevSolanaWallet, type DevSolanaWallet } from "./solana-dev-wallet";

export const DEV_WALLET_LABEL = "Local dev wallet — public test keys";

const icon = (fill: string): `data:image/${string}` =>
  `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="${fill}"/><path d="M4 8h8M8 4v8" stroke="#fff" stroke-width="2"/></svg>`)}`;

const ROLES = ["buyer", "admin"] as const;
/** Names say what these are: the picker lists them beside real wallets. */
const walletName = (role: (typeof ROLES)[number], network: "ETH" | "SOL") => `Local dev ${role} ${network} (public test key)`;

let installed = false;

export function installDevWallets() {
  if (installed) return;
  installed = true;
  console.info(`${DEV_WALLET_LABEL}: the local chains' dev accounts are offered as wallets.`);
  const ethRelay = jsonRpcRelay("/api/dev-chains/ethereum");
  const solRelay = jsonRpcRelay("/api/dev-chains/solana");

  for (const role of ROLES) {
    const name = walletName(role, "ETH");
    const provider = createDevEthereumProvider({ privateKey: DEV_ACCOUNTS[role].privateKey, chainId: LOCAL_CHAIN.chainId, relay: ethRelay });
    const detail = Object.freeze({ info: Object.freeze({ uuid: `local-dev-${role}`, name, icon: icon("#0f766e"), rdns: `local.dev.${role}` }), provider });
    const announce = () => window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail }));
    window.addEventListener("eip6963:requestProvider", announce);
    announce();
  }

  const wallets: DevSolanaWallet[] = ROLES.map((role) =>
    createDevSolanaWallet({
      name: walletName(role, "SOL"),
      icon: icon("#7c3aed"),
      secretKey: base58.decode(SOLANA_DEV_ACCOUNTS[role].secretKey),
      relay: solRelay,
      host: location.host,
    }),
  );
  // The Wallet Standard registration protocol: announce now, and again when an app says it is ready.
  const register = ({ register }: { register: (...w: unknown[]) => unknown }) => register(...wallets);
  window.dispatchEvent(new CustomEvent("wallet-standard:register-wallet", { detail: register }));
  window.addEventListener("wallet-standard:app-ready", (event) => register((event as CustomEvent).detail));
}
