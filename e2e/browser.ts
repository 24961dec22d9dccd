import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type BrowserContext, chromium, type Page, type Request } from "playwright-core";
import { inject, onTestFailed } from "vitest";

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

export type Session = { context: BrowserContext; page: Page; errors: string[]; warnings: string[]; close: () => Promise<void>; baseUrl: string };

/** What a page saw go wrong: console and page errors, requests that failed or answered 5xx. */
const troubles = new WeakMap<Page, string[]>();
/** Requests a page has sent and not yet seen answered or failed, with when they were sent. */
const inFlight = new WeakMap<Page, Map<Request, number>>();

/**
 * The page's state for a failure message: where it is, whether the app's entry was requested and has rendered
 * over a prerendered page (its controls stay disabled until then), and what went wrong on the way.
 */
export async function pageDiagnostics(page: Page): Promise<string> {
  const state = await page
    .evaluate(() => ({
      url: location.href,
      readyState: document.readyState,
      entryRequested: performance.getEntriesByName("app-entry-start").length > 0,
      prerenderedControlsStillDisabled: document.querySelectorAll("#root [disabled]").length,
      scripts: performance
        .getEntriesByType("resource")
        .filter((e) => (e as PerformanceResourceTiming).initiatorType !== "fetch")
        .map((e) => `${new URL(e.name).pathname} ${Math.round(e.duration)} ms status ${(e as PerformanceResourceTiming).responseStatus}`)
        .filter((line) => line.includes(".js")),
    }))
    .catch((err: Error) => ({ unreadable: err.message }));
  const now = Date.now();
  const pending = [...(inFlight.get(page)?.entries() ?? [])].map(([req, at]) => `${req.method()} ${req.url()} for ${now - at} ms`);
  return JSON.stringify({ ...state, pending, troubles: troubles.get(page) ?? [] }, null, 2);
}

/**
 * A fresh browser profile and page; console errors and page errors are collected in `errors`, console warnings (with
 * the page that logged them) in `warnings`, so a journey can hold its pages to a clean console.
 */
export async function openBrowser({ webgpu = false, javaScript = true }: { webgpu?: boolean; javaScript?: boolean } = {}): Promise<Session> {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vanity-chromium-"));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: webgpu ? [...CHROMIUM_ARGS, ...WEBGPU_ARGS] : CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
    javaScriptEnabled: javaScript,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(msg.text());
  });
  page.on("pageerror", (err) => errors.push(err.message));
  const warnings: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "warning") warnings.push(`${page.url()}: ${msg.text()}`);
  });
  // For the failure report only (tests assert on `errors`): a navigation aborts requests on purpose.
  const seen: string[] = [];
  troubles.set(page, seen);
  const at = () => new Date().toISOString().slice(11, 23);
  page.on("console", (msg) => {
    if (msg.type() === "error" || msg.type() === "warning") seen.push(`${at()} console.${msg.type()}: ${msg.text()}`);
  });
  page.on("pageerror", (err) => seen.push(`${at()} pageerror: ${err.message}`));
  const pending = new Map<Request, number>();
  inFlight.set(page, pending);
  page.on("request", (req) => pending.set(req, Date.now()));
  page.on("requestfinished", (req) => pending.delete(req));
  page.on("requestfailed", (req) => pending.delete(req));
  page.on("requestfailed", (req) => seen.push(`${at()} request failed: ${req.method()} ${req.url()} ${req.failure()?.errorText ?? ""}`));
  page.on("response", (res) => {
    if (res.status() >= 500) seen.push(`${at()} ${res.status()} ${res.request().method()} ${res.url()}`);
  });
  // A journey that fails says what its page went through (CI keeps only the output).
  try {
    onTestFailed(() => {
      const now = Date.now();
      const waiting = [...pending.entries()].map(([req, at]) => `still waiting: ${req.method()} ${req.url()} for ${now - at} ms`);
      console.error(`browser troubles for ${page.url()}:\n${[...seen.slice(-40), ...waiting].join("\n") || "(none)"}`);
    });
  } catch {
    // Opened outside a test (a beforeAll): nothing to attach to.
  }
  return {
    context,
    page,
    errors,
    warnings,
    baseUrl: inject("baseUrl"),
    close: async () => {
      await context.close();
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

export type { Page };
