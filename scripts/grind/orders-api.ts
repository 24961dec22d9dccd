// The grinder's client for the custom-order API. It authenticates the way every admin does: a Sign-In with
// Ethereum signature from an admin wallet (ADMIN_WALLETS or users.isAdmin), so the server needs no second
// credential. The wallet's key comes from GRINDER_ADMIN_KEY; against a local stack (localhost or 127.0.0.1)
// it defaults to anvil's public dev account 0, which is the local admin.
import { privateKeyToAccount } from "viem/accounts";
import type { QueuedOrder } from "../../schema/custom-orders";
import { DEV_ACCOUNTS } from "../dev-accounts.ts";

export class OrdersApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "OrdersApiError";
  }
}

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** The admin key: GRINDER_ADMIN_KEY, or the public local admin for a local API only. */
export function grinderKey(api: string, env: NodeJS.ProcessEnv): `0x${string}` {
  const key = env.GRINDER_ADMIN_KEY?.trim();
  if (key) {
    if (!/^0x[0-9a-fA-F]{64}$/.test(key)) throw new OrdersApiError(0, "GRINDER_ADMIN_KEY must be 0x and 64 hex digits (an admin wallet's private key)");
    return key as `0x${string}`;
  }
  if (LOCAL_HOSTS.has(new URL(api).hostname)) return DEV_ACCOUNTS.admin.privateKey;
  throw new OrdersApiError(0, "set GRINDER_ADMIN_KEY to the private key of an admin wallet (ADMIN_WALLETS) to grind orders on a non-local API");
}

export class OrdersApi {
  private cookie = "";
  private readonly account;

  constructor(
    readonly api: string,
    key: `0x${string}`,
  ) {
    this.account = privateKeyToAccount(key);
  }

  get wallet(): string {
    return this.account.address;
  }

  /** SIWE sign-in: the server's nonce and message, signed by the admin key; keeps the session cookie. */
  async signIn(): Promise<void> {
    const nonce = await this.raw("POST", "/api/auth/nonce", { network: "ethereum", address: this.account.address });
    const { message } = (await nonce.json()) as { message: string };
    const signature = await this.account.signMessage({ message });
    const res = await this.raw("POST", "/api/auth/verify", { network: "ethereum", message, signature });
    const set = res.headers.getSetCookie().find((c) => /^(__Host-)?session=/.test(c));
    if (!set) throw new OrdersApiError(res.status, "sign-in gave no session cookie");
    this.cookie = set.split(";")[0];
    const session = (await (await this.raw("GET", "/api/auth/session")).json()) as { user?: { isAdmin?: boolean } };
    if (!session.user?.isAdmin) throw new OrdersApiError(403, `${this.account.address} is not an admin wallet on ${this.api}`);
  }

  queue(): Promise<{ orders: QueuedOrder[] }> {
    return this.call("GET", "/api/custom-orders/admin/queue?status=waiting");
  }

  take(id: number): Promise<QueuedOrder> {
    return this.call("POST", `/api/custom-orders/admin/${id}/take`, {});
  }

  progress(id: number, attempts: number, rate: number): Promise<unknown> {
    return this.call("POST", `/api/custom-orders/admin/${id}/progress`, { attempts, rate });
  }

  submit(id: number, offset: string, variant: number): Promise<QueuedOrder> {
    return this.call("POST", `/api/custom-orders/admin/${id}/submit`, { offset, variant });
  }

  /** One authenticated call; a lapsed session is renewed once. */
  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    let res = await this.raw(method, path, body);
    if (res.status === 401) {
      await this.signIn();
      res = await this.raw(method, path, body);
    }
    const json = (await res.json().catch(() => ({}))) as { message?: string };
    if (!res.ok) throw new OrdersApiError(res.status, `${method} ${path}: ${res.status} ${json.message ?? ""}`.trim());
    return json as T;
  }

  private async raw(method: string, path: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = { origin: new URL(this.api).origin };
    if (this.cookie) headers.cookie = this.cookie;
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await fetch(new URL(path, this.api), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (path.startsWith("/api/auth/") && !res.ok) {
      throw new OrdersApiError(res.status, `${method} ${path}: ${res.status} ${await res.text()}`);
    }
    return res;
  }
}
