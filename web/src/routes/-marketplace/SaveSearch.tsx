// "Save search" on the marketplace (docs/collectors.md#saved-searches): the filters in the URL, saved with a name
// (prefilled with the filters in words). A visitor without a wallet is asked to connect, comes back to this
// search, and it is saved then under that name (pending-search.ts), as the star is. The server's refusal (saved already, the bound reached, filters no address can match) is shown here.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useEffect, useId, useState } from "react";
import { SAVED_SEARCH_NAME_MAX, type SavedFilters } from "../../../../schema/collectors";
import { saveSearchMutation } from "../../api/collectors";
import { errorMessage } from "../../api/error-message";
import { useConnectFirst } from "../../components/collectors/use-connect-first";
import { useViewer } from "../../components/listing/use-viewer";
import { describeFilters } from "../../lib/saved-filters";
import { rememberPendingSearch, takePendingSearch } from "./pending-search";
import type { MarketSearch } from "../../server-rendered/marketplace-search";

/** The URL's filters (and sort) as a saved search keeps them: every value as the URL's text. */
export function filtersOf(search: MarketSearch): SavedFilters {
  const f: SavedFilters = {};
  if (search.search) f.search = search.search;
  if (search.minCharLength !== undefined) f.minCharLength = String(search.minCharLength);
  if (search.maxCharLength !== undefined) f.maxCharLength = String(search.maxCharLength);
  if (search.patternValue) {
    f.patternValue = search.patternValue;
    if (search.patternFilter) f.patternFilter = search.patternFilter;
  }
  if (search.category && search.category !== "all") f.category = search.category;
  if (search.network && search.network !== "all") f.network = search.network;
  if (search.sortBy) f.sortBy = search.sortBy;
  if (search.sortOrder) f.sortOrder = search.sortOrder;
  return f;
}

export function SaveSearch({ search }: { search: MarketSearch }) {
  const viewer = useViewer();
  const connectFirst = useConnectFirst();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const queryClient = useQueryClient();
  const save = useMutation(saveSearchMutation(queryClient));
  const inputId = useId();
  const filters = filtersOf(search);

  const defaultName = describeFilters(filters).slice(0, SAVED_SEARCH_NAME_MAX);
  const start = () => {
    if (!viewer) {
      rememberPendingSearch(sessionStorage, filters, Date.now());
      return connectFirst("save this search");
    }
    save.reset();
    setName(defaultName);
    setOpen(true);
  };
  // Back from connecting, signed in, on the search they asked to save: save it now, under its default name (the
  // form stays open on the answer, so a refusal shows and the name can be changed and saved again).
  useEffect(() => {
    if (!viewer || !takePendingSearch(sessionStorage, filters, Date.now())) return;
    setName(defaultName);
    setOpen(true);
    save.mutate({ name: defaultName, filters });
  }, [viewer]);

  if (save.isSuccess && open) {
    return (
      <p className="order-5 basis-full text-sm text-emerald-300" role="status" data-testid="search-saved">
        Saved as “{save.data.name}”. You are told when a listing that matches is listed or gets cheaper.{" "}
        <Link to="/profile" hash="saved-searches" className="text-violet-300 underline underline-offset-2 hover:text-violet-200">
          Your saved searches
        </Link>
        <button type="button" onClick={() => setOpen(false)} className="ml-2 rounded text-slate-300 underline underline-offset-2 hover:text-white">
          Close
        </button>
      </p>
    );
  }
  if (!open) {
    return (
      <button
        type="button"
        onClick={start}
        data-testid="save-search"
        // On a phone it shares the heading's line (the results' first rows stay on the first screen); from sm on it
        // follows the page size (marketplace.tsx orders the header's items).
        className="order-2 ml-auto rounded-lg border sm:order-4 sm:ml-0 border-slate-700 px-3 py-1 text-sm font-semibold text-slate-200 hover:border-violet-500 focus-visible:outline-2 focus-visible:outline-violet-400"
      >
        Save search
      </button>
    );
  }
  return (
    <form
      className="order-5 flex basis-full flex-wrap items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (name.trim()) save.mutate({ name: name.trim(), filters });
      }}
      data-testid="save-search-form"
    >
      <div className="min-w-0 flex-1 basis-60">
        <label htmlFor={inputId} className="block text-xs font-semibold text-slate-300">
          Name this search
        </label>
        <input
          id={inputId}
          value={name}
          onChange={(e) => setName(e.target.value)}
          maxLength={SAVED_SEARCH_NAME_MAX}
          required
          // biome-ignore lint/a11y/noAutofocus: the form opened on the person's click; typing the name is the next step.
          autoFocus
          aria-describedby={save.isError ? `${inputId}-error` : undefined}
          className="mt-1 w-full rounded-lg border border-slate-700 bg-slate-950 px-3 py-1.5 text-sm text-slate-100 focus:border-violet-500 focus:outline-none"
        />
      </div>
      <button
        type="submit"
        disabled={save.isPending || name.trim() === ""}
        className="rounded-lg bg-violet-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-violet-500 focus-visible:outline-2 focus-visible:outline-violet-400 disabled:cursor-not-allowed disabled:opacity-60"
      >
        {save.isPending ? "Saving…" : "Save"}
      </button>
      <button
        type="button"
        onClick={() => setOpen(false)}
        className="rounded-lg border border-slate-700 px-3 py-1.5 text-sm font-semibold text-slate-300 hover:border-slate-500 focus-visible:outline-2 focus-visible:outline-violet-400"
      >
        Cancel
      </button>
      {save.isError && (
        <p id={`${inputId}-error`} className="basis-full text-sm text-red-300" role="alert">
          {errorMessage(save.error)}
        </p>
      )}
    </form>
  );
}
