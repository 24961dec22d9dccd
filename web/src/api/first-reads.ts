// A prerendered landing page (scripts/build/prerender.ts) shows its HTML until the app renders; the app renders
// once the reads its route's loader started have answered, so the page goes from its placeholders to its
// content in one step. The Link preload headers started those reads with the HTML, so this rarely waits.
import type { QueryClient } from "@tanstack/react-query";

/** Resolves once no read is in flight, or after `ms`. */
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
