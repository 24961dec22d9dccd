import { Link } from "@tanstack/react-router";
import { NetworkBadge } from "./NetworkBadge";
import { FOOTER_LINKS } from "./nav";

export function Footer() {
  return (
    <footer className="mt-16 border-t border-slate-800">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8 text-sm text-slate-400 sm:flex-row sm:items-center sm:justify-between">
        <nav aria-label="Footer">
          <ul className="flex flex-wrap gap-4">
            {FOOTER_LINKS.map((l) => (
              <li key={l.to}>
                <Link to={l.to} className="hover:text-white">
                  {l.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="flex gap-2">
          <NetworkBadge network="ethereum" />
          <NetworkBadge network="solana" />
        </div>
      </div>
    </footer>
  );
}
