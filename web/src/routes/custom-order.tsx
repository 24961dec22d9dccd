// /custom-order: order an Ethereum address with your own pattern, made with split keys so that only
// you ever hold its private key. Pattern and live quote first; then the secret (made and kept in this page,
// saved as an encrypted file); then the order, which sends only the public key.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createFileRoute, Link, useNavigate } from "@tanstack/react-router";
import { useDeferredValue, useId, useState } from "react";
import { orderPatternProblems } from "../../../schema/custom-order-pattern";
import { publicKeyOf, randomSecret } from "../../../schema/split-key";
import { ORDERS_KEY, orderQuoteQuery, placeOrder } from "../api/custom-orders";
import { HttpError } from "../api/http";
import { ConnectWalletButton } from "../components/ConnectWalletButton";
import { EMPTY_PATTERN, type PatternInput, PatternFields, PatternProblems } from "../components/PatternFields";
import { useUsdRates } from "../components/use-usd-rates";
import { usdText } from "../lib/number-format";
import { compactNumber, formatDuration } from "../lib/duration";
import { useWallet } from "../wallet/use-wallet";
import { quoteGrinderNote } from "./-custom-order/grinding-status";
import { readPattern, whyNotPlaceable } from "./-custom-order/order-rules";
import { type SavedKeyFile, SecretKeyStep } from "./-custom-order/SecretKeyStep";
import { PowerOfTwo } from "../components/PowerOfTwo";

export const Route = createFileRoute("/custom-order")({
  component: CustomOrderPage,
});

