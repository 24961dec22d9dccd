import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { toast } from "../components/toast-store";
import { adminStatusQuery } from "./use-admin-status";
import { verifySignIn, requestNonce } from "./auth-api";
import { storeWallet } from "./storage";
import type { WalletChoice } from "./use-wallet-choices";
import { walletChoiceId } from "./use-wallet-choices";
import { followEvmWallet, followSolanaWallet } from "./wallet-events";
import { describeWalletError, isUserRejection, WALLET_MESSAGES, WalletError } from "./wallet-errors";
import { replaceWalletState, setWalletState } from "./wallet-store";

/** Connects a wallet and signs in with it (SIWE or SIWS); the cookie the server sets is the session. */
export function useSignIn(): (choice: WalletChoice) => Promise<boolean> {
  const queryClient = useQueryClient();
  return useCallback(
    async (choice) => {
      replaceWalletState({ status: "connecting", error: null });
      try {
        let signed: { address: string; chainId: number | null; session: Awaited<ReturnType<typeof verifySignIn>> };
        if (choice.kind === "evm") {
          const evm = await import("./evm-connector");
          const { address, chainId } = await evm.requestEvmAccount(choice.provider);
          const { message } = await requestNonce({ network: "ethereum", address });
          const signature = await evm.signEvmMessage(choice.provider, address, message!);
          signed = { address, chainId, session: await verifySignIn({ network: "ethereum", message: message!, signature }) };
        } else {
          const sol = await import("./solana-connector");
          const { address, message, signature } = await sol.signInWithSolanaWallet(choice.wallet);
          signed = { address, chainId: null, session: await verifySignIn({ network: "solana", message, signature, address }) };
        }
        if (!signed.session.authenticated) throw new WalletError(WALLET_MESSAGES.failed);

        const network = choice.kind === "evm" ? "ethereum" : "solana";
        const walletType = walletChoiceId(choice);
        storeWallet({ address: signed.address, network, type: walletType }, true);
        replaceWalletState({
          status: "connected",
          address: signed.address,
          network,
          walletType,
          chainId: signed.chainId,
          user: signed.session.user,
          error: null,
        });
        if (choice.kind === "evm") followEvmWallet(choice.provider);
        else followSolanaWallet(choice.wallet);
        // The server just decided the role for this wallet; seed the admin-status cache with it so the
        // button shows the right label at once instead of after a second request.
        const user = signed.session.user;
        queryClient.setQueryData(adminStatusQuery(signed.address).queryKey, { isAdmin: user.isAdmin, userExists: true });
        return true;
      } catch (err) {
        if (isUserRejection(err)) {
          // Saying no in the wallet is a choice, not a failure: a calm note, and back to where we were.
          setWalletState({ status: "idle", error: null });
          toast({ title: WALLET_MESSAGES.rejectedTitle, description: WALLET_MESSAGES.rejected });
          return false;
        }
        const message = describeWalletError(err);
        console.warn("wallet connection failed:", err instanceof Error ? err.message : err);
        setWalletState({ status: "error", error: message });
        toast({ title: WALLET_MESSAGES.failed, description: message === WALLET_MESSAGES.failed ? undefined : message, variant: "destructive" });
        return false;
      }
    },
    [queryClient],
  );
}
