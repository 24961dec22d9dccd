// anvil's standard development accounts (mnemonic "test test test test test test test test test test test
// junk"). PUBLIC keys known to everyone: for the local chain only. dev-accounts.test.ts proves each key
// derives its address from the mnemonic.
export const LOCAL_CHAIN = {
  chainId: 31337,
  rpcUrl: "http://127.0.0.1:8545",
  mnemonic: "test test test test test test test test test test test junk",
} as const;

export type DevAccount = { index: number; address: `0x${string}`; privateKey: `0x${string}` };

export const DEV_ACCOUNTS = {
  /** Account 0: listed in ADMIN_WALLETS in wrangler.toml. */
  admin: { index: 0, address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", privateKey: "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80" },
  /** Account 1: an ordinary buyer. */
  buyer: { index: 1, address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", privateKey: "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d" },
  /** Account 2: a second buyer, for races. */
  otherBuyer: {
    index: 2,
    address: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
    privateKey: "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
  },
  /** Account 9: PLATFORM_ETH_ADDRESS in wrangler.toml, receives payments locally. */
  platform: {
    index: 9,
    address: "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720",
    privateKey: "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6",
  },
} as const satisfies Record<string, DevAccount>;

export type SolanaDevAccount = { index: number; address: string; secretKey: string };

/**
 * The local Solana chain's funded wallets: the same public mnemonic as anvil's, on Phantom's and Solflare's
 * derivation path m/44'/501'/<index>'/0', so importing that mnemonic into a Solana wallet shows these
 * accounts. `secretKey` is the 64-byte key in base58, the form Phantom's "import private key" takes.
 * PUBLIC keys known to everyone: for the local chain only (dev-accounts.test.ts re-derives each one).
 */
export const SOLANA_DEV_ACCOUNTS = {
  /** Index 0: listed in ADMIN_WALLETS in wrangler.toml. */
  admin: {
    index: 0,
    address: "oeYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq96",
    secretKey: "4Cfc4TJ6dsWwLcw8aJ5uhx7UJKPR5VGXTu2iJr5bVRoTDsxzb6qfJrzR5HNhBcwGwsXqGeHzDR3eUWLr7MRnska8",
  },
  /** Index 1: an ordinary buyer. */
  buyer: {
    index: 1,
    address: "AqynRZwvVqUPRwRJXvm6odUb3t93fDjnWe3p6BeuUFxD",
    secretKey: "2GE2EWZwKFkMpDFKaN6LYVggqLJTdwkreHLNbXBKbtfnCBqkbtNhM4cEymyi5HZD2dX6rmh2VzE4waW7pbUUgXF7",
  },
  /** Index 2: a second buyer, for races. */
  otherBuyer: {
    index: 2,
    address: "CqMbRgMuEhQi9BUS8xP44Wk5nENm48FqJnfjEi4eNb1k",
    secretKey: "3rSg4wp38McUCkhe511k98mKhsSYxCw4mrvytNLULVvsPDFmaxC4XSyAPT54Tx3QqJmBbXoPsdbVAYqynzZR1K2i",
  },
  /** Index 9: PLATFORM_SOL_ADDRESS in wrangler.toml, receives payments locally. */
  platform: {
    index: 9,
    address: "2yaW8VAMLhQiornz1BgcSWDUSH2jC2dmB8RWnTJi8Yab",
    secretKey: "5uYLMzbkZ7DCxH9gsSxi4UoMbA4YDw3vxwSgnAbDA8jvTY1YY9jGKJsx8dQTtc9yJstkeLVCAcTUZtALZyA4svvj",
  },
} as const satisfies Record<string, SolanaDevAccount>;

export const LOCAL_SOLANA = { rpcUrl: "http://127.0.0.1:8899", port: 8899, fundedSol: 1000 } as const;
