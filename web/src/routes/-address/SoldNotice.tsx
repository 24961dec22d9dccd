// A sold listing says when and for how much it sold, and links to the sale's page (/sale/{id}), where the
// purchase breakdown would otherwise only say it cannot be bought. The sale comes with the listing's context
// (GET /api/addresses/{id}/context, `sale`), which the page reads anyway.
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import type { ListingView, PublicSale } from "../../../../schema/browse";
import { listingContextQuery } from "../../api/listing-context";
import { useViewer } from "../../components/listing/use-viewer";
import { formatUtcDay } from "../../lib/date-format";
import { formatPriceTrimmed } from "../../lib/number-format";

/** The sold line itself: the day (UTC: a public sale says its day, never its time), the price, and the link to the sale. */
export function SoldSale({ sale }: { sale: PublicSale }) {
  return (
    <p className="text-sm text-slate-300" data-testid="sold-notice">
      Sold on <time dateTime={sale.soldOn}>{formatUtcDay(sale.soldOn)}</time> for{" "}
      <span className="font-semibold text-white">
        {formatPriceTrimmed(sale.price)} {sale.currency}
      </span>
      .{" "}
      <Link
        to="/sale/$id"
        params={{ id: sale.id }}
        className="font-semibold text-violet-300 underline underline-offset-2 hover:text-violet-200 focus-visible:outline-2 focus-visible:outline-violet-400"
      >
        See the sale
      </Link>
    </p>
  );
}

/** Under a sold listing's breakdown: the sale once the context has it, else the plain "sold" words. */
export function SoldNotice({ listing }: { listing: ListingView }) {
  const context = useQuery(listingContextQuery(String(listing.id), useViewer()));
  const sale = context.data?.sale ?? null;
  if (sale) return <SoldSale sale={sale} />;
  return <p className="text-sm text-amber-300">This address has been sold.</p>;
}
