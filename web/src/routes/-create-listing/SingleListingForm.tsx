// The single-listing form's four sections (the market prices, the fee breakdown and the listing type in PricingParts.tsx).
// The private key lives only in this component's state: it is sent to verify-ownership and with the
// listing, cleared after every submit, and never stored or logged.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { type FormEvent, useEffect, useId, useState } from "react";
import type { AddressCheckResponse } from "../../../../schema/api";
import type { Network } from "../../../../schema/db";
import { OWNERSHIP_MESSAGES, type PromotionType } from "../../../../schema/listings";
import { priceWarnings } from "../../../../schema/price-advice";
import { HttpError } from "../../api/http";
import { addressCheckQuery, createListing, listingChangeMutation, verifyOwnershipMutation } from "../../api/listings-admin";
import { feesQuery, livePricesQuery } from "../../api/market";
import { toast } from "../../components/toast-store";
import { categoryWords } from "../../lib/category-words";
import { formatUsd } from "../../lib/number-format";
import { useDebounced } from "../../components/use-debounced";
import { patternText } from "../../lib/pattern-ranges";
import { priceError } from "../../lib/price-input";
import { FeeBreakdown, ListingOptions, LiveMarketPrices } from "./PricingParts";
import { FEE_PREVIEW_DELAY_MS, formNetwork, VALIDATE_MIN_LENGTH } from "./form-rules";
import { currencyOf } from "../../../../schema/network";

type Validation =
  | { state: "idle" }
  | { state: "validating" }
  | { state: "valid"; result: Extract<AddressCheckResponse, { isValid: true }> }
  | { state: "invalid"; message: string }
  | { state: "failed" };

/** The live check waits for this pause in typing. */
const VALIDATE_PAUSE_MS = 300;

const input =
  "w-full rounded-lg border border-slate-700 bg-slate-950 px-3 py-2 text-sm text-white placeholder:text-slate-400 focus:border-violet-500 focus:outline-none focus-visible:ring-2 focus-visible:ring-violet-500/40";
const label = "mb-1 block text-sm font-medium text-slate-300";

