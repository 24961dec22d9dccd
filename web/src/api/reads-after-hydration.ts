// A prerendered page (scripts/build/prerender.ts) was rendered before any API read answered. React hydrates
// the page's content after the rest of the tree (it sits in the router's Suspense boundary), so an answer that
// arrived in between would make the browser's first render differ from the HTML: a hydration error, and the
// page rendered again from scratch. So while a prerendered page hydrates, reads are held (react-query pauses
// them as if offline) and released once the page's content has hydrated. The browser has already started
// these reads from the page's Link preload headers, so holding them costs no network time.
import { onlineManager, type QueryClient } from "@tanstack/react-query";
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

/** Resolves once no read is in flight, or after `ms`: a page that renders afresh waits for what its loader started. */
export function firstReadsSettled(queryClient: QueryClient, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const finish = () => {
      unsubscribe();
      clearTimeout(timer);
      resolve();
    };
    const unsubscribe = queryClient.getQueryCache().subscribe(() => {
      if (queryClient.isFetching() === 0) finish();
    });
    const timer = setTimeout(finish, ms);
    if (queryClient.isFetching() === 0) finish();
  });
}
