// The EVM chains this site knows (docs/production-settings.md#which-chains-are-mainnet). A chain whose coins have
// real value gets the mainnet rules whatever its id: two nodes on different hosts, a quorum of two, and at least
// its own confirmation depth. A known test chain keeps the test rules. Any other chain id is refused until the
// operator declares it a test chain (ETH_TEST_CHAIN_ID) or it is added here with its depth: an unknown chain
// fails closed, since nothing here can tell whether its coins are worth anything.

/** Least depth on Ethereum mainnet, and so on any chain whose coins have real value (the depths below say why). */
export const MAINNET_MIN_CONFIRMATIONS = 12;

export type RealValueChain = {
  /** As refusals name it. */
  name: string;
  /** The least ETH_CONFIRMATIONS the rules accept on it. */
  minConfirmations: number;
};

// Depths. Never below Ethereum mainnet's 12; deeper where the chain has reorganised deeper than that.
// - Ethereum: reorgs of several blocks have happened since the merge; 12 blocks is about 2.4 minutes (the
//   checkpoint finality of about 64 blocks is an operator's choice above it).
// - Rollups (OP Mainnet, Base, Arbitrum One, Linea, zkSync Era, Scroll and the other OP Stack chains): one
//   sequencer orders the blocks; they reorganise only when it fails (a restart that loses blocks not yet posted
//   to Ethereum), which a short depth rides out; a misbehaving sequencer is outwaited only by the batch's own
//   finality on Ethereum, which no depth in L2 blocks measures. 12 blocks, as on mainnet.
// - Polygon PoS: reorganised 157 blocks deep in February 2023, before its milestone finality; 256 blocks (about
//   9 minutes at 2 s) stays clear of any reorg it has shown.
// - BNB Smart Chain: fast finality (BEP-126) finalises a block within a few blocks while most validators vote;
//   15 blocks is the depth Binance itself credits BNB Smart Chain deposits at.
// - Avalanche C-Chain: a block is final once accepted (Snowman consensus), and Gnosis is an Ethereum-style
//   beacon chain with 5 s slots: 12 blocks, as on mainnet.
const ROLLUP = MAINNET_MIN_CONFIRMATIONS;
export const REAL_VALUE_EVM_CHAINS: ReadonlyMap<number, RealValueChain> = new Map([
  [1, { name: "Ethereum mainnet", minConfirmations: MAINNET_MIN_CONFIRMATIONS }],
  [10, { name: "OP Mainnet", minConfirmations: ROLLUP }],
  [8453, { name: "Base", minConfirmations: ROLLUP }],
  [42161, { name: "Arbitrum One", minConfirmations: ROLLUP }],
  [42170, { name: "Arbitrum Nova", minConfirmations: ROLLUP }],
  [59144, { name: "Linea", minConfirmations: ROLLUP }],
  [324, { name: "zkSync Era", minConfirmations: ROLLUP }],
  [534352, { name: "Scroll", minConfirmations: ROLLUP }],
  [7777777, { name: "Zora", minConfirmations: ROLLUP }],
  [81457, { name: "Blast", minConfirmations: ROLLUP }],
  [130, { name: "Unichain", minConfirmations: ROLLUP }],
  [137, { name: "Polygon PoS", minConfirmations: 256 }],
  [56, { name: "BNB Smart Chain", minConfirmations: 15 }],
  [43114, { name: "Avalanche C-Chain", minConfirmations: MAINNET_MIN_CONFIRMATIONS }],
  [100, { name: "Gnosis", minConfirmations: MAINNET_MIN_CONFIRMATIONS }],
]);

/** Chains whose coins a faucet gives away: the test rules (one node, any depth from 1). */
export const TEST_EVM_CHAINS: ReadonlySet<number> = new Set([
  31337, // anvil, Hardhat
  1337, // geth --dev, Ganache
  11155111, // Sepolia
  17000, // Holesky
  560048, // Hoodi
  84532, // Base Sepolia
  11155420, // OP Sepolia
  421614, // Arbitrum Sepolia
  59141, // Linea Sepolia
  300, // zkSync Sepolia
  534351, // Scroll Sepolia
  80002, // Polygon Amoy
  97, // BNB Smart Chain testnet
  43113, // Avalanche Fuji
  10200, // Gnosis Chiado
]);
