import { Link } from "@tanstack/react-router";
import { useId, useState } from "react";
import { toast } from "../toast-store";
import { checkerInput } from "./checker-input";
import { CheckResultPanel } from "./CheckResultPanel";
import { useAddressCheck } from "./use-address-check";

/** The Address Validation and Rarity Checker (home page and marketplace). */
export function AddressChecker() {
  const [input, setInput] = useState("");
  const check = useAddressCheck();
  const inputId = useId();

  const submit = () => {
    const parsed = checkerInput(input);
    if (!parsed.ok) {
      toast({ title: "Error", description: parsed.message, variant: "destructive" });
      return;
    }
    check.mutate(parsed.address);
  };

  return (
    // Below the fold on every page that has it: the browser lays it out and paints it only when it comes near
    // the screen (content-visibility), which keeps a slow phone's first layout short.
    <section
      aria-labelledby={`${inputId}-title`}
      className="rounded-2xl border border-slate-800 bg-slate-900/60 p-5 [contain-intrinsic-size:auto_320px] [content-visibility:auto] sm:p-6"
    >
      <h2 id={`${inputId}-title`} className="text-xl font-bold">
        Address Validation and Rarity Checker
      </h2>
      <p className="mt-1 text-sm text-slate-400">
        Paste any Ethereum or Solana address to see its pattern, how hard it is to generate, and what it might be worth.
      </p>
      <form
        className="mt-4 space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <label htmlFor={inputId} className="sr-only">
          Address to check
        </label>
        <textarea
          id={inputId}
          rows={2}
          value={input}
          onChange={(e) => setInput(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey) {
              e.preventDefault();
              submit();
            }
          }}
          placeholder="0x0000… or So1…"
          spellCheck={false}
          autoComplete="off"
          className="w-full resize-y rounded-lg border border-slate-700 bg-slate-950 px-3 py-2 font-mono text-sm text-slate-100 placeholder:text-slate-400 focus:border-violet-500 focus:outline-none"
        />
        <div className="flex flex-wrap gap-2">
          <button
            type="submit"
            disabled={check.isPending}
            className="rounded-lg bg-violet-600 px-4 py-2 font-semibold text-white hover:bg-violet-500 disabled:cursor-wait disabled:opacity-60"
          >
            {check.isPending ? "Checking…" : "Validate and Check Rarity"}
          </button>
          <button
            type="button"
            onClick={() => {
              setInput("");
              check.reset();
            }}
            className="rounded-lg border border-slate-700 px-4 py-2 font-semibold text-slate-200 hover:bg-slate-800"
          >
            Clear
          </button>
        </div>
      </form>
      {check.data && <CheckResultPanel result={check.data} />}
      <p className="mt-4 text-sm text-slate-400">
        Want an Ethereum address with your own pattern, whose key only you hold?{" "}
        <Link to="/custom-order" className="text-violet-300 underline hover:text-violet-200">
          Order a custom address
        </Link>
        , or{" "}
        <Link to="/grind" className="text-violet-300 underline hover:text-violet-200">
          grind a short one on your own GPU
        </Link>
        .
      </p>
    </section>
  );
}
