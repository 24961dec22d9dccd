// usePayment: pays for a purchase from the signed-in wallet and reports the payment to the server.
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import type { PurchaseView } from "../../../../schema/purchases";
import type { MarketConfig } from "../../api/market";
import { errorMessage } from "../../api/error-message";
import { confirmPayment, solanaPaymentTransaction, TRANSACTIONS_KEY } from "../../api/purchases";
import { NETWORK_WALLET } from "../../components/listing/use-buy-flow";
import { toast } from "../../components/toast-store";
import { sameWallet } from "../../wallet/storage";
import { useWalletState } from "../../wallet/wallet-store";
import { describePaymentFailure, PaymentError, type PaymentFailure } from "../../payments/payment-errors";
import { amountToSend } from "./payment-amount";
import { signedInEvmProvider, signedInSolanaWallet } from "./payment-wallets";
import { forgetSentPayment, rememberSentPayment, sentPayment } from "../../payments/sent-payments";

export type PaymentStep =
  | { step: "idle" }
  | { step: "wallet" }
  | { step: "reporting"; hash: string; note: string | null }
  | { step: "failed"; failure: PaymentFailure };

/** How often a sent payment is reported again while its purchase is open or pending. */
export const REPORT_AGAIN_MS = 3000;

const NETWORK_NAME = { ethereum: "Ethereum", solana: "Solana" } as const;

/**
 * Every payment report answers the depth the server just read from the node (the same check that
 * settles the purchase); the page shows it at once rather than at its next read of the purchase, so the count
 * moves with each block instead of jumping from 0 to the key.
 */
function showReportedDepth(
  queryClient: ReturnType<typeof useQueryClient>,
  id: string,
  answer: { status: PurchaseView["status"]; confirmations: number; requiredConfirmations: number },
) {
  queryClient.setQueriesData<PurchaseView>({ queryKey: [TRANSACTIONS_KEY, "one", id] }, (old) =>
    old && (old.status === "initiated" || old.status === "pending") && answer.status === "pending"
      ? { ...old, status: answer.status, confirmations: answer.confirmations, requiredConfirmations: answer.requiredConfirmations }
      : old,
  );
}

