// /api/offers (docs/offers.md): offers below the ask.
//   POST   /                      {addressId, amount, currency, validForHours}: make one (201); signed in
//   GET    /mine                  the caller's offers, newest first (Profile > Offers)
//   DELETE /{id}                  withdraw the caller's own open offer (someone else's: 404)
//   GET    /listing/{id}          public: the count and best amount of a listing's open offers, and the caller's own
//   GET    /listing/{id}/all      the listing's open offers, best first (its seller or an admin)
//   GET    /received              the open and accepted offers on the caller's listings (an admin: all; Admin > Offers)
//   POST   /{id}/accept           reserve the listing for the offer's buyer at the offered price (seller or admin; 201)
//   POST   /{id}/decline          decline an open offer (seller or admin)
// Every answer is private to the caller (no-store): only /listing/{id} is for anyone, and it says no one's offer.
import { Hono } from "hono";
import {
  type AcceptOfferResponse,
  MakeOfferRequest,
  type MyOffersResponse,
  OFFER_WRITE_LIMIT,
  type OfferSummary,
  type OfferView,
  type ReceivedOfferView,
  type ReceivedOffersResponse,
} from "../../schema/offers";
import { requireSession } from "../auth/middleware";
import { requireSecrets } from "../deployment/middleware";
import { validId } from "../http/params";
import { limitSignedIn } from "../http/rate-limit";
import { validate } from "../http/validate";
import { acceptOffer, declineOffer } from "../offers/answer";
import { makeOffer, withdrawOffer } from "../offers/make";
import { listingSummary, offersOf, offersOnListing, receivedOffers } from "../offers/read";
import { requirePaymentSettings } from "../deployment/payment-readiness";
import type { AppEnv } from "../types";

// A returning buyer is counted by wallet alone (docs/public-surface.md#returning-buyers).
const writeLimit = limitSignedIn("offers", OFFER_WRITE_LIMIT, { returningBuyersByWallet: true });

export const offerRoutes = new Hono<AppEnv>()
  .post("/", requireSession, validate("json", MakeOfferRequest), writeLimit, async (c) => {
    const offer = await makeOffer(c.var.db, c.var.session, c.req.valid("json"), c.var.requestInfo.ip);
    return c.json(offer satisfies OfferView, 201);
  })
  .get("/mine", requireSession, async (c) => {
    c.header("Cache-Control", "no-store");
    return c.json({ offers: await offersOf(c.var.db, c.var.session.userId) } satisfies MyOffersResponse);
  })
  .get("/received", requireSession, async (c) => {
    c.header("Cache-Control", "no-store");
    return c.json({ offers: await receivedOffers(c.var.db, c.var.session) } satisfies ReceivedOffersResponse);
  })
  .get("/listing/:id", validId("listing"), async (c) => {
    c.header("Cache-Control", "no-store");
    return c.json((await listingSummary(c.var.db, c.req.valid("param").id, c.var.session)) satisfies OfferSummary);
  })
  .get("/listing/:id/all", validId("listing"), requireSession, async (c) => {
    c.header("Cache-Control", "no-store");
    return c.json({ offers: await offersOnListing(c.var.db, c.var.session, c.req.valid("param").id) } satisfies ReceivedOffersResponse);
  })
  .delete("/:id", validId("offer"), requireSession, writeLimit, async (c) => {
    return c.json((await withdrawOffer(c.var.db, c.var.session, c.req.valid("param").id)) satisfies OfferView);
  })
  // Accepting reserves a purchase: the same guards as any reservation route (secrets, safe payment settings).
  .post("/:id/accept", validId("offer"), requireSecrets, requireSession, requirePaymentSettings, async (c) => {
    const answer = await acceptOffer(c.var.db, c.var.deployment, c.var.session, c.req.valid("param").id, c.var.requestInfo);
    return c.json(answer satisfies AcceptOfferResponse, 201);
  })
  .post("/:id/decline", validId("offer"), requireSession, async (c) => {
    return c.json((await declineOffer(c.var.db, c.var.session, c.req.valid("param").id)) satisfies ReceivedOfferView);
  });
