import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { KeySaveOptions } from "./KeySaveOptions";

const text = (html: string) => html.replace(/<[^>]+>/g, "").replace(/\s+/g, " ");

describe("KeySaveOptions: an unencrypted key file says so where it is offered", () => {
  it("Solana: the keypair file is marked not encrypted, in the note and on its button", () => {
    const html = renderToStaticMarkup(<KeySaveOptions network="solana" privateKey="x" address="So1111" revealed={false} />);
    expect(text(html)).toMatch(/The keypair file is not encrypted: it is the key itself/);
    expect(text(html)).toContain("Keep it secret");
    expect(html).toMatch(/<button[^>]*>Download keypair file \(not encrypted\)<\/button>/);
  });

  it("Ethereum: the keystore is encrypted, so no such warning, and its password is asked twice", () => {
    const html = renderToStaticMarkup(<KeySaveOptions network="ethereum" privateKey="x" address="0xabc" revealed={false} />);
    expect(text(html)).not.toContain("not encrypted");
    expect(text(html)).toContain("Repeat password");
  });
});
