// Rarity: how hard an address is to generate, what that means in time, and what it is worth.
export { analyzeAddress } from "./analyze";
export { difficultyFromLog2, hexCharacters } from "./difficulty";
export { expectedTimeSeconds, REFERENCE_RATES } from "./rates";
export type { RarityAnalysis } from "../../../schema/rarity";
export { estimateValue, valueInCoin } from "./value";
export { ETHEREUM_WORDS, SOLANA_WORDS } from "./words";
