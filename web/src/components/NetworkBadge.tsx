/** The network as a small badge: "Ethereum"/"Solana", or "ETH"/"SOL" where space is short (the listing table). */
export function NetworkBadge({ network, short = false }: { network: "ethereum" | "solana"; short?: boolean }) {
  const eth = network === "ethereum";
  const name = eth ? "Ethereum" : "Solana";
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold ${eth ? "bg-indigo-500/15 text-indigo-300" : "bg-teal-500/15 text-teal-300"}`}
      title={short ? name : undefined}
    >
      <span aria-hidden>{eth ? "◆" : "◎"}</span>
      {short ? (eth ? "ETH" : "SOL") : name}
    </span>
  );
}
