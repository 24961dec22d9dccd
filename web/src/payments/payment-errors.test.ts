import { describe, expect, it } from "vitest";
import { describePaymentFailure, PAYMENT_FAILURE_TEXT, PaymentError } from "./payment-errors";

describe("describePaymentFailure", () => {
  it("says the buyer rejected it (EIP-1193 4001, Wallet Standard wording)", () => {
    expect(describePaymentFailure(Object.assign(new Error("User rejected the request."), { code: 4001 })).kind).toBe("rejected");
    expect(describePaymentFailure(new Error("User denied transaction signature")).kind).toBe("rejected");
    expect(describePaymentFailure(new Error("x", { cause: { code: 4001 } })).message).toBe(PAYMENT_FAILURE_TEXT.rejected);
  });
  it("says the funds are insufficient (anvil, geth, Solana simulation)", () => {
    expect(describePaymentFailure({ code: -32003, message: "Insufficient funds for gas * price + value" }).kind).toBe("insufficient-funds");
    expect(describePaymentFailure({ code: -32000, message: "insufficient funds for transfer" }).kind).toBe("insufficient-funds");
    expect(describePaymentFailure(new Error("Transaction simulation failed: Attempt to debit an account but found no record of a prior credit.")).kind).toBe(
      "insufficient-funds",
    );
    expect(describePaymentFailure(new Error("transfer: insufficient lamports 10, need 500")).kind).toBe("insufficient-funds");
  });
  it("says the chain is wrong (4902 unknown chain, 4901, mismatch)", () => {
    expect(describePaymentFailure({ code: 4902, message: "Unrecognized chain ID 0x7a69" }).kind).toBe("wrong-chain");
    expect(describePaymentFailure({ code: 4901, message: "disconnected from chain" }).kind).toBe("wrong-chain");
    expect(describePaymentFailure(new PaymentError("wrong-chain", "Switch to chain 1")).message).toBe("Switch to chain 1");
  });
  it("passes other messages through, with a fallback", () => {
    expect(describePaymentFailure(new Error("nonce too low"))).toEqual({ kind: "other", message: "nonce too low" });
    expect(describePaymentFailure(undefined)).toEqual({ kind: "other", message: PAYMENT_FAILURE_TEXT.fallback });
    expect(describePaymentFailure(new Error(""))).toEqual({ kind: "other", message: PAYMENT_FAILURE_TEXT.fallback });
  });
});
