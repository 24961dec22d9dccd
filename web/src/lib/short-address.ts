// An address shortened where a whole one does not fit (tables, the wallet chip, lists).

/** Addresses longer than 20 characters: first 8, "...", last 6. */
export function shortAddress(address: string): string {
  return address.length > 20 ? `${address.slice(0, 8)}...${address.slice(-6)}` : address;
}
