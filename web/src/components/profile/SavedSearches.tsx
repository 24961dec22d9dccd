// Profile > Saved searches (docs/collectors.md#saved-searches): each with its name, its filters in words, when a new
// or cheaper listing last matched it; Open goes to the marketplace with its filters, Delete forgets it after a
// confirmation.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useState } from "react";
import { deleteSavedSearchMutation, savedSearchesQuery } from "../../api/collectors";
import { errorMessage } from "../../api/error-message";
import { relativeTime } from "../../lib/date-format";
import { describeFilters, marketplaceSearch } from "../../lib/saved-filters";
import { ConfirmDialog } from "../ConfirmDialog";
import { toast } from "../toast-store";
import { EmptyList, ListStates } from "./ListStates";

export function SavedSearches({ wallet }: { wallet: string }) {
  const queryClient = useQueryClient();
  const list = useQuery(savedSearchesQuery(wallet));
  const remove = useMutation({
    ...deleteSavedSearchMutation(queryClient),
    onError: (err) => toast({ title: "The saved search could not be deleted", description: errorMessage(err), variant: "destructive" }),
  });
  const searches = list.data?.searches ?? [];
  const now = Date.now();
  return (
    <section id="saved-searches" aria-labelledby="saved-searches-title" className="mt-10 scroll-mt-20">
      <div className="flex flex-wrap items-baseline gap-3">
        <h2 id="saved-searches-title" className="text-2xl font-semibold text-white">
          Saved searches
        </h2>
        {list.data && (
          <span className="text-sm text-slate-400">
            {searches.length} of {list.data.limit}
          </span>
        )}
      </div>
      <ListStates
        query={list}
        loading="Loading your saved searches…"
        failed="Your saved searches could not be loaded"
        empty={
          searches.length === 0 ? (
            <EmptyList testId="saved-searches-empty" title="No saved searches yet">
              <p className="mt-2 text-slate-400">
                Set the filters you want in the marketplace and choose Save search: you are told when a listing that matches appears or gets cheaper.
              </p>
            </EmptyList>
          ) : null
        }
      >
        <ul className="mt-6 divide-y divide-slate-800 rounded-2xl border border-slate-800" data-testid="saved-searches">
          {searches.map((s) => (
            <li key={s.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 p-4" data-testid="saved-search">
              <div className="min-w-0 flex-1 basis-56">
                <p className="font-semibold break-words text-white">{s.name}</p>
                <p className="mt-0.5 text-sm break-words text-slate-300">{describeFilters(s.filters)}</p>
                <p className="mt-0.5 text-xs text-slate-400">
                  Saved <time dateTime={s.createdAt}>{relativeTime(s.createdAt, now)}</time>
                  {s.lastMatchAt ? (
                    <>
                      {" "}
                      · last match <time dateTime={s.lastMatchAt}>{relativeTime(s.lastMatchAt, now)}</time>
                    </>
                  ) : (
                    " · no match yet"
                  )}
                </p>
              </div>
              <div className="flex gap-2">
                <Link
                  to="/marketplace"
                  search={marketplaceSearch(s.filters)}
                  aria-label={`Open ${s.name}`}
                  className="rounded-md bg-violet-600 px-2.5 py-1 text-xs font-semibold text-white hover:bg-violet-500 focus-visible:outline-2 focus-visible:outline-violet-400"
                >
                  Open
                </Link>
                <DeleteSavedSearch name={s.name} pending={remove.isPending} onDelete={(done) => remove.mutate(s.id, { onSettled: done })} />
              </div>
            </li>
          ))}
        </ul>
      </ListStates>
    </section>
  );
}

/**
 * A saved search's Delete: it asks first (ConfirmDialog). `onDelete` is called only from the dialog's confirming
 * button, and closes it once the deletion has settled.
 */
export function DeleteSavedSearch({ name, pending, onDelete }: { name: string; pending: boolean; onDelete: (done: () => void) => void }) {
  const [open, setOpen] = useState(false);
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      title="Delete this saved search?"
      confirmLabel="Delete saved search"
      pendingLabel="Deleting..."
      pending={pending}
      onConfirm={() => onDelete(() => setOpen(false))}
      trigger={
        <button
          type="button"
          disabled={pending}
          aria-label={`Delete ${name}`}
          className="rounded-md border border-slate-700 px-2.5 py-1 text-xs font-semibold text-slate-300 hover:border-red-500 hover:text-white focus-visible:outline-2 focus-visible:outline-violet-400 disabled:cursor-wait"
        >
          Delete
        </button>
      }
    >
      <p>
        <span className="font-semibold break-words text-white">{name}</span> is forgotten: you are no longer told of listings that match it. This cannot be
        undone; you can save the same filters again from the marketplace.
      </p>
    </ConfirmDialog>
  );
}
