// What main.tsx needs to start the app once React DOM is in: one dynamic import, so that evaluating the app's
// modules (router, data layer, the shared layout) is a task of its own (main.tsx says why).
export { createQueryClient } from "./api/query-client";
export { seedEmbeddedListing } from "./api/embedded-listing";
export { firstReadsSettled } from "./api/first-reads";
export { App, createAppRouter } from "./app-router";
