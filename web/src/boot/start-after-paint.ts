// The page's only script (scripts/build/paint-first.ts inlines it in the built HTML's <head>, allowed by its
// hash in the CSP). On a prerendered page it asks for the app's modules only once the page has painted, then
// starts the entry. Why: from a nearby server the modules arrived before the first frame and a ready module
// script runs before the browser paints, so the page waited for ~90 KB of script to evaluate before showing
// HTML it already had (on a slow phone, hundreds of ms); and Lighthouse counts every script that has arrived
// before the first paint in it. What it costs: the modules start downloading after the first paint instead
// of with the HTML, i.e. later by the time the browser takes to lay out and paint the page.
//
// Plain script, no imports (it is inlined as the build strips its types), and kept small: every page carries it.
(() => {
  /** The User Timing mark set when the app's entry is requested; e2e/prerender.e2e.ts compares it with the first paint. */
  const START_MARK = "app-entry-start";
  /** The longest a prerendered page waits for the browser to report its first paint (a browser that never does). */
  const PAINT_WAIT_MS = 2000;
  /** Set in sessionStorage while a reload after a failed start is pending or failed again. */
  const RELOADED = "app-start-reloaded";
  /** The events main.tsx dispatches on window when its start ends (the names are repeated there). */
  const STARTED = "app-started";
  const START_FAILED = "app-start-failed";
  /** How many modulepreload hints the boot script adds in one task. */
  const HINTS_PER_TASK = 6;

  const script = document.currentScript as HTMLScriptElement | null;
  const entry = script?.dataset.entry;
  if (!entry) throw new Error("start-after-paint: the script tag has no data-entry");
  const modules = (script?.dataset.modules ?? "").split(" ");

  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    performance.mark(START_MARK);
    // If a module never arrives (a dropped connection), the page would keep its disabled controls for good: it
    // reloads, once per tab, so a server that keeps failing is not asked in a loop. main.tsx reports the end of
    // its start with these events (its later imports can fail too); the flag clears only on a whole start.
    const failed = (err: unknown) => {
      console.error("the app did not start:", err);
      try {
        if (sessionStorage.getItem(RELOADED)) return;
        sessionStorage.setItem(RELOADED, "1");
      } catch {
        return; // without storage a reload could not know it is the second: no loop
      }
      location.reload();
    };
    addEventListener(START_FAILED, (e) => failed((e as CustomEvent).detail), { once: true });
    addEventListener(
      STARTED,
      () => {
        try {
          sessionStorage.removeItem(RELOADED);
        } catch {
          // Storage refused (a privacy setting): there is no flag to clear.
        }
      },
      { once: true },
    );
    import(/* @vite-ignore */ entry).catch(failed);
    // Everything the start needs, requested up front rather than as each import is reached; a few hints per
    // task, because each costs the browser a request's set-up on this thread (about a millisecond on a slow
    // phone, more under Lighthouse's tracing): the two dozen in one go were a 10-40 ms task.
    const routeModules = document.getElementById("root")?.dataset.routeModules?.split(" ") ?? [];
    const hrefs = [...modules, ...routeModules].filter((href) => href && href !== entry);
    const hint = (from: number) => {
      for (const href of hrefs.slice(from, from + HINTS_PER_TASK)) {
        const link = document.createElement("link");
        link.rel = "modulepreload";
        link.crossOrigin = "";
        link.href = href;
        document.head.append(link);
      }
      if (from + HINTS_PER_TASK < hrefs.length) {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => hint(from + HINTS_PER_TASK);
        channel.port2.postMessage(null);
      }
    };
    hint(0);
  };

  const startAfterPaint = () => {
    // The empty shell (every path that is not prerendered) has nothing to show before the app renders it, and a
    // hidden tab does not paint until it is shown: both start at once.
    const prerendered = document.getElementById("root")?.dataset.prerenderedRoute !== undefined;
    if (!prerendered || document.visibilityState !== "visible") return start();

    const painted = () => performance.getEntriesByName("first-contentful-paint").length > 0;
    if (!PerformanceObserver.supportedEntryTypes?.includes("paint")) {
      // No paint timing: the task after the next animation frame runs once that frame is painted.
      requestAnimationFrame(() => setTimeout(start, 0));
      return;
    }
    if (painted()) return start();
    const observer = new PerformanceObserver(() => {
      if (!painted()) return;
      observer.disconnect();
      start();
    });
    observer.observe({ type: "paint", buffered: true });
    document.addEventListener("visibilitychange", start, { once: true });
    setTimeout(start, PAINT_WAIT_MS);
  };
  // In <head>, the script runs before the page below it is parsed.
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", startAfterPaint, { once: true });
  else startAfterPaint();
})();