export function SingleListingForm({ isAdmin }: { isAdmin: boolean }) {
  const id = useId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [address, setAddress] = useState("");
  const [chosenNetwork, setNetwork] = useState<Network>("ethereum");
  const [price, setPrice] = useState("");
  const [priceTouched, setPriceTouched] = useState(false);
  const [privateKey, setPrivateKey] = useState("");
  const [showKey, setShowKey] = useState(false);
  const [keyError, setKeyError] = useState<string | null>(null);
  const [promotionType, setPromotionType] = useState<PromotionType>("standard");
  // An address with no notable pattern is listed only once the admin ticks that they mean it (the API asks too).
  const [confirmNoPattern, setConfirmNoPattern] = useState(false);
  const trimmed = address.trim();
  const { network, locked: networkLocked } = formNetwork(trimmed, chosenNetwork);
  const currency = currencyOf(network);

  // Live validation once the address has 10 characters and typing pauses; the latest address wins.
  const toCheck = useDebounced(trimmed, VALIDATE_PAUSE_MS);
  const check = useQuery({ ...addressCheckQuery(toCheck), enabled: toCheck.length >= VALIDATE_MIN_LENGTH && toCheck === trimmed });
  const validation: Validation =
    trimmed.length < VALIDATE_MIN_LENGTH
      ? { state: "idle" }
      : toCheck !== trimmed || check.isPending
        ? { state: "validating" }
        : check.isError
          ? { state: "failed" }
          : check.data.isValid
            ? { state: "valid", result: check.data }
            : { state: "invalid", message: check.data.message };
  useEffect(() => {
    if (check.isError)
      toast({ title: "Failed to validate address", description: "The address could not be checked. Try again in a moment.", variant: "destructive" });
  }, [check.isError, check.errorUpdatedAt]);

  // The store's own estimate for this address, beside the price, and what the price gives away.
  const checked = validation.state === "valid" ? validation.result : null;
  const notable = checked === null || checked.rarityScore > 0;
  const warnings = checked ? priceWarnings({ price: price.trim(), estimate: checked.estimatedValue, currency, notable }) : [];
  // A new address needs its own confirmation.
  useEffect(() => setConfirmNoPattern(false), [trimmed]);

  const ownershipCheck = useMutation(verifyOwnershipMutation());
  const ownership = ownershipCheck.isPending
    ? "verifying"
    : ownershipCheck.isSuccess
      ? ownershipCheck.data.verified
        ? "verified"
        : "failed"
      : ownershipCheck.isError
        ? "failed"
        : "unknown";
  // A changed address or key needs a new proof.
  const resetOwnership = ownershipCheck.reset;
  useEffect(() => resetOwnership(), [trimmed, privateKey, network, resetOwnership]);

  // The payload carries the key: gcTime 0 and the reset once settled leave no copy in the mutation cache.
  const creation = useMutation({ ...listingChangeMutation(queryClient, createListing), gcTime: 0 });
  const submitting = creation.isPending;

  const prices = useQuery({ ...livePricesQuery(), refetchInterval: 60_000, staleTime: 30_000 });
  const priceMessage = priceError(price);
  const previewPrice = useDebounced(priceMessage ? "" : price.trim(), FEE_PREVIEW_DELAY_MS);
  const fees = useQuery({ ...feesQuery(previewPrice, currency), enabled: previewPrice !== "" && previewPrice === price.trim() });
  const rate = currency === "ETH" ? prices.data?.ethPrice : prices.data?.solPrice;

  const reset = () => {
    setAddress("");
    setNetwork("ethereum");
    setPrice("");
    setPriceTouched(false);
    setPrivateKey("");
    setShowKey(false);
    setKeyError(null);
    setPromotionType("standard");
    setConfirmNoPattern(false);
  };

  const verify = () => {
    if (!trimmed || !privateKey.trim()) {
      toast({ title: "Validation Error", description: OWNERSHIP_MESSAGES.missing, variant: "destructive" });
      return;
    }
    ownershipCheck.mutate(
      { address: trimmed, privateKey, network },
      {
        onSuccess: (result) => {
          if (result.verified) toast({ title: "Ownership Verified", description: "The private key matches the address.", variant: "success" });
          else toast({ title: "Verification Failed", description: result.error || OWNERSHIP_MESSAGES.mismatch, variant: "destructive" });
        },
        onError: (err) => {
          const message = err instanceof HttpError && err.status < 500 ? err.serverMessage : null;
          toast({ title: "Verification Error", description: message ?? "Failed to verify ownership", variant: "destructive" });
        },
      },
    );
  };

  const canSubmit = validation.state === "valid" && !submitting && (notable || confirmNoPattern);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!canSubmit) return;
    setPriceTouched(true);
    const keyMissing = privateKey.trim() === "";
    setKeyError(keyMissing ? OWNERSHIP_MESSAGES.keyRequired : null);
    if (priceMessage || keyMissing) return;
    const key = privateKey;
    setPrivateKey("");
    setShowKey(false);
    const listed = { address: trimmed, price: price.trim(), currency };
    creation.mutate(
      {
        address: trimmed,
        network,
        currency,
        price: price.trim(),
        promotionType,
        isFeatured: promotionType !== "standard",
        isListed: true,
        status: "active",
        privateKey: key,
        confirmNoPattern: !notable && confirmNoPattern,
      },
      {
        onSuccess: () => {
          toast({
            title: "Listing Created Successfully!",
            description: `${listed.address} is now listed for ${listed.price} ${listed.currency}.`,
            variant: "success",
          });
          reset();
        },
        onError: (err) => {
          const message = err instanceof HttpError ? err.serverMessage : null;
          toast({ title: "Failed to Create Listing", description: message ?? "An unexpected error occurred", variant: "destructive" });
        },
        onSettled: () => creation.reset(),
      },
    );
  };

  const section = "space-y-4 rounded-2xl border border-slate-800 bg-slate-900/60 p-6";
  return (
    <form onSubmit={submit} className="space-y-6" autoComplete="off" noValidate aria-label="Create a listing">
      <fieldset className={section}>
        <legend className="sr-only">Address Information</legend>
        <h2 className="text-lg font-semibold text-white">1. Address Information</h2>
        <div>
          <label htmlFor={`${id}-address`} className={label}>
            Address
          </label>
          <input
            id={`${id}-address`}
            className={`${input} font-mono`}
            value={address}
            onChange={(e) => setAddress(e.target.value)}
            placeholder="0x… or a Solana address"
            spellCheck={false}
            autoComplete="off"
            aria-describedby={`${id}-address-status`}
            aria-invalid={validation.state === "invalid"}
          />
          <div id={`${id}-address-status`} className="mt-2 min-h-5 text-sm" aria-live="polite">
            {validation.state === "idle" && trimmed.length > 0 && (
              <span className="text-slate-400">Keep typing: the address is checked from {VALIDATE_MIN_LENGTH} characters.</span>
            )}
            {validation.state === "validating" && <span className="text-slate-400">Validating address…</span>}
            {validation.state === "valid" && (
              <span className="text-emerald-300" data-testid="address-valid">
                ✓ {validation.result.message} · rarity {validation.result.rarityScore.toFixed(1)}/10 · {categoryWords(validation.result.category)}
                {validation.result.pattern ? ` · pattern ${patternText(validation.result.pattern)}` : ""}
              </span>
            )}
            {validation.state === "invalid" && <span className="text-red-300">Invalid address{validation.message ? `: ${validation.message}` : ""}</span>}
            {validation.state === "failed" && <span className="text-red-300">Failed to validate address</span>}
          </div>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <label htmlFor={`${id}-network`} className={label}>
              Network
            </label>
            <select
              id={`${id}-network`}
              className={input}
              value={network}
              onChange={(e) => setNetwork(e.target.value as Network)}
              disabled={networkLocked}
              aria-describedby={networkLocked ? `${id}-network-note` : undefined}
            >
              <option value="ethereum">Ethereum</option>
              <option value="solana">Solana</option>
            </select>
            {networkLocked && (
              <p id={`${id}-network-note`} className="mt-1 text-xs text-slate-400">
                Set by the address.
              </p>
            )}
          </div>
          <div>
            <label htmlFor={`${id}-currency`} className={label}>
              Currency
            </label>
            <input id={`${id}-currency`} className={`${input} text-slate-400`} value={currency} readOnly aria-readonly />
          </div>
        </div>
      </fieldset>

      <fieldset className={section}>
        <legend className="sr-only">Pricing &amp; Fees</legend>
        <h2 className="text-lg font-semibold text-white">2. Pricing &amp; Fees</h2>
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <label htmlFor={`${id}-price`} className={label}>
              Price ({currency})
            </label>
            <input
              id={`${id}-price`}
              className={input}
              inputMode="decimal"
              value={price}
              onChange={(e) => {
                setPrice(e.target.value);
                setPriceTouched(true);
              }}
              placeholder="0.05"
              aria-invalid={priceTouched && priceMessage !== null}
              aria-describedby={`${id}-price-msg`}
            />
            <p id={`${id}-price-msg`} className="mt-1 min-h-5 text-sm text-red-300">
              {priceTouched ? priceMessage : null}
            </p>
            {!priceMessage && rate !== undefined && <p className="text-xs text-slate-400">≈ {formatUsd(Number(price) * rate)}</p>}
            {checked && (
              <p className="mt-2 text-sm text-slate-300" data-testid="estimated-value">
                Estimated value:{" "}
                <span className="tabular-nums text-white">
                  {checked.estimatedValue} {currency}
                </span>{" "}
                <button
                  type="button"
                  onClick={() => {
                    setPrice(checked.estimatedValue);
                    setPriceTouched(true);
                  }}
                  className="ml-1 rounded border border-slate-700 px-2 py-0.5 text-xs text-slate-200 hover:border-violet-500"
                >
                  Price at the estimate
                </button>
              </p>
            )}
          </div>
          <LiveMarketPrices prices={prices} />
        </div>
        {warnings.length > 0 && (
          <div className="rounded-xl border border-amber-500/40 bg-amber-500/10 p-4 text-sm text-amber-100" data-testid="price-warnings" aria-live="polite">
            <ul className="list-disc space-y-1 pl-5">
              {warnings.map((w) => (
                <li key={w.kind}>{w.message}</li>
              ))}
            </ul>
            {!notable && (
              <label className="mt-3 flex items-start gap-2">
                <input
                  type="checkbox"
                  checked={confirmNoPattern}
                  onChange={(e) => setConfirmNoPattern(e.target.checked)}
                  className="mt-0.5 accent-violet-500"
                />
                <span>List it anyway: I know this address has no notable pattern</span>
              </label>
            )}
          </div>
        )}
        <FeeBreakdown priceMessage={priceMessage} fees={fees} currency={currency} />
      </fieldset>

      <fieldset className={section}>
        <legend className="sr-only">Ownership Verification</legend>
        <h2 className="text-lg font-semibold text-white">3. Ownership Verification</h2>
        <p className="text-sm text-slate-400">The key is checked against the address, then stored encrypted and released only to the buyer.</p>
        <div>
          <label htmlFor={`${id}-key`} className={label}>
            Private key
          </label>
          <div className="flex gap-2">
            <input
              id={`${id}-key`}
              name="listing-private-key"
              className={`${input} font-mono`}
              type={showKey ? "text" : "password"}
              value={privateKey}
              onChange={(e) => {
                setPrivateKey(e.target.value);
                setKeyError(null);
              }}
              autoComplete="off"
              spellCheck={false}
              autoCapitalize="off"
              data-1p-ignore
              data-lpignore="true"
              aria-invalid={keyError !== null}
              aria-describedby={`${id}-key-msg`}
            />
            <button
              type="button"
              onClick={() => setShowKey((v) => !v)}
              className="rounded-lg border border-slate-700 px-3 text-sm text-slate-200 hover:border-violet-500"
              aria-pressed={showKey}
            >
              {showKey ? "Hide" : "Show"}
            </button>
          </div>
          <p id={`${id}-key-msg`} className="mt-1 min-h-5 text-sm text-red-300">
            {keyError}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <button
            type="button"
            onClick={verify}
            disabled={ownership === "verifying"}
            className="rounded-lg border border-violet-500 px-4 py-2 text-sm font-semibold text-violet-200 hover:bg-violet-500/10 disabled:opacity-50"
          >
            {ownership === "verifying" ? "Verifying…" : "Verify Ownership"}
          </button>
          {ownership === "verified" && <span className="text-sm text-emerald-300">✓ Ownership verified</span>}
          {ownership === "failed" && <span className="text-sm text-red-300">Not verified</span>}
        </div>
      </fieldset>

      <fieldset className={section}>
        <legend className="text-lg font-semibold text-white">4. Listing Options</legend>
        <ListingOptions name={`${id}-promotion`} isAdmin={isAdmin} value={promotionType} onChange={setPromotionType} />
      </fieldset>

      <div className="flex flex-wrap justify-end gap-3">
        <button
          type="button"
          onClick={() => void navigate({ to: "/marketplace" })}
          className="rounded-lg border border-slate-700 px-5 py-2 text-sm text-slate-200 hover:border-slate-500"
        >
          Cancel
        </button>
        <button
          type="submit"
          disabled={!canSubmit}
          className="rounded-lg bg-violet-600 px-5 py-2 text-sm font-semibold text-white hover:bg-violet-500 disabled:cursor-not-allowed disabled:opacity-50"
        >
          {submitting ? "Creating…" : "Create Listing"}
        </button>
      </div>
    </form>
  );
}
