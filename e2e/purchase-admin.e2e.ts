// The admin's "Payments needing attention" in a real browser: a buyer underpays a reservation (a real
// transfer on the e2e anvil), the payment is listed with what arrived against what was due, and the admin
// records the refund (a real transfer back from the platform account) with its hash. And the reconciliation:
// value a contract forwards to the platform shows as a balance difference, which the admin resolves with a note.
import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, describe, expect, inject, it } from "vitest";
import { formatBaseUnits, paymentDifference } from "../schema/money";
import { DEV_ACCOUNTS } from "../schema/dev-accounts";
import { anvil } from "./anvil";
import { answer, listAsAdmin, signInWithKey } from "./api-session";
import { openBrowser, type Session } from "./browser";
import { connect, recordToasts, toast } from "./purchase-journey";
import { reportUntil } from "./real-purchase";
import { injectEthereumWallet } from "./wallets/eip1193";

let s: Session | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

/** A browser signed in as the admin, on Admin > Payments. */
async function adminPayments() {
  s = await openBrowser();
  const { page, baseUrl } = s;
  await injectEthereumWallet(page, { account: DEV_ACCOUNTS.admin.address, rpcUrl: inject("rpcUrl") });
  await recordToasts(page);
  await page.goto(`${baseUrl}/`);
  await connect(page, "Admin (ETH)");
  await page.goto(`${baseUrl}/admin`);
  await page.getByRole("tab", { name: "Payments" }).click();
  return page;
}

const send = (from: string, to: string, value: bigint) => anvil<string>("eth_sendTransaction", [{ from, to, value: `0x${value.toString(16)}`, gas: "0x5208" }]);

