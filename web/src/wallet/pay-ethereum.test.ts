import { describe, expect, it } from "vitest";
import { describePaymentFailure } from "../payments/payment-errors";
import type { Eip1193Provider } from "./evm-discovery";
import { sendEthereumPayment, TRANSFER_GAS } from "./pay-ethereum";

const FROM = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const TO = "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720";
const HASH = `0x${"1f".repeat(32)}`;

/** An EIP-1193 wallet that records what it is asked; `switchable` says whether it agrees to change chains. */
function fakeWallet(opts: { chainId: number; switchable?: boolean; accounts?: string[]; rejectSend?: boolean }) {
  let chainId = opts.chainId;
  const calls: { method: string; params?: unknown }[] = [];
  const provider: Eip1193Provider = {
    async request({ method, params }) {
      calls.push({ method, params });
      if (method === "eth_chainId") return `0x${chainId.toString(16)}`;
      if (method === "eth_accounts") return opts.accounts ?? [FROM.toLowerCase()];
      if (method === "wallet_switchEthereumChain") {
        if (!opts.switchable) throw Object.assign(new Error("Unrecognized chain ID"), { code: 4902 });
        chainId = Number((params as [{ chainId: string }])[0].chainId);
        return null;
      }
      if (method === "eth_sendTransaction") {
        if (opts.rejectSend) throw Object.assign(new Error("User rejected the request."), { code: 4001 });
        return HASH;
      }
      throw new Error(`unexpected ${method}`);
    },
  };
  return { provider, calls };
}

describe("sendEthereumPayment", () => {
  it("sends one native transfer of exactly the wei due, gas 0x5208, to the platform", async () => {
    const w = fakeWallet({ chainId: 31337 });
    const valueWei = 1_234_567_890_123_456_789n; // beyond 2^53: a float would round it
    expect(await sendEthereumPayment({ provider: w.provider, from: FROM, to: TO, valueWei, chainId: 31337 })).toBe(HASH);
    const send = w.calls.find((c) => c.method === "eth_sendTransaction");
    expect(send?.params).toEqual([{ from: FROM, to: TO, value: "0x112210f47de98115", gas: TRANSFER_GAS }]);
    const [tx] = (send ? send.params : []) as [{ value: string }];
    expect(BigInt(tx.value)).toBe(valueWei);
    expect(TRANSFER_GAS).toBe("0x5208");
    expect(w.calls.some((c) => c.method === "wallet_switchEthereumChain")).toBe(false);
  });

  it("switches the wallet to the marketplace's chain first", async () => {
    const w = fakeWallet({ chainId: 1, switchable: true });
    await sendEthereumPayment({ provider: w.provider, from: FROM, to: TO, valueWei: 1n, chainId: 11155111 });
    const methods = w.calls.map((c) => c.method);
    expect(methods.indexOf("wallet_switchEthereumChain")).toBeLessThan(methods.indexOf("eth_sendTransaction"));
    expect(w.calls.find((c) => c.method === "wallet_switchEthereumChain")?.params).toEqual([{ chainId: "0xaa36a7" }]);
  });

  it("refuses as wrong chain when the wallet will not switch, sending nothing", async () => {
    const w = fakeWallet({ chainId: 1, switchable: false });
    const err = await sendEthereumPayment({ provider: w.provider, from: FROM, to: TO, valueWei: 1n, chainId: 31337 }).catch((e: unknown) => e);
    expect(describePaymentFailure(err)).toMatchObject({ kind: "wrong-chain" });
    expect(describePaymentFailure(err).message).toMatch(/Ethereum Mainnet.*chain id 31337/);
    expect(w.calls.some((c) => c.method === "eth_sendTransaction")).toBe(false);
  });

  it("refuses when the wallet is on another account than the signed-in one", async () => {
    const w = fakeWallet({ chainId: 31337, accounts: [TO] });
    await expect(sendEthereumPayment({ provider: w.provider, from: FROM, to: TO, valueWei: 1n, chainId: 31337 })).rejects.toThrow(/not on the account/);
    expect(w.calls.some((c) => c.method === "eth_sendTransaction")).toBe(false);
  });

  it("passes a rejection through as the buyer's refusal", async () => {
    const w = fakeWallet({ chainId: 31337, rejectSend: true });
    const err = await sendEthereumPayment({ provider: w.provider, from: FROM, to: TO, valueWei: 1n, chainId: 31337 }).catch((e: unknown) => e);
    expect(describePaymentFailure(err).kind).toBe("rejected");
  });
});
