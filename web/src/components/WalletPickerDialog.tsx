import * as Dialog from "@radix-ui/react-dialog";
import type { Network } from "../../../schema/db";
import { type WalletChoice, useWalletChoices, walletChoiceId } from "../wallet/use-wallet-choices";
import { isIphone, isMobileBrowser, openInWalletApp, WALLET_APPS, WALLET_MESSAGES } from "../wallet/wallet-errors";
import { useWalletState } from "../wallet/wallet-store";
import { toast } from "./toast-store";

const NETWORKS: { network: Network; title: string; missing: string }[] = [
  { network: "ethereum", title: "Ethereum", missing: WALLET_MESSAGES.ethereumMissing },
  { network: "solana", title: "Solana", missing: WALLET_MESSAGES.solanaMissing },
];

function WalletRow({ choice, onChoose }: { choice: WalletChoice; onChoose: (id: string) => void }) {
  return (
    <li>
      <button
        type="button"
        onClick={() => onChoose(walletChoiceId(choice))}
        className="flex w-full items-center gap-3 rounded-lg border border-slate-700 px-3 py-2 text-left hover:border-violet-500 hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-violet-400"
      >
        {/* Wallet-supplied icons are data: URIs and only ever go into an <img>, never into the DOM as markup. */}
        {choice.icon ? (
          <img src={choice.icon} alt="" width={28} height={28} className="h-7 w-7 rounded" />
        ) : (
          <span className="h-7 w-7 rounded bg-slate-700" aria-hidden />
        )}
        <span className="font-medium">{choice.name}</span>
      </button>
    </li>
  );
}

/** Lists the wallets this browser offers, per network; explains what to install (or which app to open) when there are none. */
export default function WalletPickerDialog({
  open,
  onOpenChange,
  onChoose,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onChoose: (id: string) => void;
}) {
  const { evm, solana } = useWalletChoices();
  const { error } = useWalletState();
  const mobile = isMobileBrowser();
  const byNetwork = { ethereum: evm, solana } as const;
  const none = evm.length === 0 && solana.length === 0;

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/60" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 w-[min(92vw,28rem)] -translate-x-1/2 -translate-y-1/2 rounded-xl border border-slate-700 bg-slate-900 p-6 shadow-xl">
          <Dialog.Title className="text-lg font-semibold text-white">Connect Wallet</Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-slate-400">
            Choose a wallet and sign the sign-in message. Signing proves you own the address; it sends no transaction and costs nothing.
          </Dialog.Description>

          {error && (
            <p role="alert" className="mt-4 rounded-lg border border-red-700 bg-red-950 p-3 text-sm text-red-200">
              {error}
            </p>
          )}
          {mobile && none && (
            <div role="alert" className="mt-4 space-y-2 rounded-lg border border-amber-700 bg-amber-950 p-3 text-sm text-amber-100">
              <p>{WALLET_MESSAGES.mobileUnavailable}</p>
              {isIphone() && <p>{WALLET_MESSAGES.iphoneGuidance}</p>}
            </div>
          )}

          {NETWORKS.map(({ network, title, missing }) => {
            const wallets = byNetwork[network];
            const app = WALLET_APPS.find((a) => a.network === network)!;
            return (
              <section key={network} className="mt-5">
                <h3 className="text-xs font-semibold tracking-wide text-slate-400 uppercase">{title}</h3>
                {wallets.length > 0 ? (
                  <ul className="mt-2 space-y-2">
                    {wallets.map((w) => (
                      <WalletRow key={w.kind === "evm" ? w.uuid : w.name} choice={w} onChoose={onChoose} />
                    ))}
                  </ul>
                ) : mobile ? (
                  <button
                    type="button"
                    className="mt-2 w-full rounded-lg border border-slate-700 px-3 py-2 text-left text-sm hover:border-violet-500 focus-visible:outline-2 focus-visible:outline-violet-400"
                    onClick={() => {
                      toast({
                        title: `Open ${app.name}`,
                        description: `Install ${app.name} from the app store if you have not, then this page opens in its browser.`,
                      });
                      openInWalletApp(app);
                    }}
                  >
                    Open in {app.name}
                  </button>
                ) : (
                  <p className="mt-2 text-sm text-slate-400">
                    {missing}{" "}
                    <a
                      href={app.download}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="text-violet-300 underline underline-offset-2 hover:text-violet-200"
                    >
                      Get {app.name}
                    </a>
                  </p>
                )}
              </section>
            );
          })}

          <Dialog.Close
            className="absolute top-3 right-3 rounded px-2 text-slate-400 hover:text-white focus-visible:outline-2 focus-visible:outline-violet-400"
            aria-label="Close"
          >
            ×
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