describe("payments needing attention", () => {
  it("an underpayment is listed for the admin, who marks it refunded with the refund's hash", async () => {
    const key = generatePrivateKey();
    const address = privateKeyToAccount(key).address;
    const admin = await signInWithKey(DEV_ACCOUNTS.admin.privateKey as Hex);
    const listingId = await listAsAdmin(admin, { address, network: "ethereum", price: "0.03", privateKey: key });

    const buyer = await signInWithKey(DEV_ACCOUNTS.otherBuyer.privateKey as Hex);
    const initiated = await answer(
      buyer.api.transactions.initiate.$post({
        json: {
          addressId: listingId,
          buyerId: DEV_ACCOUNTS.otherBuyer.address,
          price: "0.03",
          currency: "ETH",
        },
      }),
    );
    expect(initiated.status).toBe(201);
    const id = initiated.body.transactionId;
    const view = (await answer(buyer.api.transactions[":id"].$get({ param: { id: id } }))).body;
    const half = BigInt(view.amountBaseUnits) / 2n;
    const txHash = await send(DEV_ACCOUNTS.otherBuyer.address, view.recipient, half);
    await reportUntil(buyer, id, txHash, "failed");

    const page = await adminPayments();
    const row = page.getByTestId("attention-row").filter({ hasText: `${txHash.slice(0, 8)}...${txHash.slice(-6)}` });
    await row.waitFor({ timeout: 20_000 });
    expect(await row.getAttribute("data-reason")).toBe("partial");
    // Every amount exactly, from wei, with the difference in words.
    const exact = (units: bigint) => `${formatBaseUnits(units, "ETH")} ETH`;
    const due = BigInt(view.amountBaseUnits);
    expect(await row.getByTestId("received").textContent()).toBe(exact(half));
    expect(await row.getByTestId("due").textContent()).toBe(exact(due));
    expect(await row.getByTestId("difference").textContent()).toBe(paymentDifference(half, due, "ETH"));
    expect(await row.getByTestId("to-refund").textContent()).toBe(exact(half));

    const refundHash = await send(DEV_ACCOUNTS.platform.address, DEV_ACCOUNTS.otherBuyer.address, half);
    await row.getByLabel("Refund transaction hash").fill(refundHash);
    await row.getByRole("button", { name: "Mark refunded" }).click();
    await toast(page, "Marked Refunded");
    await expect.poll(() => row.getByRole("button", { name: "Mark refunded" }).count(), { timeout: 15_000 }).toBe(0);
  }, 180_000);

  it("value a contract forwards to the platform shows in Reconciliation; the admin resolves it with a note", async () => {
    const baseUrl = inject("baseUrl");
    const admin = await signInWithKey(DEV_ACCOUNTS.admin.privateKey as Hex);
    const tick = () => fetch(`${baseUrl}/__scheduled?cron=*+*+*+*+*`).catch(() => {});
    await tick(); // the reconciliation starts from where the chain is now
    // PUSH1 0 (x4), CALLVALUE, PUSH20 <platform>, GAS, CALL, POP, STOP: forwards what it receives.
    const forwarder = privateKeyToAccount(generatePrivateKey()).address;
    await anvil("anvil_setCode", [forwarder, `0x60006000600060003473${DEV_ACCOUNTS.platform.address.slice(2).toLowerCase()}5af15000`]);
    const value = 12_340_000_000_000_000n; // 0.01234 ETH
    await anvil("eth_sendTransaction", [{ from: DEV_ACCOUNTS.otherBuyer.address, to: forwarder, value: `0x${value.toString(16)}`, gas: "0x30d40" }]);
    const found = async () => {
      await tick();
      const { body } = await answer(admin.api.admin.payments.differences.$get());
      return body.differences.some((d) => d.kind === "balance" && d.amount === "0.01234");
    };
    await expect.poll(found, { timeout: 60_000, interval: 2000 }).toBe(true);

    const page = await adminPayments();
    await page.getByRole("heading", { name: "Reconciliation" }).waitFor();
    const row = page.getByTestId("difference-row").filter({ hasText: "0.01234 ETH" });
    await row.waitFor({ timeout: 20_000 });
    expect(await row.getAttribute("data-kind")).toBe("balance");
    const resolve = row.getByRole("button", { name: "Resolve" });
    expect(await resolve.isDisabled()).toBe(true);
    await row.getByLabel("What was done (required)").fill("Forwarded by our own test contract; nothing to refund");
    await resolve.click();
    await toast(page, "Resolved");
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(0);
  }, 180_000);

  it("a transfer from a wallet with no purchase: no amount due, no purchase; the admin dismisses it with a note", async () => {
    const baseUrl = inject("baseUrl");
    const admin = await signInWithKey(DEV_ACCOUNTS.admin.privateKey as Hex);
    const tick = () => fetch(`${baseUrl}/__scheduled?cron=*+*+*+*+*`).catch(() => {});
    await tick(); // the reconciliation starts from where the chain is now
    const stranger = privateKeyToAccount(generatePrivateKey()).address;
    await anvil("anvil_setBalance", [stranger, "0x56BC75E2D63100000"]);
    await anvil("anvil_impersonateAccount", [stranger]);
    const value = 1_000_000_000_000_001n; // 0.001 ETH and 1 wei: above the dust threshold, shown to the last wei
    const txHash = await send(stranger, DEV_ACCOUNTS.platform.address, value);
    await anvil("anvil_stopImpersonatingAccount", [stranger]);
    const listed = async () => {
      await tick();
      return (await answer(admin.api.admin.payments.attention.$get())).body.payments.some((p) => p.txHash === txHash);
    };
    await expect.poll(listed, { timeout: 60_000, interval: 2000 }).toBe(true);

    const page = await adminPayments();
    const row = page.getByTestId("attention-row").filter({ hasText: `${txHash.slice(0, 8)}...${txHash.slice(-6)}` });
    await row.waitFor({ timeout: 20_000 });
    expect(await row.getAttribute("data-reason")).toBe("unmatched");
    expect(await row.getByTestId("received").textContent()).toBe("0.001000000000000001 ETH");
    expect(await row.getByTestId("due").count()).toBe(0);
    expect(await row.getByText("Purchase", { exact: true }).count()).toBe(0);
    await row.getByRole("button", { name: "Dismiss without a refund…" }).click();
    const dismiss = row.getByRole("button", { name: "Dismiss", exact: true });
    expect(await dismiss.isDisabled()).toBe(true);
    await row.getByLabel("Why no refund is sent (required)").fill("Our own test transfer from a throw-away wallet");
    await dismiss.click();
    await toast(page, "Dismissed");
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(0);
  }, 180_000);
});
