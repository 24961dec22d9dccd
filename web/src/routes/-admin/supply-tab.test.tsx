// Admin > Supply as it renders: loading, no targets, and targets with their stock, rate and time to fill in words,
// each with its actions (delete behind a confirmation), and the form at the cap.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { SupplyTargetList, SupplyTargetView } from "../../../../schema/supply";
import { supplyTargetsQuery } from "../../api/supply";
import { SupplyTab } from "./SupplyTab";

const target = (over: Partial<SupplyTargetView>): SupplyTargetView => ({
  id: 1,
  network: "ethereum",
  category: "leading-zeros",
  patternLength: 7,
  price: "0.05",
  currency: "ETH",
  wanted: 20,
  status: "active",
  stock: 5,
  rate: 2_000_000,
  openClaims: 2,
  expectedAttempts: String(16 ** 7),
  secondsToFill: (15 * 16 ** 7) / 2_000_000,
  createdAt: "2026-12-01T10:00:00.000Z",
  updatedAt: "2026-12-01T10:00:00.000Z",
  ...over,
});

function render(list?: SupplyTargetList): string {
  const qc = new QueryClient();
  if (list) qc.setQueryData(supplyTargetsQuery().queryKey, list);
  return renderToStaticMarkup(
    <QueryClientProvider client={qc}>
      <SupplyTab />
    </QueryClientProvider>,
  );
}

describe("Admin > Supply", () => {
  it("says it is loading before the targets come", () => {
    expect(render()).toContain("Loading the targets…");
  });

  it("says there are no targets yet, with the form to add one", () => {
    const html = render({ targets: [], maxTargets: 50 });
    expect(html).toContain("No targets yet");
    expect(html).toContain("Add target");
  });

  it("shows each target in words: shape, price, stock of wanted, rate, time to fill, and its actions", () => {
    const html = render({
      targets: [
        target({}),
        target({
          id: 2,
          network: "solana",
          category: "trailing-zeros",
          patternLength: 4,
          currency: "SOL",
          expectedAttempts: String(58 ** 4),
          status: "paused",
          rate: 0,
          openClaims: 0,
          secondsToFill: null,
        }),
      ],
      maxTargets: 50,
    });
    expect(html).toContain("Ethereum, 7 or more leading zeros (0000000…)");
    expect(html).toContain("at 0.05 ETH each");
    expect(html).toMatch(/>5<\/span> of 20 in stock/);
    expect(html).toContain("2 million keys a second from 2 grinders");
    expect(html).toContain("Full in about 34 minutes at the current rate");
    expect(html).toContain("Solana, 4 or more trailing zeros (…1111)");
    expect(html).toContain("Paused: no grinder takes it");
    expect(html).toContain("Resume");
    expect(html.match(/aria-haspopup="dialog"[^>]*>Delete</g)).toHaveLength(2);
  });

  it("turns the form off at the cap and says why", () => {
    const html = render({ targets: [target({})], maxTargets: 1 });
    expect(html).toContain("the most it keeps; delete one to add another");
    expect(html).toMatch(/<button type="submit"[^>]*disabled=""[^>]*>Add target/);
  });
});
