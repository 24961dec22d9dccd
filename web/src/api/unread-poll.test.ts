import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// TanStack Query runs no interval timers where there is no window (its server check, read once on import), so
// this file gives it one before anything imports it, as the browser does.
vi.hoisted(() => {
  (globalThis as { window?: unknown }).window ??= {};
});

import { focusManager, QueryObserver } from "@tanstack/react-query";
import { UNREAD_POLL_MS } from "../../../schema/collectors";
import { unreadCountQuery, unreadPollInterval } from "./collectors";
import { createQueryClient } from "./query-client";

describe("unreadPollInterval: the bell's poll follows the page's visibility", () => {
  it("visible: within 10 s, and never as often as once a second", () => {
    const ms = unreadPollInterval("visible");
    expect(ms).toBe(UNREAD_POLL_MS);
    expect(ms).toBeLessThanOrEqual(8_000);
    expect(ms).toBeGreaterThanOrEqual(5_000);
  });

  it("hidden, or no document at all: no poll", () => {
    expect(unreadPollInterval("hidden")).toBe(false);
    expect(unreadPollInterval(undefined)).toBe(false);
  });
});

describe("unreadCountQuery under TanStack Query's own timers", () => {
  let visibility: DocumentVisibilityState = "visible";
  beforeEach(() => {
    vi.useFakeTimers();
    visibility = "visible";
    vi.stubGlobal("document", {
      get visibilityState() {
        return visibility;
      },
    });
    focusManager.setFocused(true);
  });
  afterEach(() => {
    focusManager.setFocused(undefined);
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it("a minute visible asks about ten times; a hidden minute asks none; shown again asks at once and polls again", async () => {
    const client = createQueryClient(); // the app's defaults (no interval, no focus refetch) are overridden by the query
    client.mount(); // as QueryClientProvider does: the client hears the focus manager
    let calls = 0;
    const observer = new QueryObserver(client, {
      ...unreadCountQuery("0xwallet"),
      queryFn: async () => ({ unread: ++calls }),
    });
    const stop = observer.subscribe(() => {});
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(1); // the first read on mount

    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls - 1).toBe(Math.floor(60_000 / UNREAD_POLL_MS));

    visibility = "hidden";
    focusManager.setFocused(false);
    await vi.advanceTimersByTimeAsync(UNREAD_POLL_MS); // the tick already scheduled finds the page hidden
    const whileHidden = calls;
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(calls).toBe(whileHidden);

    visibility = "visible";
    focusManager.setFocused(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(whileHidden + 1); // at once, not after the next tick

    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toBeGreaterThanOrEqual(whileHidden + 2); // and the poll runs again: news reaches the page within 10 s
    stop();
    client.unmount();
    client.clear();
  });
});
