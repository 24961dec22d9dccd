// The intake key pair of sealed intake (docs/key-custody.md#sealed-intake). It is derived from the vault's own
// secret (HKDF-SHA256 into RFC 9180's DeriveKeyPair), so it needs no storage of its own and rotates with
// KEY_ENCRYPTION_SECRET: a new secret publishes a new intake key, and rows sealed to the old one still open
// while KEY_ENCRYPTION_SECRET_PREVIOUS is set. The derived private key never leaves this module.
import {
  INTAKE_SUITE,
  type IntakeKeyResponse,
  intakeInfo,
  intakeKeyId,
  intakeSuite,
  type SealedRow,
  fromBase64Url,
  toBase64Url,
} from "../../schema/sealed-intake";
import { utf8Bytes } from "./encoding";
import { openingSecrets, sealingKey, type VaultEnv } from "./keyring";

type IntakeKey = { keyId: string; publicKey: Uint8Array; pair: CryptoKeyPair };

async function intakeKeyFor(secret: string): Promise<IntakeKey> {
  const base = await crypto.subtle.importKey("raw", utf8Bytes(secret), "HKDF", false, ["deriveBits"]);
  const ikm = await crypto.subtle.deriveBits(
    { name: "HKDF", hash: "SHA-256", salt: utf8Bytes("vanity-market sealed intake"), info: utf8Bytes("x25519 intake key pair v1") },
    base,
    256,
  );
  const suite = intakeSuite();
  const pair = await suite.kem.deriveKeyPair(ikm);
  const publicKey = new Uint8Array(await suite.kem.serializePublicKey(pair.publicKey));
  return { keyId: await intakeKeyId(publicKey), publicKey, pair };
}

/** The intake public key grinders seal to now (the current secret's). */
export async function currentIntakeKey(env: VaultEnv): Promise<IntakeKeyResponse> {
  const key = await intakeKeyFor(sealingKey(env).secret);
  return { suite: INTAKE_SUITE, keyId: key.keyId, publicKey: toBase64Url(key.publicKey) };
}

export type OpenedRow = { ok: true; plain: Uint8Array } | { ok: false; reason: "wrong-intake-key" | "unopenable"; message: string };

/** Opens sealed rows with the intake keys of the current and the previous secret. */
export class IntakeOpener {
  private constructor(private readonly keys: IntakeKey[]) {}

  static async of(env: VaultEnv): Promise<IntakeOpener> {
    return new IntakeOpener(await Promise.all(openingSecrets(env).map(intakeKeyFor)));
  }

  async open(row: SealedRow): Promise<OpenedRow> {
    const key = this.keys.find((k) => k.keyId === row.keyId);
    if (!key) {
      return {
        ok: false,
        reason: "wrong-intake-key",
        message: `sealed for intake key ${row.keyId}, which is not this marketplace's current or previous intake key; fetch the intake key again and re-seal`,
      };
    }
    const enc = fromBase64Url(row.enc, 32);
    const ciphertext = fromBase64Url(row.ciphertext);
    if (!enc || !ciphertext) return { ok: false, reason: "unopenable", message: "enc and ciphertext must be base64url (enc: 32 bytes)" };
    try {
      const plain = await intakeSuite().open({ recipientKey: key.pair, enc: enc.buffer, info: intakeInfo(key.keyId) }, ciphertext.buffer);
      return { ok: true, plain: new Uint8Array(plain) };
    } catch {
      // HPKE says no more than this on purpose: a changed enc, ciphertext or key id all fail the same AEAD check
      return {
        ok: false,
        reason: "unopenable",
        message: "the sealed row does not open under the intake key it names: it was altered or sealed to another key",
      };
    }
  }
}
