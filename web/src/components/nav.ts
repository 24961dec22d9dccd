// Pages reachable from the header and footer. A page is listed here only once it works.
// `adminOnly` links are shown only to wallets the server reports as admins (useAdminStatus). The footer
// lists /create-listing for everyone (the specification's footer links); the page itself explains who may use it.
// The header and the footer both link the public sales (Activity) and the in-browser grinder (Grind), which
// a visitor found nowhere else; below lg the header's links sit in its Menu (one row has no room for them
// beside the wallet), and the footer wraps, so they stay on screen and in the tab order at 390 px.
// LinkProps reads the routes through the router's registration (routeTree.gen.ts declares it), so this file
// need not import the route tree, which imports the root layout that imports this.
import type { LinkProps } from "@tanstack/react-router";

/** `to` is one of the app's routes, so a renamed page fails the typecheck rather than a visitor's click. */
export type NavLink = { to: NonNullable<LinkProps["to"]>; label: string; adminOnly?: boolean };

export const HEADER_LINKS: NavLink[] = [
  { to: "/marketplace", label: "Marketplace" },
  { to: "/activity", label: "Activity" },
  { to: "/custom-order", label: "Custom Order" },
  { to: "/grind", label: "Grind" },
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
  { to: "/activity", label: "Activity" },
  { to: "/grind", label: "Grind" },
];