/** `reportAgain`: whether the page is still polling (it stops after POLL_LIMIT_MS; "Check again" resumes it). */
export function usePayment(view: PurchaseView, config: MarketConfig | undefined, reportAgain = true) {
  const queryClient = useQueryClient();
  const wallet = useWalletState();
  const resumed = sentPayment(view.id);
  const [state, setState] = useState<PaymentStep>(() =>
    resumed && view.status === "initiated" ? { step: "reporting", hash: resumed, note: null } : { step: "idle" },
  );
  const busy = useRef(false);

  const report = useCallback(
    async (hash: string) => {
      setState({ step: "reporting", hash, note: null });
      try {
        const answer = await confirmPayment(view.id, { txHash: hash, buyerWallet: wallet.address ?? "" });
        showReportedDepth(queryClient, view.id, answer);
        setState({ step: "reporting", hash, note: answer.success ? null : answer.message });
      } catch (err) {
        // The payment is on chain whatever this call says: the server keeps looking for it, and the page
        // keeps polling. Say what happened without calling the payment failed.
        setState({ step: "reporting", hash, note: errorMessage(err) || "The server could not check the payment yet; it keeps looking." });
      }
      await queryClient.invalidateQueries({ queryKey: [TRANSACTIONS_KEY, "one", view.id] });
    },
    [queryClient, view.id, wallet.address],
  );

  // A payment sent before a reload is reported again once; the server's answer is idempotent.
  useEffect(() => {
    if (resumed && view.status === "initiated") void report(resumed);
    if (resumed && view.status !== "initiated") forgetSentPayment(view.id);
  }, []);

  // The server verifies on confirm; a payment not yet mined, indexed or deep enough leaves the purchase open
  // or pending. Report the same hash again every few seconds until the purchase settles or fails, so the key
  // shows seconds after the required depth instead of at the next cron run (docs/payments.md: the cron job is only
  // the safety net). A reloaded page does the same with the hash the server already has.
  const reportingHash = state.step === "reporting" ? state.hash : view.status === "pending" && view.role === "buyer" ? view.txHash : null;
  useEffect(() => {
    if (!reportAgain || !reportingHash || (view.status !== "initiated" && view.status !== "pending") || !wallet.address) return;
    const timer = window.setInterval(() => {
      void confirmPayment(view.id, { txHash: reportingHash, buyerWallet: wallet.address ?? "" })
        .then((answer) => showReportedDepth(queryClient, view.id, answer))
        .catch(() => undefined)
        .then(() => queryClient.invalidateQueries({ queryKey: [TRANSACTIONS_KEY, "one", view.id] }));
    }, REPORT_AGAIN_MS);
    return () => window.clearInterval(timer);
  }, [reportAgain, reportingHash, view.status, view.id, wallet.address, queryClient]);

  const pay = useCallback(async () => {
    if (busy.current) return;
    busy.current = true;
    setState({ step: "wallet" });
    try {
      if (wallet.status !== "connected" || !wallet.address)
        throw new PaymentError("other", "No wallet connected. Connect the wallet you bought with, then try again.");
      if (wallet.network !== view.network) {
        throw new PaymentError(
          "wrong-chain",
          `Wrong network: this purchase is paid on ${NETWORK_NAME[view.network]}, and your wallet is ${NETWORK_WALLET[wallet.network ?? "ethereum"]}.`,
        );
      }
      const payments = config?.payments;
      if (!payments) {
        // A loaded configuration without payments: the server refuses payments (unsafe settings); send nothing.
        throw new PaymentError(
          "other",
          config
            ? "Payments are switched off on this marketplace until its payment settings are fixed. Nothing was sent."
            : "The marketplace's payment settings have not loaded yet. Try again in a moment.",
        );
      }
      const expected = payments[view.network].recipient;
      if (!sameWallet(view.network, expected, view.recipient))
        throw new PaymentError("other", "The payment address of this purchase is not the marketplace's. Nothing was sent; please contact support.");
      const amount = amountToSend(view);
      let hash: string;
      if (view.network === "ethereum") {
        const provider = signedInEvmProvider(wallet.walletType);
        if (!provider) throw new PaymentError("other", "Wallet not connected for payments: the wallet you signed in with is not available in this browser.");
        const { sendEthereumPayment } = await import("../../wallet/pay-ethereum");
        hash = await sendEthereumPayment({
          provider,
          from: wallet.address,
          to: view.recipient,
          valueWei: amount,
          chainId: view.chainId ?? payments.ethereum.chainId,
        });
      } else {
        const solWallet = await signedInSolanaWallet(wallet.walletType);
        if (!solWallet) throw new PaymentError("other", "Wallet not connected for payments: the wallet you signed in with is not available in this browser.");
        const { transaction } = await solanaPaymentTransaction(view.id, wallet.address);
        const { sendSolanaPayment } = await import("../../wallet/pay-solana");
        hash = await sendSolanaPayment({ wallet: solWallet, from: wallet.address, transactionBase64: transaction, cluster: payments.solana.cluster });
      }
      rememberSentPayment(view.id, hash);
      toast({ title: "Payment Sent!", description: "Waiting for the network to confirm it. Your key appears here as soon as it does.", variant: "success" });
      await report(hash);
    } catch (err) {
      const failure = describePaymentFailure(err);
      setState({ step: "failed", failure });
      toast({ title: "Payment Failed", description: failure.message, variant: "destructive" });
    } finally {
      busy.current = false;
    }
  }, [config, report, view, wallet]);

  const reset = useCallback(() => setState({ step: "idle" }), []);
  return { state, pay, reset };
}
