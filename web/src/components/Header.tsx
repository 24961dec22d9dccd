import { Link } from "@tanstack/react-router";
import { HEADER_LINKS } from "./nav";

export function Header() {
  return (
    <header className="sticky top-0 z-40 border-b border-slate-800 bg-slate-950/90 backdrop-blur">
      <nav className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3" aria-label="Main">
        <Link to="/" className="font-mono text-lg font-bold tracking-tight text-white">
          <span className="text-violet-400">0x</span>Vanity
        </Link>
        <ul className="flex flex-wrap items-center gap-4 text-sm">
          {HEADER_LINKS.map((l) => (
            <li key={l.to}>
              <Link to={l.to} className="text-slate-300 hover:text-white" activeProps={{ className: "text-white font-semibold" }}>
                {l.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}
