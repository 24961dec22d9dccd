// The states a profile list shows before its rows (Offers, Watchlist, Saved searches): loading, the error with the
// server's words, the empty card saying how the list fills; the rows once there are some.
import type { ReactNode } from "react";
import { errorMessage } from "../../api/error-message";

export function ListStates({
  query,
  loading,
  failed,
  empty,
  children,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown };
  /** "Loading your offers…" */
  loading: string;
  /** "Your offers could not be loaded": the server's reason follows. */
  failed: string;
  /** The empty card while the list has no rows, else null. */
  empty: ReactNode;
  children: ReactNode;
}) {
  if (query.isPending) {
    return (
      <p className="mt-6 text-slate-400" role="status">
        {loading}
      </p>
    );
  }
  if (query.isError) {
    return (
      <p className="mt-6 text-red-300" role="alert">
        {failed}: {errorMessage(query.error)}
      </p>
    );
  }
  return empty ?? children;
}

/** The empty list's card: what is missing, and (children) how to add the first. */
export function EmptyList({ testId, title, children }: { testId: string; title: string; children: ReactNode }) {
  return (
    <div className="mt-6 rounded-2xl border border-dashed border-slate-700 p-8 text-center" data-testid={testId}>
      <p className="text-lg font-semibold text-white">{title}</p>
      {children}
    </div>
  );
}
