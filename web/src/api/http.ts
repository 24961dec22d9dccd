// The one place the browser talks to the API. Every call includes credentials; any non-OK answer becomes
// an Error whose message is "<status>: <body text>" (or the status text when the body is empty), as the
// spec's generic rule says.

/** Read the stored wallet address, sent as x-wallet-address on /admin/ calls (it authorises nothing). */
function storedWallet(): string | null {
  try {
    return localStorage.getItem("walletAddress");
  } catch {
    return null;
  }
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly bodyText: string,
    statusText: string,
  ) {
    super(`${status}: ${bodyText || statusText}`);
  }

  /** The server's `message` (or `error`) field when the body is the API's JSON error shape. */
  get serverMessage(): string | null {
    try {
      const body = JSON.parse(this.bodyText) as { message?: unknown; error?: unknown };
      if (typeof body.message === "string") return body.message;
      if (typeof body.error === "string") return body.error;
    } catch {
      /* not JSON */
    }
    return null;
  }
}

export async function request<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}, cache?: RequestCache): Promise<T> {
  const finalHeaders: Record<string, string> = { ...headers };
  if (body !== undefined) finalHeaders["content-type"] = "application/json";
  const wallet = storedWallet();
  if (wallet && path.includes("/admin/")) finalHeaders["x-wallet-address"] = wallet;
  const res = await fetch(path, {
    method,
    credentials: "include",
    headers: finalHeaders,
    cache,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new HttpError(res.status, await res.text(), res.statusText);
  return (await res.json()) as T;
}

/** The default data reader: GET the key path and parse JSON. With `on401: "null"` a 401 yields null. */
export async function getJson<T>(path: string, opts: { on401?: "throw" | "null" } = {}): Promise<T | null> {
  try {
    return await request<T>("GET", path);
  } catch (err) {
    if (opts.on401 === "null" && err instanceof HttpError && err.status === 401) return null;
    throw err;
  }
}
