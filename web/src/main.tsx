import { QueryClientProvider } from "@tanstack/react-query";
import { createRouter, RouterProvider } from "@tanstack/react-router";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createQueryClient } from "./api/query-client";
import { NotFound } from "./components/NotFound";
import { routeTree } from "./routeTree.gen";
import "./styles.css";
import { startEvmDiscovery } from "./wallet/evm-discovery";

// Wallet extensions announce themselves at any time during the page's life: listen from the start.
startEvmDiscovery();

// The local demo's dev wallets (web/src/wallet/dev): built in only by npm start, offered only when the
// Worker says both chains are local. A production build has neither the flag nor the module.
if (import.meta.env.VITE_LOCAL_DEV_WALLETS === "true") {
  void fetch("/api/config")
    .then((res) => res.json() as Promise<{ localDevWallets?: boolean }>)
    .then((config) => (config.localDevWallets ? import("./wallet/dev").then((dev) => dev.installDevWallets()) : undefined))
    .catch(() => undefined);
}

const queryClient = createQueryClient();
const router = createRouter({
  routeTree,
  context: { queryClient },
  defaultPreload: "intent",
  defaultNotFoundComponent: NotFound,
  scrollRestoration: true,
});

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
}

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
