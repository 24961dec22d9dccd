import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { inject } from "vitest";

// Debian's chromium, started the way this closed network allows.
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-sync",
  "--disable-quic",
];

// WebGPU on SwiftShader (chromium's CPU Vulkan driver), for the browser grinder (/grind). Without these flags
// headless chromium has navigator.gpu but no adapter.
const WEBGPU_ARGS = ["--enable-unsafe-webgpu", "--enable-unsafe-swiftshader"];

export type Session = { context: BrowserContext; page: Page; errors: string[]; close: () => Promise<void>; baseUrl: string };

/** A fresh browser profile and page; console errors and page errors are collected in `errors`. */
export async function openBrowser({ webgpu = false }: { webgpu?: boolean } = {}): Promise<Session> {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vanity-chromium-"));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: webgpu ? [...CHROMIUM_ARGS, ...WEBGPU_ARGS] : CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(msg.text());
  });
  page.on("pageerror", (err) => errors.push(err.message));
  return {
    context,
    page,
    errors,
    baseUrl: inject("baseUrl"),
    close: async () => {
      await context.close();
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

export type { Page };
