// The recent blockhash of the Solana Pay transfer the buyer's wallet signs, held by a quorum of the configured nodes
// (docs/payments.md#trust-no-single-node). A blockhash only one node vouches for could be forged (the wallet's
// transaction never lands) or old (it expires before the buyer signs): one lying first node would make every
// Solana payment request unusable. Every node is asked getLatestBlockhash at the payment commitment; a candidate
// counts once `quorum` nodes hold it, as their own latest or by isBlockhashValid
// (https://solana.com/docs/rpc/http/isblockhashvalid). Candidates are tried from the quorum-th highest
// lastValidBlockHeight down: with at most quorum-1 liars among the answers, that answer is an honest node's, and
// no liar can push an older blockhash ahead of it by claiming a later height. One node (local development): its
// own latest blockhash, as asked.
import type { NodeList, SolanaRules } from "../deployment/deployment";
import { nodeName } from "../deployment/rpc-nodes";
import { solanaRpc } from "./solana-payments";

type Latest = { value?: { blockhash?: unknown; lastValidBlockHeight?: unknown } };
type Validity = { value?: unknown };

/** A node's answer: its latest blockhash and the last block height it is valid at. */
type Answer = { url: string; blockhash: string; lastValidBlockHeight: number };

/**
 * The blockhash to build with, or why there is none: too few nodes answered (one that did not answer could have
 * made the quorum), or the nodes that answered said no to every candidate.
 */
export type QuorumBlockhash = { ok: true; blockhash: string } | { ok: false; reason: "unanswered" | "disputed" };

const BASE58_HASH = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

async function latestOf(url: string, commitment: string): Promise<Answer | null> {
  try {
    const { value } = await solanaRpc<Latest>(url, "getLatestBlockhash", [{ commitment }]);
    const { blockhash, lastValidBlockHeight } = value ?? {};
    if (typeof blockhash !== "string" || !BASE58_HASH.test(blockhash)) return null;
    // Stryker disable next-line ConditionalExpression: isSafeInteger below refuses a non-number too; this is for the type
    if (typeof lastValidBlockHeight !== "number") return null;
    if (!Number.isSafeInteger(lastValidBlockHeight)) return null;
    return { url, blockhash, lastValidBlockHeight };
  } catch {
    return null;
  }
}

/** Whether the node at `url` holds `blockhash` as valid: true or false as it says; null when it fails or answers anything else. */
async function holds(url: string, blockhash: string, commitment: string): Promise<boolean | null> {
  try {
    const { value } = await solanaRpc<Validity>(url, "isBlockhashValid", [blockhash, { commitment }]);
    // Stryker disable next-line ConditionalExpression: tally counts anything but true and false as silent, as it does null
    return typeof value === "boolean" ? value : null;
  } catch {
    return null;
  }
}

/**
 * Whether at least `needed` of `checks` say yes, settled as soon as that is known, not after the slowest node: "held";
 * else "denied" when the nodes said no, "unanswered" when one that did not answer could have made it.
 */
function tally(checks: Promise<boolean | null>[], needed: number): Promise<"held" | "denied" | "unanswered"> {
  return new Promise((resolve) => {
    let yes = 0;
    let no = 0;
    let silent = 0;
    for (const check of checks)
      void check.then((held) => {
        if (held === true) yes += 1;
        else if (held === false) no += 1;
        else silent += 1;
        if (yes >= needed) resolve("held");
        else if (checks.length - no - silent < needed) resolve(silent > 0 ? "unanswered" : "denied");
      });
  });
}

/**
 * The order candidates are tried in: the quorum-th highest lastValidBlockHeight first, then the lower ones, and
 * only then the higher ones (claims no quorum of heights backs). Each blockhash once.
 */
export function candidateOrder(answers: { blockhash: string; lastValidBlockHeight: number }[], quorum: number): string[] {
  const byHeight = [...answers].sort((a, b) => b.lastValidBlockHeight - a.lastValidBlockHeight);
  const from = Math.min(Math.max(quorum, 1), byHeight.length) - 1;
  const ordered = [...byHeight.slice(from), ...byHeight.slice(0, from).reverse()];
  return [...new Set(ordered.map((a) => a.blockhash))];
}

export async function quorumBlockhash(solana: NodeList & Pick<SolanaRules, "commitment">): Promise<QuorumBlockhash> {
  const urls = solana.nodes.map((n) => n.url);
  const { quorum } = solana;
  // unreadable, "finalized": never weaker than the payments are read at
  const commitment = solana.commitment ?? "finalized";
  const answers = (await Promise.all(urls.map((url) => latestOf(url, commitment)))).filter((a): a is Answer => a !== null);
  if (answers.length < quorum) return { ok: false, reason: "unanswered" };
  let unanswered = false;
  for (const candidate of candidateOrder(answers, quorum)) {
    const named = answers.filter((a) => a.blockhash === candidate).length;
    const needed = quorum - named;
    if (needed <= 0) return { ok: true, blockhash: candidate };
    // Only the nodes that answered are asked again: one that failed or timed out once would only delay the buyer.
    const others = answers.filter((a) => a.blockhash !== candidate);
    // Never true while answers.length >= quorum (above); kept because tally, handed fewer nodes than it needs, never settles.
    // Stryker disable next-line ConditionalExpression: unreachable, as just said
    if (others.length < needed) continue;
    const held = await tally(
      others.map((a) => holds(a.url, candidate, commitment)),
      needed,
    );
    if (held === "held") return { ok: true, blockhash: candidate };
    if (held === "unanswered") unanswered = true;
  }
  // A node that failed to answer may answer next time: the documented retry answer. Nodes that said no disagree.
  if (unanswered) return { ok: false, reason: "unanswered" };
  console.warn(`solana: no blockhash held by ${quorum} of the nodes; latest by node: ${answers.map((a) => `${nodeName(a.url)} ${a.blockhash}`).join(", ")}`);
  return { ok: false, reason: "disputed" };
}
