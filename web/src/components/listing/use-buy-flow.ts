import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useEffect, useRef, useState } from "react";
import type { ListingView } from "../../../../schema/browse";
import { startPurchaseMutation } from "../../api/purchases";
import { requestAutoPay } from "../../payments/sent-payments";
import { getWalletState } from "../../wallet/wallet-store";
import { readStoredWallet } from "../../wallet/storage";
import { toast } from "../toast-store";
import { purchaseStartMessage } from "./purchase-start-message";

/** The card's pause before the buy flow starts, and the wait before a wallet-less buyer is sent to /profile. */
export const BUY_START_DELAY_MS = 500;
export const WALLET_REDIRECT_DELAY_MS = 2000;

export type BuyPhase = "idle" | "checking" | "redirecting" | "initiating" | "creating";

/** Buying needs a connected wallet: walletAddress stored and isWalletConnected "true". */
export const hasConnectedWallet = () => readStoredWallet().connected;

/** The buy button's text in each phase of the flow. */
export function buyPhaseLabel(phase: BuyPhase, idleLabel: string): string {
  switch (phase) {
    case "checking":
      return "Checking wallet...";
    case "redirecting":
      return "Redirecting to profile...";
    case "initiating":
      return "Initiating transaction...";
    case "creating":
      return "Creating transaction...";
    case "idle":
      return idleLabel;
  }
}

/**
 * Where a buy button starts the purchase:
 * - "card": POST /api/transactions/initiate; no wallet -> "Wallet Required" toast and /profile after 2 s;
 *   failure -> "Failed to initiate transaction: {message}".
 * - "table": the same call; no wallet -> the marketplace's alert, no call; failure -> an alert with the
 *   server's text.
 * - "detail": POST /api/transactions {addressId, buyerId}; failure -> "Purchase Failed".
 */
export type BuyVariant = "card" | "table" | "detail";

const NETWORK_NAME = { ethereum: "Ethereum", solana: "Solana" } as const;
/** "an Ethereum wallet", "a Solana wallet" (the message said "a Ethereum"). */
export const NETWORK_WALLET = { ethereum: "an Ethereum wallet", solana: "a Solana wallet" } as const;

/** What a buyer signed in on the other network is told. */
export const wrongNetworkMessage = (network: keyof typeof NETWORK_NAME) =>
  `This address is sold on ${NETWORK_NAME[network]}. Connect ${NETWORK_WALLET[network]} to buy it.`;

/**
 * The buy flow: a 500 ms pause, the wallet check, "Initiating transaction..." (the wallet is the listing's
 * network), "Creating transaction..." (the reservation call), then the "Transaction Created!" toast and the
 * purchase page, which opens the wallet to pay. Any failure says why and returns to idle.
 */
export function useBuyFlow(listing: ListingView, variant: BuyVariant) {
  // The steps before the call (the pause, the wallet check) are the flow's own; the reservation call itself
  // is a mutation, and "Creating transaction..." is its pending state.
  const [step, setStep] = useState<Exclude<BuyPhase, "creating">>("idle");
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const reservation = useMutation(startPurchaseMutation(queryClient));
  const phase: BuyPhase = reservation.isPending ? "creating" : step;
  const timers = useRef<number[]>([]);
  useEffect(() => () => timers.current.forEach((t) => window.clearTimeout(t)), []);
  const wait = (ms: number) => new Promise<void>((resolve) => timers.current.push(window.setTimeout(resolve, ms)));

  const fail = (message: string) => {
    setStep("idle");
    if (variant === "table") window.alert(message || "Failed to create transaction");
    else if (variant === "detail") toast({ title: "Purchase Failed", description: message || "Unable to create transaction", variant: "destructive" });
    else toast({ title: `Failed to initiate transaction: ${message || "Unable to create transaction"}`, variant: "destructive" });
  };

  const start = async () => {
    if (phase !== "idle") return;
    if (variant === "table" && !hasConnectedWallet()) {
      window.alert("Please connect your wallet first to make a purchase.");
      return;
    }
    setStep("checking");
    await wait(BUY_START_DELAY_MS);
    if (!hasConnectedWallet()) {
      toast({ title: "Wallet Required", description: "Please connect your wallet to purchase this address." });
      setStep("redirecting");
      await wait(WALLET_REDIRECT_DELAY_MS);
      // Back to this listing once the wallet is connected, not left on the profile.
      void navigate({ to: "/profile", search: { returnTo: listing.id } });
      return;
    }
    setStep("initiating");
    const wallet = getWalletState();
    const buyer = wallet.address ?? readStoredWallet().address;
    const network = wallet.network ?? readStoredWallet().network;
    if (!buyer) return fail("Wallet not connected");
    if (network && network !== listing.network) {
      return fail(wrongNetworkMessage(listing.network));
    }
    let transactionId: string;
    try {
      transactionId = await reservation.mutateAsync({
        via: variant === "detail" ? "create" : "initiate",
        addressId: listing.id,
        buyerId: buyer,
        price: listing.price,
        currency: listing.currency,
      });
    } catch (err) {
      return fail(purchaseStartMessage(err, listing.currency));
    }
    toast({ title: "Transaction Created!", description: "Redirecting to transaction page to complete purchase...", variant: "success" });
    requestAutoPay(transactionId);
    setStep("idle");
    if (variant === "detail") void navigate({ to: "/transaction/$transactionId", params: { transactionId } });
    else void navigate({ to: "/secure-transaction/$transactionId", params: { transactionId } });
  };

  return { phase, start: () => void start() };
}
