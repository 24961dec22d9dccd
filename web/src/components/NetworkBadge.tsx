export function NetworkBadge({ network }: { network: "ethereum" | "solana" }) {
  const eth = network === "ethereum";
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold ${eth ? "bg-indigo-500/15 text-indigo-300" : "bg-teal-500/15 text-teal-300"}`}
    >
      <span aria-hidden>{eth ? "◆" : "◎"}</span>
      {eth ? "Ethereum" : "Solana"}
    </span>
  );
}
