// The grinder's client for the custom-order API. It authenticates the way every admin does: a Sign-In with
// Ethereum signature from an admin wallet (ADMIN_WALLETS or users.isAdmin), so the server needs no second
// credential. The wallet's key comes from GRINDER_ADMIN_KEY; against a local stack (localhost or 127.0.0.1)
// it defaults to anvil's public dev account 0, which is the local admin. Each process names itself with a
// random grinder id, so several grinders on one wallet hold separate claims (docs/custom-orders.md#several-grinders).
import { randomUUID } from "node:crypto";
import { privateKeyToAccount } from "viem/accounts";
import type { ClaimAnswer, QueuedOrder } from "../../schema/custom-orders";
import type { BulkUploadResponse } from "../../schema/listings";
import type { IntakeKeyResponse, SealedRow } from "../../schema/sealed-intake";
import type { SupplyClaimAnswer, SupplyProgressAnswer, SupplySealedAnswer } from "../../schema/supply";
import { DEV_ACCOUNTS } from "../../schema/dev-accounts.ts";

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
  /** this process's grinder id: its claims are its own, even beside other grinders on the same wallet */
  readonly grinder = randomUUID();

  constructor(
    readonly api: string,
    key: `0x${string}`,
    /** what it grinds on, shown to admins: "GPU NVIDIA H200", "CPU, 1 thread" */
    readonly label: string,
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

  /** Says this grinder is alive and claims the oldest waiting order (null when none waits). */
  claim(): Promise<ClaimAnswer> {
    return this.call("POST", "/api/custom-orders/admin/claim", { grinder: this.grinder, label: this.label });
  }

  /** Cumulative attempts of this claim and the rate; renews the claim's lease. */
  progress(id: number, attempts: number, rate: number): Promise<unknown> {
    return this.call("POST", `/api/custom-orders/admin/${id}/progress`, { attempts, rate, grinder: this.grinder });
  }

  submit(id: number, offset: string, variant: number): Promise<QueuedOrder> {
    return this.call("POST", `/api/custom-orders/admin/${id}/submit`, { offset, variant, grinder: this.grinder });
  }

  /** The marketplace's intake public key (--list seals found keys to it). */
  intakeKey(): Promise<IntakeKeyResponse> {
    return this.call("GET", "/api/admin/intake-key");
  }

  /** Lists sealed rows: one result per row, as the bulk upload answers. */
  uploadSealed(rows: SealedRow[]): Promise<BulkUploadResponse> {
    return this.call("POST", "/api/admin/addresses/sealed", { rows });
  }

  /** Supply (supply.ts): this grinder's open claim, or a new one on the target that lacks most; null when none wants work. */
  supplyClaim(): Promise<SupplyClaimAnswer> {
    return this.call("POST", "/api/supply/claims", { grinder: this.grinder, label: this.label });
  }

  /** Supply: cumulative attempts and rate under the claim; renews it and says whether to go on. */
  supplyProgress(id: number, attempts: number, rate: number): Promise<SupplyProgressAnswer> {
    return this.call("POST", `/api/supply/claims/${id}/progress`, { grinder: this.grinder, attempts, rate });
  }

  /** Supply: sealed hits listed under the claim at its target's price. */
  supplySealed(id: number, rows: SealedRow[]): Promise<SupplySealedAnswer> {
    return this.call("POST", `/api/supply/claims/${id}/sealed`, { grinder: this.grinder, rows });
  }

  /** Supply: gives the claim up now. */
  supplyRelease(id: number): Promise<unknown> {
    return this.call("POST", `/api/supply/claims/${id}/release`, { grinder: this.grinder });
  }

  /** Gives the order back to the queue now, rather than when the lease lapses. */
  release(id: number): Promise<unknown> {
    return this.call("POST", `/api/custom-orders/admin/${id}/release`, { grinder: this.grinder });
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
    const send = () => fetch(new URL(path, this.api), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    let res: Response;
    try {
      res = await send();
    } catch (e) {
      // A kept-alive connection the server closed while this process was busy (starting its search threads, say)
      // fails before the request reaches the server: once more, on a new connection. Every grinder call is safe
      // to repeat: a second submit or claim is answered from the order's state.
      if (!(e instanceof TypeError && (e.cause as { code?: string } | undefined)?.code === "UND_ERR_SOCKET")) throw e;
      res = await send();
    }
    if (path.startsWith("/api/auth/") && !res.ok) {
      throw new OrdersApiError(res.status, `${method} ${path}: ${res.status} ${await res.text()}`);
    }
    return res;
  }
}
