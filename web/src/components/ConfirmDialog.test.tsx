import * as Dialog from "@radix-ui/react-dialog";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { confirmWords } from "../routes/-admin/ListingRow";
import { AcceptTerms, DeclineTerms } from "./offers/SellerOffers";
import { WithdrawOffer } from "./offers/WithdrawOffer";
import { ConfirmBody } from "./ConfirmDialogPanel";
import { DeleteSavedSearch } from "./profile/SavedSearches";
import { RemoveWatched } from "./profile/Watchlist";

const body = (props: Partial<Parameters<typeof ConfirmBody>[0]> = {}) =>
  renderToStaticMarkup(
    <Dialog.Root open>
      <ConfirmBody title="Delete this listing?" confirmLabel="Delete listing" onConfirm={() => {}} {...props}>
        <p>This cannot be undone.</p>
      </ConfirmBody>
    </Dialog.Root>,
  );

describe("ConfirmBody: the one confirmation's inside", () => {
  it("the title, what happens, the way out first and focused, then the action by name", () => {
    const html = body();
    expect(html).toMatch(/<h2[^>]*>Delete this listing\?<\/h2>/);
    expect(html).toContain("<p>This cannot be undone.</p>");
    const cancel = html.indexOf(">Cancel</button>");
    const action = html.indexOf(">Delete listing</button>");
    expect(cancel).toBeGreaterThan(-1);
    expect(action).toBeGreaterThan(cancel);
    expect(html).toMatch(/<button type="button"[^>]*autofocus=""[^>]*>Cancel<\/button>/i);
  });

  it("while the action runs: both buttons disabled, the pending words shown", () => {
    const html = body({ pending: true, pendingLabel: "Deleting..." });
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*>Cancel<\/button>/);
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*aria-busy="true"[^>]*>Deleting...<\/button>/);
  });

  it("an input the action needs sits under the explanation, apart from it, and the action waits for it", () => {
    const html = body({ field: <textarea aria-label="Note" />, confirmDisabled: true });
    const description = html.slice(html.indexOf("<div"), html.indexOf("</div>") + 6);
    expect(description).not.toContain("textarea");
    expect(html.indexOf("<textarea")).toBeGreaterThan(html.indexOf("This cannot be undone."));
    expect(html).toMatch(/<button type="button" disabled=""[^>]*>Delete listing<\/button>/);
    expect(body()).toMatch(/<button type="button"[^>]*>Delete listing<\/button>/);
    expect(body()).not.toMatch(/<button type="button" disabled=""[^>]*>Delete listing<\/button>/);
  });

  it("a way out that says what it keeps, when Cancel would be ambiguous", () => {
    expect(body({ title: "Cancel this purchase?", confirmLabel: "Yes, Cancel Purchase", cancelLabel: "Keep Reservation" })).toContain(
      ">Keep Reservation</button>",
    );
  });
});

