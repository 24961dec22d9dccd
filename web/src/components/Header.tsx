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
  return (
    <header className="sticky top-0 z-40 border-b border-slate-800 bg-slate-950/90 backdrop-blur">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
        <nav className="flex flex-1 flex-wrap items-center gap-x-6 gap-y-2" aria-label="Main">
          <Link to="/" className="font-mono text-lg font-bold tracking-tight text-white">
            <span className="text-violet-400">0x</span>Vanity
          </Link>
          <ul className="flex flex-wrap items-center gap-4 text-sm">
            {links.map((l) => (
              <li key={l.to}>
                <Link to={l.to} className="text-slate-300 hover:text-white" activeProps={{ className: "text-white font-semibold" }}>
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
