// /notifications (docs/collectors.md#notifications): the connected wallet's own notifications, newest first, with
// the unread ones marked; each opens what it is about (and is then read), "Mark as read" one by one or all at once.
// Kept 90 days, the newest 200.
import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { createFileRoute, Link, useNavigate } from "@tanstack/react-router";
import type { NotificationView } from "../../../schema/collectors";
import { markReadMutation, NOTIFICATIONS_KEY, notificationsPage } from "../api/collectors";
import { errorMessage } from "../api/error-message";
import { ConnectWalletButton } from "../components/ConnectWalletButton";
import { useViewer } from "../components/listing/use-viewer";
import { toast } from "../components/toast-store";
import { relativeTime } from "../lib/date-format";
import { pageTitle } from "../server-rendered/page-title";

export const Route = createFileRoute("/notifications")({
  head: () => pageTitle("Notifications"),
  component: NotificationsPage,
});

function NotificationsPage() {
  const viewer = useViewer();
  if (!viewer) {
    return (
      <section className="mx-auto max-w-xl px-4 py-24 text-center">
        <h1 className="text-3xl font-bold text-white">Notifications</h1>
        <p className="mt-3 text-slate-400">Connect your wallet to see what happened to the addresses you watch, your saved searches and your purchases.</p>
        <div className="mt-6 flex justify-center">
          <ConnectWalletButton />
        </div>
      </section>
    );
  }
  return <Inbox wallet={viewer} />;
}

function Inbox({ wallet }: { wallet: string }) {
  const queryClient = useQueryClient();
  const pages = useInfiniteQuery({
    queryKey: [NOTIFICATIONS_KEY, "pages", wallet],
    queryFn: ({ pageParam }) => notificationsPage(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    staleTime: 0,
  });
  const mark = useMutation({
    ...markReadMutation(queryClient),
    onError: (err) => toast({ title: "Could not mark as read", description: errorMessage(err), variant: "destructive" }),
  });
  const items = pages.data?.pages.flatMap((p) => p.notifications) ?? [];
  const unread = pages.data?.pages[0]?.unread ?? 0;
  const now = Date.now();

  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-3xl font-bold text-white">Notifications</h1>
        <p className="text-sm text-slate-400" aria-live="polite" data-testid="unread-summary">
          {pages.isSuccess ? (unread === 0 ? "All read" : `${unread} unread`) : ""}
        </p>
        <button
          type="button"
          onClick={() => mark.mutate("all")}
          disabled={unread === 0 || mark.isPending}
          className="ml-auto rounded-lg border border-slate-700 px-3 py-1.5 text-sm font-semibold text-slate-200 hover:border-violet-500 focus-visible:outline-2 focus-visible:outline-violet-400 disabled:cursor-not-allowed disabled:opacity-50"
        >
          Mark all as read
        </button>
      </div>
      <p className="mt-2 text-sm text-slate-400">
        Price drops, reservations and sales of the addresses you{" "}
        <Link to="/profile" hash="watchlist" className="text-violet-300 underline underline-offset-2 hover:text-violet-200">
          watch
        </Link>
        , new matches for your saved searches, your purchases and custom orders. Kept 90 days.
      </p>

      {pages.isPending ? (
        <p className="mt-8 text-slate-400" role="status">
          Loading notifications…
        </p>
      ) : pages.isError ? (
        <div className="mt-8 rounded-2xl border border-red-900/60 bg-red-950/30 p-6" role="alert">
          <p className="text-red-200">Your notifications could not be loaded: {errorMessage(pages.error)}</p>
          <button
            type="button"
            onClick={() => void pages.refetch()}
            className="mt-3 rounded-lg border border-slate-700 px-3 py-1.5 text-sm font-semibold text-slate-200 hover:border-violet-500 focus-visible:outline-2 focus-visible:outline-violet-400"
          >
            Try again
          </button>
        </div>
      ) : items.length === 0 ? (
        <div className="mt-8 rounded-2xl border border-dashed border-slate-700 p-10 text-center" data-testid="notifications-empty">
          <p className="text-lg font-semibold text-white">Nothing yet</p>
          <p className="mt-2 text-slate-400">Star addresses in the marketplace or save a search, and what happens to them shows up here.</p>
          <Link to="/marketplace" className="mt-4 inline-block rounded-lg bg-violet-600 px-4 py-2 text-sm font-semibold text-white hover:bg-violet-500">
            Browse the marketplace
          </Link>
        </div>
      ) : (
        <>
          <ul className="mt-6 divide-y divide-slate-800 rounded-2xl border border-slate-800" data-testid="notification-list">
            {items.map((n) => (
              <NotificationItem key={n.id} n={n} now={now} onRead={() => mark.mutate(n.id)} />
            ))}
          </ul>
          {pages.hasNextPage && (
            <div className="mt-4 text-center">
              <button
                type="button"
                onClick={() => void pages.fetchNextPage()}
                disabled={pages.isFetchingNextPage}
                className="rounded-lg border border-slate-700 px-4 py-2 text-sm font-semibold text-slate-200 hover:border-violet-500 focus-visible:outline-2 focus-visible:outline-violet-400 disabled:cursor-wait"
              >
                {pages.isFetchingNextPage ? "Loading…" : "Show older"}
              </button>
            </div>
          )}
        </>
      )}
    </div>
  );
}

function NotificationItem({ n, now, onRead }: { n: NotificationView; now: number; onRead: () => void }) {
  const navigate = useNavigate();
  const title = (
    <span className={`block font-semibold ${n.read ? "text-slate-300" : "text-white"}`} data-testid="notification-title">
      {n.title}
    </span>
  );
  return (
    <li className={`flex gap-3 p-4 ${n.read ? "" : "bg-violet-950/30"}`} data-testid="notification" data-read={n.read}>
      <span aria-hidden className={`mt-2 h-2 w-2 shrink-0 rounded-full ${n.read ? "bg-transparent" : "bg-violet-400"}`} />
      <div className="min-w-0 flex-1">
        {n.href ? (
          <a
            href={n.href}
            onClick={(e) => {
              e.preventDefault();
              if (!n.read) onRead();
              void navigate({ href: n.href! });
            }}
            className="rounded hover:underline focus-visible:outline-2 focus-visible:outline-violet-400"
          >
            {title}
          </a>
        ) : (
          title
        )}
        <p className="mt-1 text-sm break-words text-slate-300">{n.body}</p>
        <p className="mt-1 text-xs text-slate-400">
          {!n.read && <span className="sr-only">Unread. </span>}
          <time dateTime={n.createdAt}>{relativeTime(n.createdAt, now)}</time>
        </p>
      </div>
      {!n.read && (
        <button
          type="button"
          onClick={onRead}
          className="h-fit shrink-0 rounded-md border border-slate-700 px-2 py-1 text-xs font-semibold text-slate-300 hover:border-violet-500 focus-visible:outline-2 focus-visible:outline-violet-400"
          aria-label={`Mark as read: ${n.title}`}
        >
          Mark as read
        </button>
      )}
    </li>
  );
}
