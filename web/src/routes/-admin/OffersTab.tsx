// Admin > Offers (docs/offers.md#accepting): the open offers on every listing, closest to the ask first, and the
// accepted ones awaiting payment; each open one with Accept and Decline.
import { useQuery } from "@tanstack/react-query";
import { errorMessage } from "../../api/error-message";
import { receivedOffersQuery } from "../../api/offers";
import { OfferRows } from "../../components/offers/SellerOffers";
import { useViewer } from "../../components/listing/use-viewer";

export function OffersTab() {
  const wallet = useViewer() ?? "";
  const list = useQuery({ ...receivedOffersQuery(wallet), enabled: wallet !== "" });
  return (
    <section aria-labelledby="admin-offers-title">
      <h2 id="admin-offers-title" className="text-xl font-semibold text-white">
        Offers
      </h2>
      <p className="mt-1 text-sm text-slate-400">
        Open offers on every listing, closest to the asking price first. Accepting one reserves the address for its buyer at their price for the usual payment
        window and declines the other offers on it.
      </p>
      {list.isPending ? (
        <p className="mt-4 text-slate-400" role="status">
          Loading offers…
        </p>
      ) : list.isError ? (
        <p className="mt-4 text-red-300" role="alert">
          Offers could not be loaded: {errorMessage(list.error)}
        </p>
      ) : list.data.offers.length === 0 ? (
        <p className="mt-4 rounded-xl border border-dashed border-slate-700 p-6 text-center text-slate-400" data-testid="admin-offers-empty">
          No open offers.
        </p>
      ) : (
        <OfferRows offers={list.data.offers} showListing />
      )}
    </section>
  );
}
