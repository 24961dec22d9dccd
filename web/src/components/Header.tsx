import { Link, useRouterState } from "@tanstack/react-router";
import { useEffect, useId, useState } from "react";
import { useAdminStatus } from "../wallet/use-admin-status";
import { useWallet } from "../wallet/use-wallet";
import { useWalletSession } from "../wallet/use-wallet-session";
import { NotificationBell } from "./collectors/NotificationBell";
import { ConnectWalletButton } from "./ConnectWalletButton";
import { HEADER_LINKS } from "./nav";

export function Header() {
  // The header is on every page, so it owns the once-per-load session check and wallet reconnect.
  useWalletSession();
  const wallet = useWallet();
  const { isAdmin } = useAdminStatus(wallet.isConnected ? wallet.address : null);
  const links = HEADER_LINKS.filter((l) => !l.adminOnly || isAdmin);
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  // A navigation closes the menu, and so does Escape.
  const path = useRouterState({ select: (s) => s.location.pathname });
  useEffect(() => setMenuOpen(false), [path]);
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && setMenuOpen(false);
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [menuOpen]);
  // One row at every width, so the sticky header stays under 72 px on a phone. Below lg the links
  // move into a Menu: at 360-390 px "Connect Wallet" or the wallet chip left no room for them, and at md the
  // seven links an admin sees (Activity and Grind among them) did not fit beside the wallet chip.
  return (
    <header className="sticky top-0 z-40 border-b border-slate-800 bg-slate-950">
      <div className="mx-auto flex h-14 max-w-6xl items-center gap-2 px-3 sm:gap-6 sm:px-4">
        <nav className="flex min-w-0 flex-1 items-center gap-2 sm:gap-6" aria-label="Main">
          <Link to="/" className="shrink-0 font-mono text-base font-bold tracking-tight text-white sm:text-lg">
            <span className="text-violet-400">0x</span>Vanity
          </Link>
          <ul className="hidden min-w-0 items-center gap-4 text-sm whitespace-nowrap lg:flex">
            {links.map((l) => (
              <li key={l.to}>
                <Link to={l.to} className="block py-2 text-slate-300 hover:text-white" activeProps={{ className: "text-white font-semibold" }}>
                  {l.label}
                </Link>
              </li>
            ))}
          </ul>
          <button
            type="button"
            className="ml-auto shrink-0 rounded-md border border-slate-700 px-2.5 py-1.5 text-sm font-semibold text-slate-200 hover:border-violet-500 focus-visible:outline-2 focus-visible:outline-violet-400 lg:hidden"
            aria-expanded={menuOpen}
            aria-controls={menuId}
            onClick={() => setMenuOpen((o) => !o)}
            data-testid="menu-button"
          >
            Menu
          </button>
        </nav>
        <NotificationBell />
        <ConnectWalletButton />
      </div>
      {menuOpen && (
        <ul id={menuId} className="border-t border-slate-800 bg-slate-950 px-3 py-2 text-sm lg:hidden" data-testid="header-menu">
          {links.map((l) => (
            <li key={l.to}>
              <Link
                to={l.to}
                onClick={() => setMenuOpen(false)}
                className="block rounded px-2 py-2.5 text-slate-200 hover:bg-slate-900 hover:text-white"
                activeProps={{ className: "text-white font-semibold" }}
              >
                {l.label}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </header>
  );
}
