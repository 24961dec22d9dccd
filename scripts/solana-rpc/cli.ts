// `node --import tsx scripts/solana-rpc/cli.ts [--port 8899] [--state DIR] [--slot-ms 400] [--finalize-depth 32]`
// Runs the local Solana JSON-RPC in the foreground (npm start runs it as a child the same way).
import { parseArgs } from "node:util";
import { startSolanaRpc } from "./server";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "8899" },
    host: { type: "string", default: "127.0.0.1" },
    state: { type: "string" },
    "slot-ms": { type: "string", default: "400" },
    "finalize-depth": { type: "string", default: "32" },
    help: { type: "boolean", default: false },
  },
});

if (values.help) {
  console.log(`Local Solana JSON-RPC over LiteSVM.
  --port N             port to listen on (default 8899)
  --host H             address to bind (default 127.0.0.1)
  --state DIR          keep the chain in DIR across restarts (default: in memory)
  --slot-ms N          milliseconds per slot, 0 = only on demand (default 400)
  --finalize-depth N   slots until a transaction is finalized (default 32)`);
  process.exit(0);
}

const int = (name: string, value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) {
    console.error(`--${name} must be a whole number, got "${value}"`);
    process.exit(2);
  }
  return n;
};

try {
  const rpc = await startSolanaRpc({
    port: int("port", values.port),
    host: values.host,
    statePath: values.state,
    slotMs: int("slot-ms", values["slot-ms"]),
    finalizeDepth: int("finalize-depth", values["finalize-depth"]),
  });
  console.log(`Solana JSON-RPC (LiteSVM) on ${rpc.url}, slot ${rpc.ledger.slot}`);
  const stop = () => void rpc.stop().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
} catch (err) {
  const code = (err as NodeJS.ErrnoException).code;
  console.error(code === "EADDRINUSE" ? `Port ${values.port} is already in use: stop the other Solana RPC or pass --port.` : String(err));
  process.exit(1);
}
