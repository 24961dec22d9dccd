// "Permanently Destroy Private Key?": the buyer deletes the
// key we hold for a purchase, after importing it elsewhere. Used on the purchase page and in My Purchases; the
// app's one confirmation dialog (ConfirmDialog) with the steps to take first.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { KEY_SHRED_WINDOW_TEXT } from "../../../../schema/purchases";
import { HttpError } from "../../api/http";
import { destroyPrivateKey, TRANSACTIONS_KEY } from "../../api/purchases";
import { readStoredWallet } from "../../wallet/storage";
import { ConfirmDialog } from "../ConfirmDialog";
import { toast } from "../toast-store";

export const DESTROY_TEXT = {
  title: "Permanently Destroy Private Key?",
  notConnectedTitle: "Wallet Not Connected",
  notConnected: "Please connect your wallet to destroy private keys",
  destroyedTitle: "Private Key Destroyed",
  destroyed: "The private key has been permanently removed from our database.",
  failedTitle: "Destruction Failed",
  failed: "Failed to destroy private key",
} as const;

/** Drops every cached copy of the key: the purchase and list reads refresh, the revealed key is forgotten. */
export async function afterKeyDestroyed(queryClient: ReturnType<typeof useQueryClient>, transactionId: string) {
  queryClient.removeQueries({ queryKey: ["purchase-key", transactionId] });
  await queryClient.invalidateQueries({ queryKey: [TRANSACTIONS_KEY] });
}

export function DestroyKeyDialog({ transactionId, trigger, onDestroyed }: { transactionId: string; trigger: ReactNode; onDestroyed?: () => void }) {
  const queryClient = useQueryClient();
  const destroy = useMutation({
    mutationFn: () => destroyPrivateKey(transactionId),
    onSuccess: async () => {
      toast({ title: DESTROY_TEXT.destroyedTitle, description: DESTROY_TEXT.destroyed, variant: "success" });
      await afterKeyDestroyed(queryClient, transactionId);
      onDestroyed?.();
    },
    onError: (err) => {
      if (err instanceof HttpError) toast({ title: DESTROY_TEXT.failedTitle, description: err.serverMessage ?? DESTROY_TEXT.failed, variant: "destructive" });
      else toast({ title: "Error", description: DESTROY_TEXT.failed, variant: "destructive" });
    },
  });

  const [open, setOpen] = useState(false);
  const confirm = () => {
    if (!readStoredWallet().connected) {
      toast({ title: DESTROY_TEXT.notConnectedTitle, description: DESTROY_TEXT.notConnected, variant: "destructive" });
      setOpen(false);
      return;
    }
    destroy.mutate(undefined, { onSettled: () => setOpen(false) });
  };

  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      title={DESTROY_TEXT.title}
      confirmLabel="Permanently Destroy"
      pendingLabel="Destroying..."
      pending={destroy.isPending}
      onConfirm={confirm}
      trigger={trigger}
    >
      <p>Before you destroy the key we hold for you:</p>
      <ol className="list-decimal space-y-1 pl-5">
        <li>Import the private key into your wallet (or save the keystore / keypair file).</li>
        <li>Verify that the wallet opens this address and that you can access it.</li>
        <li>Understand that this cannot be undone: once destroyed, we can never show you the key again.</li>
      </ol>
      <p className="rounded-lg border border-slate-700 bg-slate-950 p-3 text-xs text-slate-400" data-testid="shred-window">
        {KEY_SHRED_WINDOW_TEXT}
      </p>
    </ConfirmDialog>
  );
}
