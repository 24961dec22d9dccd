// The header's bell (docs/collectors.md#notifications): for a connected wallet, a link to /notifications with the
// unread count, asked every few seconds while the page is visible and at once when it is shown again
// (unreadCountQuery; an index count on the server).
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { unreadCountQuery } from "../../api/collectors";
import { useViewer } from "../listing/use-viewer";

export function NotificationBell() {
  const viewer = useViewer();
  const unread = useQuery({ ...unreadCountQuery(viewer ?? ""), enabled: viewer !== null });
  if (!viewer) return null;
  const n = unread.data?.unread ?? 0;
  const label = n === 0 ? "Notifications" : `Notifications, ${n > 99 ? "more than 99" : n} unread`;
  return (
    <Link
      to="/notifications"
      aria-label={label}
      title={label}
      data-testid="notification-bell"
      className="relative inline-flex h-8 w-8 shrink-0 items-center justify-center rounded-lg border border-slate-700 text-slate-200 hover:border-violet-500 focus-visible:outline-2 focus-visible:outline-violet-400"
    >
      <svg aria-hidden viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
        <path d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
        <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
      </svg>
      {n > 0 && (
        <span
          aria-hidden
          data-testid="unread-count"
          className="absolute -top-1.5 -right-1.5 min-w-5 rounded-full bg-rose-600 px-1 text-center text-xs leading-5 font-bold text-white tabular-nums"
        >
          {n > 99 ? "99+" : n}
        </span>
      )}
    </Link>
  );
}
