// Pages reachable from the header and footer. A page is listed here only once it works.
// `adminOnly` links are shown only to wallets the server reports as admins (useAdminStatus). The footer
// lists /create-listing for everyone (the specification's footer links); the page itself explains who may use it.
export type NavLink = { to: string; label: string; adminOnly?: boolean };

export const HEADER_LINKS: NavLink[] = [
  { to: "/marketplace", label: "Marketplace" },
  { to: "/custom-order", label: "Custom Order" },
  { to: "/profile", label: "Profile" },
  { to: "/create-listing", label: "Create Listing", adminOnly: true },
  { to: "/admin", label: "Admin", adminOnly: true },
];

export const FOOTER_LINKS: NavLink[] = [
  { to: "/", label: "Home" },
  { to: "/profile", label: "Profile" },
  { to: "/create-listing", label: "Create Listing" },
  { to: "/custom-order", label: "Custom Orders" },
  { to: "/terms-of-service", label: "Terms of Service" },
  { to: "/marketplace", label: "Browse Addresses" },
];
