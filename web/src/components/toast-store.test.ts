import { afterEach, describe, expect, it, vi } from "vitest";
import { currentToasts, dismissToast, toast, TOAST_DURATION_MS, TOAST_LIMIT, TOAST_REMOVE_DELAY_MS } from "./toast-store";

describe("toasts", () => {
  afterEach(() => vi.useRealTimers());

  it("use the spec's constants", () => {
    expect(TOAST_LIMIT).toBe(1);
    expect(TOAST_DURATION_MS).toBe(5000);
    expect(TOAST_REMOVE_DELAY_MS).toBe(1_000_000);
  });

  it("show one at a time: a new toast replaces the old; a dismissed one is dropped after the removal delay", () => {
    vi.useFakeTimers();
    toast({ title: "First" });
    const id = toast({ title: "Second", variant: "destructive" });
    expect(currentToasts().map((t) => t.title)).toEqual(["Second"]);
    dismissToast(id);
    expect(currentToasts()[0].open).toBe(false);
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS);
    expect(currentToasts()).toEqual([]);
  });
});