function CustomOrderPage() {
  const id = useId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const wallet = useWallet();
  const [typed, setTyped] = useState<PatternInput>(EMPTY_PATTERN);
  const { caseSensitive } = typed;
  // Made once per visit with the browser's CSPRNG (crypto.getRandomValues via @noble); never sent anywhere.
  const [secret] = useState(randomSecret);
  const [saved, setSaved] = useState<SavedKeyFile | null>(null);
  const [confirmed, setConfirmed] = useState(false);

  const { pattern, problems, bits } = readPattern(typed);
  const deferred = useDeferredValue(pattern);
  // The deferred pattern may still be an invalid one typed a moment ago: ask only for well-formed patterns.
  const rates = useUsdRates();
  const quote = useQuery({
    ...orderQuoteQuery(deferred),
    enabled: problems.length === 0 && orderPatternProblems(deferred).length === 0,
    placeholderData: keepPreviousData,
  });
  const current =
    quote.data && quote.data.prefix === pattern.prefix && quote.data.suffix === pattern.suffix && quote.data.caseSensitive === caseSensitive
      ? quote.data
      : null;

  const place = useMutation({
    mutationFn: () => placeOrder({ ...pattern, publicKey: publicKeyOf(secret), price: current!.price }),
    onSuccess: (order) => {
      void queryClient.invalidateQueries({ queryKey: [ORDERS_KEY] });
      void navigate({ to: "/custom-orders/$id", params: { id: String(order.id) } });
    },
    onError: (e) => {
      if (e instanceof HttpError && e.status === 409) void queryClient.invalidateQueries({ queryKey: [ORDERS_KEY, "quote"] });
    },
  });

  const grinderNote = current ? quoteGrinderNote(current, Date.now()) : null;

  const walletKind = !wallet.isConnected ? "none" : wallet.network === "solana" ? "solana" : "ethereum";
  const blocker = whyNotPlaceable({
    patternOk: problems.length === 0,
    refusal: current?.refusal ?? null,
    quoteReady: current !== null,
    wallet: walletKind,
    keyFileSaved: saved !== null,
    confirmed,
  });

  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-bold text-white">Order a Custom Address</h1>
      <p className="mt-2 text-slate-400">
        Choose how your Ethereum address should start and end. Our grinder searches for it, and the private key is made with split keys: your browser keeps a
        secret, we only ever see its public half, so <strong className="text-slate-200">the finished key is known to you alone</strong>.
      </p>
      <p className="mt-2 text-sm text-slate-400">
        Only a few characters?{" "}
        <Link to="/grind" className="text-violet-300 underline hover:text-violet-200">
          Grind it yourself in your browser
        </Link>{" "}
        on your own GPU, free and at once.
      </p>

      <section aria-labelledby={`${id}-pattern`} className="mt-8 rounded-2xl border border-slate-800 bg-slate-900/60 p-5">
        <h2 id={`${id}-pattern`} className="text-lg font-semibold text-white">
          1. Your pattern
        </h2>
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          <PatternFields
            id={id}
            value={typed}
            onChange={setTyped}
            prefixLabel="Starts with (after 0x)"
            placeholders={{ prefix: "dead", suffix: "beef" }}
            caseHint={
              <>
                Match letter case exactly (EIP-55 checksum case, e.g. <span className="font-mono">DeAd</span>). Each letter then doubles the work.
              </>
            }
          />
        </div>
        <PatternProblems value={typed} problems={problems} />
        {problems.length === 0 && (
          <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="order-quote" aria-live="polite">
            <Stat label="Your address">
              <span className="font-mono break-all">
                0x{pattern.prefix}…{pattern.suffix}
              </span>
            </Stat>
            <Stat label="Difficulty">
              <PowerOfTwo bits={bits} />
            </Stat>
            <Stat label="Expected attempts">{compactNumber(2 ** bits)}</Stat>
            <Stat label="Estimated time">{current ? formatDuration(current.estimatedSeconds) : "…"}</Stat>
          </dl>
        )}
        {current && !current.refusal && (
          <p className="mt-4 text-lg text-white">
            Price: <strong data-testid="order-price">{current.price} ETH</strong>{" "}
            <span className="text-base text-slate-300" data-testid="order-price-usd">
              ≈ {usdText(current.price, "ETH", rates)}
            </span>
            <span className="ml-2 text-sm text-slate-400">
              {current.rateSource === "running"
                ? `time at the grinder running now, which checks ${compactNumber(current.grindRate)} addresses a second`
                : `time at our grinder's rate of ${compactNumber(current.grindRate)} addresses a second`}
              ; paid once the address is found
            </span>
          </p>
        )}
        {current && !current.refusal && grinderNote && (
          <p className="mt-3 rounded-lg border border-amber-700/60 bg-amber-950/30 p-3 text-sm text-amber-100" role="status" data-testid="order-grinder-note">
            {grinderNote}
          </p>
        )}
        {current?.refusal && (
          <p className="mt-4 rounded-lg border border-red-700/60 bg-red-950/40 p-3 text-sm text-red-200" role="alert">
            {current.refusal}
          </p>
        )}
        {quote.isError && <p className="mt-3 text-sm text-red-300">The price could not be loaded; check your connection.</p>}
      </section>

      <section aria-labelledby={`${id}-secret`} className="mt-6 rounded-2xl border border-slate-800 bg-slate-900/60 p-5">
        <h2 id={`${id}-secret`} className="text-lg font-semibold text-white">
          2. Your secret key file
        </h2>
        <div className="mt-3">
          <SecretKeyStep secret={secret} saved={saved} onSaved={setSaved} />
        </div>
        <label className="mt-4 flex items-start gap-2 text-sm text-slate-300">
          <input type="checkbox" checked={confirmed} disabled={!saved} onChange={(e) => setConfirmed(e.target.checked)} className="mt-1" />
          <span>I saved the file and will remember its password. Without both, the address can never be used, and nobody can recover it.</span>
        </label>
      </section>

      <section aria-labelledby={`${id}-place`} className="mt-6 rounded-2xl border border-slate-800 bg-slate-900/60 p-5">
        <h2 id={`${id}-place`} className="text-lg font-semibold text-white">
          3. Place the order
        </h2>
        {walletKind === "none" && (
          <div className="mt-3">
            <ConnectWalletButton />
          </div>
        )}
        {blocker && <p className="mt-3 text-sm text-slate-400">{blocker}</p>}
        <button
          type="button"
          disabled={blocker !== null || place.isPending}
          onClick={() => place.mutate()}
          className="mt-4 rounded-lg bg-violet-600 px-5 py-2.5 font-semibold text-white hover:bg-violet-500 disabled:cursor-not-allowed disabled:opacity-50"
        >
          {place.isPending ? "Placing…" : current && !current.refusal ? `Place order for ${current.price} ETH` : "Place order"}
        </button>
        {place.isError && (
          <p className="mt-3 text-sm text-red-300" role="alert">
            {place.error instanceof HttpError ? (place.error.serverMessage ?? place.error.message) : "The order could not be placed; try again."}
          </p>
        )}
        <p className="mt-4 text-xs text-slate-500">
          You pay only once the address is found, within 72 hours; after payment this site gives you the offset and your browser, with your file and password,
          makes the key. Follow your orders under{" "}
          <Link to="/profile" className="text-violet-300 underline">
            Profile
          </Link>
          .
        </p>
      </section>

      <aside className="mt-6 rounded-2xl border border-slate-800 p-5 text-sm text-slate-400">
        <h2 className="font-semibold text-slate-200">Why not Solana?</h2>
        <p className="mt-1">
          A Solana key is an Ed25519 seed, and the secret scalar behind the address is a hash of that seed. Adding an offset to a hashed value gives no valid
          seed, so split-key orders cannot work for Solana; our Solana addresses are sold as ready-made listings instead.
        </p>
      </aside>
    </div>
  );
}

function Stat({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs tracking-wide text-slate-400 uppercase">{label}</dt>
      <dd className="mt-0.5 text-sm text-slate-100">{children}</dd>
    </div>
  );
}
