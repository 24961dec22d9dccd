import { spawnSync } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");

describe("npm start", () => {
  let server: net.Server;
  let port = 0;
  beforeAll(async () => {
    server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("a busy port gives a clear message and stops before doing anything", () => {
    const res = spawnSync(process.execPath, ["--import", "tsx", path.join(root, "scripts", "start.ts")], {
      cwd: root,
      env: { ...process.env, PORT: String(port) },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(res.status).toBe(1);
    expect(res.stderr).toContain(`Port ${port} is already in use`);
    expect(res.stdout).not.toContain("Building the web app");
  });
});
