// An EIP-1193 provider for one of anvil's public dev accounts, announced through EIP-6963 like an extension:
// it signs in the page with viem's local account (personal_sign, typed data, transactions) and sends signed
// transactions to the local anvil. For the local demo only (see index.ts); the keys are public.
import { createWalletClient, custom, defineChain, type Hex, isHex, stringToHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { ChainRelay } from "./relay";

type TxRequest = { from?: string; to?: Hex; value?: Hex; data?: Hex; input?: Hex; gas?: Hex };

const providerError = (code: number, message: string) => Object.assign(new Error(message), { code });

export function createDevEthereumProvider(opts: { privateKey: Hex; chainId: number; relay: ChainRelay }) {
  const account = privateKeyToAccount(opts.privateKey);
  const chainHex = `0x${opts.chainId.toString(16)}`;
  const chain = defineChain({
    id: opts.chainId,
    name: "Anvil local",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [] } },
  });
  const client = createWalletClient({
    account,
    chain,
    transport: custom({ request: ({ method, params }) => opts.relay(method, (params as unknown[]) ?? []) }),
  });
  const sameChain = (params: unknown) => {
    const wanted = String((params as [{ chainId?: string }] | undefined)?.[0]?.chainId ?? "").toLowerCase();
    if (wanted !== chainHex) throw providerError(4902, `The local dev wallet knows only the local chain (${chainHex}).`);
    return null;
  };

  return {
    address: account.address,
    async request({ method, params }: { method: string; params?: unknown[] | Record<string, unknown> }): Promise<unknown> {
      const list = (Array.isArray(params) ? params : []) as unknown[];
      switch (method) {
        case "eth_requestAccounts":
        case "eth_accounts":
          return [account.address];
        case "eth_chainId":
          return chainHex;
        case "net_version":
          return String(opts.chainId);
        case "wallet_switchEthereumChain":
        case "wallet_addEthereumChain":
          return sameChain(list);
        case "wallet_requestPermissions":
        case "wallet_getPermissions":
          return [{ parentCapability: "eth_accounts" }];
        case "personal_sign": {
          const [data] = list as [string];
          return account.signMessage({ message: isHex(data) ? { raw: data } : { raw: stringToHex(String(data)) } });
        }
        case "eth_signTypedData_v4": {
          const [, json] = list as [string, string];
          const typed = typeof json === "string" ? JSON.parse(json) : json;
          const { EIP712Domain: _domain, ...types } = typed.types ?? {};
          return account.signTypedData({ domain: typed.domain, types, primaryType: typed.primaryType, message: typed.message });
        }
        case "eth_sendTransaction": {
          const [tx] = list as [TxRequest];
          if (tx?.from && tx.from.toLowerCase() !== account.address.toLowerCase()) throw providerError(4100, "That account is not in this wallet.");
          // Every field viem would otherwise ask the node to fill is given here, from plain reads the relay
          // forwards: left empty, viem first tries eth_fillTransaction, which the relay refuses
          // (four failed calls before each payment).
          const [nonce, gasPrice, gas] = await Promise.all([
            opts.relay("eth_getTransactionCount", [account.address, "pending"]),
            opts.relay("eth_gasPrice", []),
            tx?.gas ? tx.gas : opts.relay("eth_estimateGas", [{ from: account.address, to: tx?.to, value: tx?.value, data: tx?.data ?? tx?.input }]),
          ]);
          return client.sendTransaction({
            to: tx?.to,
            value: tx?.value ? BigInt(tx.value) : undefined,
            data: tx?.data ?? tx?.input,
            gas: BigInt(gas as Hex),
            gasPrice: BigInt(gasPrice as Hex),
            nonce: Number(BigInt(nonce as Hex)),
            chainId: opts.chainId,
            type: "legacy",
          });
        }
        default:
          // Reads (receipts, balances, blocks) go to the chain; the relay refuses anything it does not forward.
          return opts.relay(method, list);
      }
    },
    // The dev wallet never changes account or chain, so there is nothing to emit.
    on() {},
    removeListener() {},
  };
}
