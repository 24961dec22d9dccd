// Pages reachable from the header and footer. A page is listed here only once it works.
export const HEADER_LINKS: { to: string; label: string }[] = [];

export const FOOTER_LINKS: { to: string; label: string }[] = [
  { to: "/", label: "Home" },
  { to: "/terms-of-service", label: "Terms of Service" },
];
