// A test EVM wallet for the browser journeys: an EIP-1193 provider announced through EIP-6963 that answers
// eth_requestAccounts with one of anvil's dev accounts and forwards everything else (personal_sign included)
// to anvil, whose dev accounts are unlocked. The page reaches anvil through a function exposed from Node,
// so the page's CSP (connect-src 'self') stays as it is, as it would with a real extension.
import type { Page } from "playwright-core";

export type EthereumWalletOptions = {
  account: string;
  rpcUrl: string;
  name?: string;
  rdns?: string;
};

type RpcAnswer = { result?: unknown; error?: { code: number; message: string } };

export async function injectEthereumWallet(page: Page, opts: EthereumWalletOptions) {
  await page.exposeFunction("__e2eAnvilRpc", async (method: string, params: unknown[]): Promise<RpcAnswer> => {
    const res = await fetch(opts.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    const body = (await res.json()) as RpcAnswer;
    return body.error ? { error: body.error } : { result: body.result };
  });
  await page.addInitScript(installEthereumWallet, {
    account: opts.account,
    name: opts.name ?? "Test Wallet",
    rdns: opts.rdns ?? "org.example.testwallet",
    icon: `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" fill="#f6851b"/></svg>')}`,
  });
}

/** Runs inside the page before its scripts. Controls for the tests live on window.__testEthereum. */
function installEthereumWallet(cfg: { account: string; name: string; rdns: string; icon: string }) {
  type Listener = (...args: unknown[]) => void;
  const w = window as unknown as {
    __e2eAnvilRpc: (method: string, params: unknown[]) => Promise<{ result?: unknown; error?: { code: number; message: string } }>;
    __testEthereum: unknown;
  };
  const listeners: Record<string, Listener[]> = {};
  const control = { accounts: [cfg.account], rejectNext: false, requests: [] as string[] };
  const emit = (event: string, ...args: unknown[]) => (listeners[event] ?? []).forEach((l) => l(...args));
  const rejection = () => Object.assign(new Error("User rejected the request."), { code: 4001 });
  const provider = {
    async request({ method, params }: { method: string; params?: unknown[] }) {
      control.requests.push(method);
      if ((method === "eth_requestAccounts" || method === "personal_sign") && control.rejectNext) {
        control.rejectNext = false;
        throw rejection();
      }
      if (method === "eth_requestAccounts" || method === "eth_accounts") return control.accounts;
      const answer = await w.__e2eAnvilRpc(method, params ?? []);
      if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
      return answer.result;
    },
    on(event: string, listener: Listener) {
      (listeners[event] ??= []).push(listener);
    },
    removeListener(event: string, listener: Listener) {
      listeners[event] = (listeners[event] ?? []).filter((l) => l !== listener);
    },
  };
  w.__testEthereum = {
    control,
    /** What a wallet does when the person switches or disconnects accounts. */
    setAccounts(accounts: string[]) {
      control.accounts = accounts;
      emit("accountsChanged", accounts);
    },
    listenerCount: (event: string) => (listeners[event] ?? []).length,
  };
  const detail = Object.freeze({ info: Object.freeze({ uuid: crypto.randomUUID(), name: cfg.name, icon: cfg.icon, rdns: cfg.rdns }), provider });
  const announce = () => window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail }));
  window.addEventListener("eip6963:requestProvider", announce);
  announce();
}
