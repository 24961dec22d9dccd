import type { EIP6963ProviderDetail } from "mipd";
import { describe, expect, it } from "vitest";
import { toWallet } from "./evm-discovery";

const provider = { request: async () => null };
const detail = (info: Record<string, unknown>, p: unknown = provider) => ({ info, provider: p }) as unknown as EIP6963ProviderDetail;

describe("toWallet (what an EIP-6963 announcement may show)", () => {
  it("keeps a well-formed announcement", () => {
    const icon = "data:image/svg+xml,<svg/>";
    expect(toWallet(detail({ uuid: "u-1", name: "Test", rdns: "org.example", icon }))).toEqual({
      kind: "evm",
      uuid: "u-1",
      rdns: "org.example",
      name: "Test",
      icon,
      provider,
    });
  });

  it("refuses announcements without a uuid or a provider that can request", () => {
    expect(toWallet(detail({ name: "x" }))).toBeNull();
    expect(toWallet(detail({ uuid: "u" }, {}))).toBeNull();
    expect(toWallet(detail({ uuid: "u" }, null))).toBeNull();
  });

  it("drops icons that are not inline images and bounds the texts", () => {
    const w = toWallet(detail({ uuid: "u", name: "n".repeat(500), icon: "https://evil.example/x.png" }))!;
    expect(w.icon).toBeNull();
    expect(w.name).toHaveLength(60);
    expect(w.rdns).toBe("u");
    expect(toWallet(detail({ uuid: "u", icon: "javascript:alert(1)" }))!.icon).toBeNull();
  });
});
