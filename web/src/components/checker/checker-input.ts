// What the checker sends for what was typed or pasted. Addresses never contain whitespace, so a value pasted
// over several lines (an address wrapped by the page it was copied from) is joined back into one; several
// complete addresses are refused with a plain reason instead of the server's "control characters" error.
const ONE_ADDRESS = /^(0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44})$/;

export type CheckerInput = { ok: true; address: string } | { ok: false; message: string };

export function checkerInput(raw: string): CheckerInput {
  const parts = raw.split(/\s+/).filter(Boolean);
  if (parts.length === 0) return { ok: false, message: "Please enter an address" };
  if (parts.length > 1 && parts.filter((p) => ONE_ADDRESS.test(p)).length > 1) {
    return { ok: false, message: `That is ${parts.length} addresses; check one address at a time.` };
  }
  return { ok: true, address: parts.join("") };
}
