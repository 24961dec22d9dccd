import { Link } from "@tanstack/react-router";
import { useAdminStatus } from "../wallet/useAdminStatus";
import { useWallet } from "../wallet/useWallet";
import { useWalletSession } from "../wallet/useWalletSession";
import { ConnectWalletButton } from "./ConnectWalletButton";
import { HEADER_LINKS } from "./nav";

export function Header() {
  // The header is on every page, so it owns the once-per-load session check and wallet reconnect.
  useWalletSession();
  const wallet = useWallet();
  const { isAdmin } = useAdminStatus(wallet.isConnected ? wallet.address : null);
  const links = HEADER_LINKS.filter((l) => !l.adminOnly || isAdmin);
  // One row at every width, so the sticky header stays under 72 px on a phone (issue 13): the links scroll
  // sideways when they do not fit instead of wrapping onto more rows.
  return (
    <header className="sticky top-0 z-40 border-b border-slate-800 bg-slate-950">
      <div className="mx-auto flex h-14 max-w-6xl items-center gap-3 px-3 sm:gap-6 sm:px-4">
        <nav className="flex min-w-0 flex-1 items-center gap-3 sm:gap-6" aria-label="Main">
          <Link to="/" className="shrink-0 font-mono text-base font-bold tracking-tight text-white sm:text-lg">
            <span className="text-violet-400">0x</span>Vanity
          </Link>
          <ul className="flex min-w-0 items-center gap-3 overflow-x-auto text-sm whitespace-nowrap sm:gap-4">
            {links.map((l) => (
              <li key={l.to}>
                <Link to={l.to} className="block py-2 text-slate-300 hover:text-white" activeProps={{ className: "text-white font-semibold" }}>
                  {l.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <ConnectWalletButton />
      </div>
    </header>
  );
}
