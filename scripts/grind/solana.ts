// Solana vanity search: one fresh Ed25519 key pair per candidate from OpenSSL
// (crypto.generateKeyPairSync, seeded by OpenSSL's CSPRNG), raw keys taken from its JWK output.
// The 32-byte public key is turned into base58 digit indices without building strings and
// checked against per-position allowed-digit tables; only matches are encoded as text.
//
// JWK comes straight out of the key generation job: exporting KeyObjects (.export()) is both
// slower (DER) and, for JWK, can deadlock Node 20 under GC (ExportJWKEdKey vs ~KeyGenJob).
import { generateKeyPairSync } from "node:crypto";
import { base58 } from "@scure/base";
import { base58Digits32 } from "./base58.ts";
import { describeChar } from "../../schema/pattern-chars.ts";
import { BASE58_ALPHABET, solanaVariants, type PatternSpec } from "../../schema/grind-pattern.ts";
import type { KeyFound, Searcher } from "./types.ts";

const JWK = { publicKeyEncoding: { format: "jwk" }, privateKeyEncoding: { format: "jwk" } } as const;

/** allowed[pos * 58 + digit] = 1 for every digit allowed at that pattern position. */
function allowedTable(chars: string, caseSensitive: boolean): Uint8Array {
  const t = new Uint8Array(chars.length * 58);
  [...chars].forEach((c, pos) => {
    // a worker thread gets its pattern without the command line's validation: a character with no base58 form
    // (0, or anything outside ASCII) would silently match nothing, or fewer addresses than asked for
    if (solanaVariants(c, caseSensitive).length === 0) throw new RangeError(`the pattern has a character that is not base58: ${describeChar(c)}`);
    for (const v of solanaVariants(c, caseSensitive)) t[pos * 58 + BASE58_ALPHABET.indexOf(v)] = 1;
  });
  return t;
}

export class SolanaSearcher implements Searcher {
  readonly perBatch: number;
  private readonly pub = Buffer.alloc(32);
  private readonly digits = new Uint8Array(45);
  private readonly limbs = new Float64Array(16);
  private readonly pre: Uint8Array;
  private readonly suf: Uint8Array;
  private readonly preLen: number;
  private readonly sufLen: number;
  private readonly mirror: number;
  /** digit -> case-fold class (identity when case-sensitive), for the mirror comparison */
  private readonly foldClass = new Uint8Array(58);

  constructor(
    readonly pattern: PatternSpec,
    batch = 256,
  ) {
    if (pattern.network !== "solana") throw new Error("SolanaSearcher needs a solana pattern");
    this.perBatch = batch;
    this.mirror = pattern.mirror ?? 0;
    for (let d = 0; d < 58; d++) {
      const c = BASE58_ALPHABET[d];
      this.foldClass[d] = pattern.caseSensitive ? d : Math.min(...solanaVariants(c, false).map((v) => BASE58_ALPHABET.indexOf(v)));
    }
    this.pre = allowedTable(pattern.prefix, pattern.caseSensitive);
    this.suf = allowedTable(pattern.suffix, pattern.caseSensitive);
    this.preLen = pattern.prefix.length;
    this.sufLen = pattern.suffix.length;
  }

  /** Checks up to perBatch fresh key pairs; stops at the first match. */
  step(): { attempts: number; found: KeyFound | null } {
    for (let n = 1; n <= this.perBatch; n++) {
      const { privateKey } = generateKeyPairSync("ed25519", JWK) as unknown as { privateKey: { d: string; x: string } };
      this.pub.write(privateKey.x, 0, "base64url");
      if (this.check()) {
        const seed = Buffer.from(privateKey.d, "base64url");
        const secret = new Uint8Array(64);
        secret.set(seed, 0);
        secret.set(this.pub, 32);
        return { attempts: n, found: { address: base58.encode(this.pub), privateKey: base58.encode(secret) } };
      }
    }
    return { attempts: this.perBatch, found: null };
  }

  /** Digit-level pattern test of a public key (same semantics as pattern.matchesAddress). */
  matchesPublicKey(pub: Uint8Array): boolean {
    this.pub.set(pub);
    return this.check();
  }

  private check(): boolean {
    const d = this.digits;
    const len = base58Digits32(this.pub, d, this.limbs);
    const { preLen, sufLen, pre, suf } = this;
    if (len < preLen + sufLen) return false;
    for (let i = 0; i < preLen; i++) if (pre[i * 58 + d[i]] === 0) return false;
    const off = len - sufLen;
    for (let i = 0; i < sufLen; i++) if (suf[i * 58 + d[off + i]] === 0) return false;
    if (this.mirror > 0) {
      if (len < 2 * this.mirror) return false;
      const f = this.foldClass;
      for (let i = 0; i < this.mirror; i++) if (f[d[i]] !== f[d[len - 1 - i]]) return false;
    }
    return true;
  }
}
