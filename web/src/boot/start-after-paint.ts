// The page's only script tag (scripts/build/paint-first.ts puts it in the built HTML): a classic deferred
// script that starts the app's entry only after a prerendered page has painted. Why: the entry's modules
// download in parallel with the HTML; from a nearby server they arrive before the first frame, and a module
// script that is ready runs before the browser paints, so the page would wait for ~90 KB of script to
// evaluate (on a slow phone, hundreds of ms) before showing HTML it already had. Started from here, the paint
// always comes first; the modules are still fetched with the HTML (low-priority modulepreload hints), so
// the app starts from the memory cache, one frame later than before at most.
//
// A classic script, not a module, so it cannot import anything: it is kept tiny and self-contained (the build
// strips its types; nothing is bundled into it). It is fetched at low priority, like the modules: nothing the
// first paint needs waits for it.
(() => {
  /** The User Timing mark set when the app's entry is requested; e2e/prerender.e2e.ts compares it with the first paint. */
  const START_MARK = "app-entry-start";
  /** The longest a prerendered page waits for the browser to report its first paint (a browser that never does). */
  const PAINT_WAIT_MS = 2000;

  const entry = (document.currentScript as HTMLScriptElement | null)?.dataset.entry;
  if (!entry) throw new Error("start-after-paint: the script tag has no data-entry");

  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    performance.mark(START_MARK);
    void import(/* @vite-ignore */ entry);
  };

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
})();