describe("every destructive action asks through ConfirmDialog", () => {
  const src = (path: string) => readFileSync(join(import.meta.dirname, "..", path), "utf8");
  it.each([
    ["accept offer", "components/offers/SellerOffers.tsx"],
    ["cancel order", "routes/custom-orders.$id.tsx"],
    ["cancel purchase", "routes/-purchase/PaymentPanel.tsx"],
    ["delete (owner)", "components/listing/OwnerControls.tsx"],
    ["delete (admin)", "routes/-admin/ListingsTab.tsx"],
    ["destroy key", "components/purchase/DestroyKeyDialog.tsx"],
    ["remove from the watchlist", "components/profile/Watchlist.tsx"],
    ["delete a saved search", "components/profile/SavedSearches.tsx"],
    ["close a purchase (admin)", "routes/-purchase/AdminClosePurchase.tsx"],
    ["decline an offer", "components/offers/SellerOffers.tsx"],
    ["withdraw an offer", "components/offers/WithdrawOffer.tsx"],
  ])("%s: %s", (_what, path) => {
    const text = src(path);
    expect(text).toContain("<ConfirmDialog");
    expect(text).not.toMatch(/window\.confirm|@radix-ui\/react-dialog/);
  });

  it("removing a watched address and deleting a saved search: the button only opens the confirmation, nothing is done on render", () => {
    let calls = 0;
    const count = () => {
      calls++;
    };
    for (const html of [
      renderToStaticMarkup(<RemoveWatched address="0x1234567890abcdef1234567890abcdef12345678" pending={false} onRemove={count} />),
      renderToStaticMarkup(<DeleteSavedSearch name="Starts with dead" pending={false} onDelete={count} />),
    ]) {
      // One button, marked as opening a dialog (closed), and no dialog or confirming button yet.
      expect(html.match(/<button/g)).toHaveLength(1);
      expect(html).toMatch(/aria-haspopup="dialog" aria-expanded="false"/);
      expect(html).not.toContain("confirm-action");
    }
    expect(calls).toBe(0);
  });

  it("no button answers, withdraws, removes or deletes on its own click: each only opens its confirmation", () => {
    for (const path of ["components/offers/SellerOffers.tsx", "components/offers/OfferPanel.tsx", "components/profile/MyOffers.tsx"]) {
      expect(src(path)).not.toMatch(/onClick=\{\(\) => (answer|withdraw|remove)\.mutate/);
    }
    for (const path of ["components/offers/OfferPanel.tsx", "components/profile/MyOffers.tsx"]) expect(src(path)).toContain("<WithdrawOffer");
    let calls = 0;
    const html = renderToStaticMarkup(
      <WithdrawOffer
        amount="0.015 ETH"
        pending={false}
        onWithdraw={() => calls++}
        trigger={
          <button type="button" onClick={() => calls++}>
            Withdraw offer
          </button>
        }
      />,
    );
    expect(html).toBe('<button type="button" aria-haspopup="dialog" aria-expanded="false">Withdraw offer</button>');
    expect(calls).toBe(0);
  });

  it("declining an offer says it ends for good and its buyer is told", () => {
    const text = renderToStaticMarkup(
      <DeclineTerms offer={{ amount: "0.0150", currency: "ETH", buyerWallet: "0x1234567890abcdef1234567890abcdef12345678" }} />,
    ).replace(/<[^>]+>/g, "");
    expect(text).toContain("The offer of 0.015 ETH from 0x123456...345678 ends and cannot be accepted later; its buyer is told.");
  });

  it("an admin's deactivate asks as its own action (until activated again), delete as one that cannot be undone", () => {
    expect(confirmWords({ action: "deactivate", kind: "one" })).toEqual({
      title: "Deactivate this listing?",
      confirmLabel: "Deactivate listing",
      tone: "primary",
    });
    expect(confirmWords({ action: "deactivate", kind: "selected", count: 3 })).toEqual({
      title: "Deactivate 3 selected listings?",
      confirmLabel: "Deactivate listings",
      tone: "primary",
    });
    expect(confirmWords({ action: "delete", kind: "selected", count: 1 })).toEqual({
      title: "Delete 1 selected listing?",
      confirmLabel: "Delete listings",
      tone: "danger",
    });
    expect(confirmWords({ action: "delete", kind: "one" })).toMatchObject({ title: "Delete this listing?", tone: "danger" });
  });

  it("accepting an offer says its terms: the price, the payment window, the other offers paused", () => {
    const html = renderToStaticMarkup(
      <AcceptTerms offer={{ amount: "0.0150", ask: "0.02", currency: "ETH", buyerWallet: "0x1234567890abcdef1234567890abcdef12345678" }} />,
    );
    const text = html.replace(/<[^>]+>/g, "");
    expect(text).toContain("0.015 ETH");
    expect(text).toContain("75% of your 0.02 ETH ask");
    expect(text).toContain("15 minutes to pay");
    expect(text).toContain("Every other open offer on this address is paused: declined if this sale completes, open again if it does not");
  });
});
