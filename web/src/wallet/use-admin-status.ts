import { queryOptions, useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { api, read } from "../api/http";
import { toast } from "../components/toast-store";

/** GET /api/users/admin-status for one wallet, cached as the spec says: 5 min fresh, 10 min kept, 1 retry. */
export const adminStatusQuery = (walletAddress: string) =>
  queryOptions({
    queryKey: ["/api/users/admin-status", walletAddress],
    queryFn: () => read(api.users["admin-status"].$get({ query: { walletAddress } })),
    staleTime: 5 * 60 * 1000,
    gcTime: 10 * 60 * 1000,
    retry: 1,
    refetchOnWindowFocus: false,
  });

// Several components read the status; the failure toast is shown once per failure, not once per reader.
let toastedFailureAt = 0;

/** Whether the connected wallet is an admin, as the server decides it (null address: not connected). */
export function useAdminStatus(walletAddress: string | null): { isAdmin: boolean; userExists: boolean; isLoading: boolean } {
  const query = useQuery({ ...adminStatusQuery(walletAddress ?? ""), enabled: Boolean(walletAddress) });
  useEffect(() => {
    if (query.isError && query.errorUpdatedAt !== toastedFailureAt) {
      toastedFailureAt = query.errorUpdatedAt;
      toast({ title: "Failed to check admin status", variant: "destructive" });
    }
  }, [query.isError, query.errorUpdatedAt]);
  return { isAdmin: query.data?.isAdmin === true, userExists: query.data?.userExists === true, isLoading: query.isLoading };
}
