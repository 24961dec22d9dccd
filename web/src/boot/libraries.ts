// The libraries the app is built on (router, data layer), which main.tsx evaluates in a task of their own before
// the app's own modules: evaluated together with them they were one task of 10-45 ms on a fast machine, i.e.
// 40-180 ms on a slow phone (Lighthouse's 4x CPU), the longest of the app's start.
export { QueryClient } from "@tanstack/react-query";
export { createBrowserHistory, createRouter } from "@tanstack/react-router";
