// Admin > Custom orders as it renders: words, not code. No command line stands in for a sentence, a grinder is
// named as Admin > Health names it (its id's start only beside the name), and an order's status and the filter are
// in words rather than the database's values.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { OrderQueue, QueuedOrder } from "../../../../schema/custom-orders";
import { grinderName } from "../../../../schema/health";
import { orderQueueQuery } from "../../api/custom-orders";
import { CustomOrdersTab } from "./CustomOrdersTab";

const GRINDER = "5f0c2a9e-8d1b-4c3e-9a7f-1b2c3d4e5f60";

const order = (over: Partial<QueuedOrder>): QueuedOrder => ({
  id: 7,
  status: "grinding",
  prefix: "dead",
  suffix: "",
  caseSensitive: false,
  publicKey: `0x04${"11".repeat(64)}`,
  difficultyBits: 16,
  expectedAttempts: "65536",
  price: "0.01",
  buyerWallet: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  ageSeconds: 120,
  createdAt: "2026-12-01T10:00:00.000Z",
  takenAt: "2026-12-01T10:01:00.000Z",
  claim: null,
  progress: null,
  address: null,
  paymentDeadline: null,
  grindDeadline: null,
  ...over,
});

function render(queue: OrderQueue): string {
  const qc = new QueryClient();
  qc.setQueryData(orderQueueQuery("waiting").queryKey, queue);
  const html = renderToStaticMarkup(
    <QueryClientProvider client={qc}>
      <CustomOrdersTab />
    </QueryClientProvider>,
  );
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, " ");
}

describe("Admin > Custom orders in words", () => {
  const now = new Date().toISOString();
  const text = render({
    orders: [order({ id: 7, status: "open" }), order({ id: 8, status: "grinding" }), order({ id: 9, status: "found", address: `0x${"ab".repeat(20)}` })],
    grinders: [{ id: GRINDER, label: "CPU, 1 thread", rate: 1_000_000, orderId: 8, startedAt: now, lastSeenAt: now, online: true }],
  });

  it("says who fills the orders in a sentence, not a command line", () => {
    expect(text).not.toContain("npm run");
    expect(text).toContain("Filled by the grinders listed below");
  });

  it("names a grinder as Admin > Health does, never by its id alone", () => {
    expect(text).toContain(`${grinderName(GRINDER)} on CPU, 1 thread`);
    expect(text).toContain(`(${GRINDER.slice(0, 8)})`);
  });

  it("gives each order's status and the filter in words", () => {
    expect(text).toContain("Waiting for a grinder");
    expect(text).toContain("Being ground");
    expect(text).toContain("Found, waiting for its buyer's payment");
    expect(text).toContain("Waiting or being ground");
    expect(text).not.toMatch(/\b(open|grinding|found) \+/);
    expect(text).not.toContain("(open + grinding)");
  });

  it("an empty list of grinders says what to start, as an instruction", () => {
    const empty = render({ orders: [], grinders: [] });
    expect(empty).toContain("No grinder has reported today: orders wait. Start one on a grinding host with the command npm run grind -- --orders");
  });
});
