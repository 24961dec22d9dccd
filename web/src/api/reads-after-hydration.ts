// A prerendered page (scripts/build/prerender.ts) was rendered before any API read answered. React hydrates
// the page's content after the rest of the tree (it sits in the router's Suspense boundary), so an answer that
// arrived in between would make the browser's first render differ from the HTML: a hydration error, and the
// page rendered again from scratch. So while a prerendered page hydrates, reads are held (react-query pauses
// them as if offline) and released once the page's content has hydrated. The browser has already started
// these reads from the page's Link preload headers, so holding them costs no network time.
import { onlineManager } from "@tanstack/react-query";
import { useEffect } from "react";

let held = false;

export function holdReads() {
  held = true;
  onlineManager.setOnline(false);
}

export function releaseReads() {
  if (!held) return;
  held = false;
  onlineManager.setOnline(true);
}

/** Called by each prerendered page: its effects run once its content has hydrated (or mounted). */
export function useReleaseReadsAfterHydration() {
  useEffect(releaseReads, []);
}
