// The test projects' wrangler configuration reads no developer secrets: a .dev.vars (or .env) beside wrangler.toml
// reaches wrangler's bindings from the committed file's folder, and not from the copy the tests run under.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { isolatedWranglerConfig } from "./wrangler-config";

const ROOT = path.join(import.meta.dirname, "..", "..");
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A folder holding the committed wrangler.toml and `file` with `text` beside it. */
function checkoutWith(file: string, text: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vanity-wrangler-config-"));
  dirs.push(dir);
  fs.copyFileSync(path.join(ROOT, "wrangler.toml"), path.join(dir, "wrangler.toml"));
  // wrangler.toml serves ./dist as assets; wrangler wants the folder to exist.
  fs.mkdirSync(path.join(dir, "dist"));
  fs.writeFileSync(path.join(dir, file), text);
  return dir;
}

const bindingsOf = (configPath: string) => unstable_getMiniflareWorkerOptions(configPath).workerOptions.bindings ?? {};

describe("the tests' wrangler configuration", () => {
  for (const file of [".dev.vars", ".env"]) {
    it(`reads no ${file}: a developer's ALERT_WEBHOOK_URL there reaches wrangler.toml's bindings, not the tests'`, () => {
      const dir = checkoutWith(file, "ALERT_WEBHOOK_URL=http://127.0.0.1:1/x\n");
      // The committed file's folder: wrangler takes the developer's value.
      expect(bindingsOf(path.join(dir, "wrangler.toml"))).toMatchObject({ ALERT_WEBHOOK_URL: "http://127.0.0.1:1/x" });
      const isolated = isolatedWranglerConfig(dir, path.join(dir, "test-config"));
      const bindings = bindingsOf(isolated);
      expect(bindings).not.toHaveProperty("ALERT_WEBHOOK_URL");
      // The committed [vars] are still there, and the paths still point at the checkout.
      expect(bindings).toHaveProperty("PLATFORM_ETH_ADDRESS");
      expect(fs.readFileSync(isolated, "utf8")).toContain(`main = "${path.join(dir, "worker", "index.ts")}"`);
      expect(fs.readFileSync(isolated, "utf8")).toContain(`directory = "${path.join(dir, "dist")}"`);
    });
  }

  it("empties its folder first: a stray .dev.vars left there is gone", () => {
    const dir = checkoutWith("README", "");
    const out = path.join(dir, "test-config");
    fs.mkdirSync(out);
    fs.writeFileSync(path.join(out, ".dev.vars"), "ALERT_WEBHOOK_URL=http://127.0.0.1:1/x\n");
    expect(bindingsOf(isolatedWranglerConfig(dir, out))).not.toHaveProperty("ALERT_WEBHOOK_URL");
    expect(fs.readdirSync(out)).toEqual(["wrangler.toml"]);
  });
});
