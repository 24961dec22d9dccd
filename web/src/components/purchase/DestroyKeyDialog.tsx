// "Permanently Destroy Private Key?": the buyer deletes the
// key we hold for a purchase, after importing it elsewhere. Used on the purchase page and in My Purchases.
import * as Dialog from "@radix-ui/react-dialog";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { KEY_SHRED_WINDOW_TEXT } from "../../../../schema/purchases";
import { HttpError } from "../../api/http";
import { destroyPrivateKey, TRANSACTIONS_KEY } from "../../api/purchases";
import { readStoredWallet } from "../../wallet/storage";
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
    <Dialog.Root open={open} onOpenChange={(next) => !destroy.isPending && setOpen(next)}>
      <Dialog.Trigger asChild>{trigger}</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/70" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 max-h-[90vh] w-[min(94vw,32rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl border border-red-800 bg-slate-900 p-6 shadow-xl">
          <Dialog.Title className="text-lg font-semibold text-white">{DESTROY_TEXT.title}</Dialog.Title>
          <Dialog.Description asChild>
            <div className="mt-3 space-y-3 text-sm text-slate-300">
              <p>Before you destroy the key we hold for you:</p>
              <ol className="list-decimal space-y-1 pl-5">
                <li>Import the private key into your wallet (or save the keystore / keypair file).</li>
                <li>Verify that the wallet opens this address and that you can access it.</li>
                <li>Understand that this cannot be undone: once destroyed, we can never show you the key again.</li>
              </ol>
              <p className="rounded-lg border border-slate-700 bg-slate-950 p-3 text-xs text-slate-400" data-testid="shred-window">
                {KEY_SHRED_WINDOW_TEXT}
              </p>
            </div>
          </Dialog.Description>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Dialog.Close asChild>
              <button
                type="button"
                className="rounded-lg border border-slate-700 px-4 py-2 text-sm font-semibold text-slate-200 hover:border-slate-500 focus-visible:outline-2 focus-visible:outline-violet-400"
              >
                Cancel
              </button>
            </Dialog.Close>
            <button
              type="button"
              disabled={destroy.isPending}
              onClick={confirm}
              className="rounded-lg bg-red-600 px-4 py-2 text-sm font-semibold text-white hover:bg-red-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-400 disabled:cursor-wait disabled:opacity-70"
            >
              {destroy.isPending ? "Destroying..." : "Permanently Destroy"}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
