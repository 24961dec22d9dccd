// Where /profile sends a visitor back once their wallet is connected (a wallet-less Buy, star or saved search
// asked them to connect): a listing id (the Buy's), or a path of this app's own pages that need a wallet for what
// was asked. Anything else is dropped, so the parameter cannot send anyone elsewhere (another site, a script URL).
const ALLOWED = /^\/(?:address\/[1-9]\d{0,14}|marketplace|notifications)(?:[?#]|$)/;

/** The path to go back to, or null. */
export function safeReturnPath(raw: unknown): string | null {
  if (typeof raw === "number") return Number.isSafeInteger(raw) && raw > 0 ? `/address/${raw}` : null;
  if (typeof raw !== "string" || raw.length > 600) return null;
  if (/^[1-9]\d{0,14}$/.test(raw)) return `/address/${raw}`;
  // One leading slash and a page of ours; no backslash or control character a browser might read another way.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is this pattern's job.
  if (!ALLOWED.test(raw) || /[\\\u0000-\u001f\u007f]/.test(raw)) return null;
  return raw;
}

/** The current page as a return path (pathname, query and hash). */
export const currentPath = () => `${window.location.pathname}${window.location.search}${window.location.hash}`;
