import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DeliveredKeyPanel } from "./FinalKeyCard";

const text = (html: string) => html.replace(/<[^>]+>/g, "").replace(/\s+/g, " ");

describe("DeliveredKeyPanel: what is secret and what to keep, in words", () => {
  const html = renderToStaticMarkup(
    <DeliveredKeyPanel order={{ address: "0xabc0000000000000000000000000000000000001" }} privateKey={`0x${"11".repeat(32)}`} />,
  );

  it("says to keep the key secret and to keep the secret key file, and why", () => {
    expect(text(html)).toContain("Keep this key secret.");
    expect(text(html)).toMatch(/Keep the secret key file too, with its password: with them this page makes the same key again/);
  });

  it("asks for the keystore password twice", () => {
    expect(html).toMatch(/Keystore password<input[^>]*type="password"/);
    expect(html).toMatch(/Password again<input[^>]*type="password"/);
  });

  it("explains the raw key file and says it is not encrypted, on the button too", () => {
    expect(text(html)).toMatch(/Raw key file: a plain text file holding only the key above, not encrypted\. Anyone who reads it controls the address/);
    expect(html).toMatch(/<button[^>]*aria-describedby="[^"]*raw-help"[^>]*>Download raw key file \(not encrypted\)<\/button>/);
  });

  it("keeps the key hidden until asked", () => {
    expect(html).not.toContain("11".repeat(32));
  });
});
