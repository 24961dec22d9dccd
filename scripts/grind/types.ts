export interface KeyFound {
  /** Ethereum: 0x + EIP-55 checksummed; Solana: base58 public key */
  address: string;
  /** Ethereum: 0x + 64 hex; Solana: base58 of the 64-byte secret key (seed || public key) */
  privateKey: string;
}

/** A split-key order's match: the offset k (0x + 64 hex) from the buyer's A and the variant that matched. */
export interface OffsetFound {
  address: string;
  offset: string;
  variant: number;
}

export type Found = KeyFound | OffsetFound;

export interface StepResult {
  attempts: number;
  found: Found | null;
}

/** A single-threaded searcher: each step() checks about perBatch candidates. */
export interface Searcher {
  readonly perBatch: number;
  step(): StepResult;
}
