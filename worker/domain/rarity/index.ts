// Rarity: how hard an address is to generate, what that means in time, and what it is worth.
export { analyzeAddress, MIN_LENGTH, NOTABLE_LOG2 } from "./analyze";
export { difficultyFromLog2, hexCharacters, scoreFromLog2, solanaFirstCharProbability, solanaPrefixLog2 } from "./difficulty";
export { expectedTimeSeconds, REFERENCE_RATES, type KeyRates } from "./rates";
export type { Difficulty, MatchRange, Network, PatternPosition, RarityAnalysis, RarityCategory } from "../../../schema/rarity";
export { estimateValue, MAX_VALUE, VALUE_MODEL, valueInCoin } from "./value";
export { ETHEREUM_WORDS, SOLANA_WORDS } from "./words";
