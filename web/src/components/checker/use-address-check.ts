import { useMutation } from "@tanstack/react-query";
import { guessNetwork } from "../../../../schema/address";
import { api, HttpError, read } from "../../api/http";
import { toast } from "../toast-store";

/** Validates an address and scores its rarity on the server, with the spec's toasts. */
export function useAddressCheck() {
  return useMutation({
    mutationFn: (address: string) => read(api.addresses.validate.$post({ json: { address, network: guessNetwork(address) } })),
    onSuccess: (result) => {
      if (result.isValid) toast({ title: "Address Validated", description: `Rarity Score: ${result.rarityScore}/10`, variant: "success" });
      else toast({ title: "Invalid Address", description: result.message, variant: "destructive" });
    },
    onError: (err) => {
      const message = err instanceof HttpError ? (err.serverMessage ?? err.message) : err instanceof Error ? err.message : "";
      toast({ title: "Validation Failed", description: message || "Failed to validate address", variant: "destructive" });
    },
  });
}
