import { useEffect, useState } from "react";
import { toast } from "./toast-store";

// Also type-checked with the Worker's types, which have no DOM: the Worker renders the listing summary that
// uses this hook (worker/landing/listing-page.ts), though only a browser ever runs the copy.
type ClipboardNavigator = { clipboard: { writeText(text: string): Promise<void> } };

/** Copy feedback resets after this long. */
export const COPY_FEEDBACK_MS = 2000;

/** Copies text with the spec's "Copied!" / "Failed to copy" toasts; `copied` is true for 2 s after a copy. */
export function useCopy(text: string, what: string) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    try {
      await (navigator as unknown as ClipboardNavigator).clipboard.writeText(text);
      setCopied(true);
      toast({ title: "Copied!", description: `${what} copied to the clipboard.`, variant: "success" });
    } catch {
      toast({ title: "Failed to copy", description: "Your browser did not allow copying. Select the text and copy it by hand.", variant: "destructive" });
    }
  };
  return { copied, copy };
}
