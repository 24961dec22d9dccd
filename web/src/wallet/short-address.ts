// The spec's display rule for an address (public-side.md §5): longer than 20 characters -> the first 8,
// "...", the last 6.
export function shortAddress(address: string): string {
  return address.length > 20 ? `${address.slice(0, 8)}...${address.slice(-6)}` : address;
}
