// Pages reachable from the header and footer. A page is listed here only once it works.
// `adminOnly` links are shown only to wallets the server reports as admins (useAdminStatus); the Admin
// entry (/admin) joins the header this way once that page exists.
export type NavLink = { to: string; label: string; adminOnly?: boolean };

export const HEADER_LINKS: NavLink[] = [
  { to: "/marketplace", label: "Marketplace" },
  { to: "/profile", label: "Profile" },
];

export const FOOTER_LINKS: NavLink[] = [
  { to: "/", label: "Home" },
  { to: "/profile", label: "Profile" },
  { to: "/terms-of-service", label: "Terms of Service" },
  { to: "/marketplace", label: "Browse Addresses" },
];
