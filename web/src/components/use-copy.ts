import { useEffect, useState } from "react";
import { toast } from "./toast-store";

/** Copy feedback resets after this long (spec §9). */
export const COPY_FEEDBACK_MS = 2000;

/** Copies text with the spec's "Copied!" / "Failed to copy" toasts; `copied` is true for 2 s after a copy. */
export function useCopy(text: string, what: string) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), COPY_FEEDBACK_MS);
    return () => window.clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      toast({ title: "Copied!", description: `${what} copied to the clipboard.`, variant: "success" });
    } catch {
      toast({ title: "Failed to copy", description: "Your browser did not allow copying. Select the text and copy it by hand.", variant: "destructive" });
    }
  };
  return { copied, copy };
}
