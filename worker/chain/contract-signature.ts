// Contract wallets (ERC-1271 deployed, ERC-6492 not yet deployed, ERC-8010 delegated) prove a signature only through a
// node's eth_call: nothing local can tell a real wallet's "valid" from a node that says "valid" to everything. So a
// sign-in takes that proof only as payments take theirs (docs/payments.md#trust-no-single-node): every configured
// node is asked on its own, and the signature counts when at least the quorum (ETH_RPC_QUORUM) of them say valid and
// none says invalid. A node that contradicts the others is recorded like a payment disagreement
// (operations/node-disagreements.ts); a node that does not answer counts neither way. docs/sign-in.md#contract-wallets
import { type Address, createPublicClient, type Hex, http, RpcRequestError, type Transport } from "viem";
import { verifyHash } from "viem/actions";
import { nodeNames, quorumOf, type RpcNodesText } from "../deployment/rpc-nodes";
import { ethereumChain } from "./ethereum";
import type { DisagreementReport } from "./quorum-verifier";

/** A person is waiting: one short try per node, no retries (the payment client retries; a payment must not give up). */
export const CONTRACT_SIGNATURE_TIMEOUT_MS = 5_000;

export type ContractSignatureEnv = Pick<Env, "ETH_CHAIN_ID"> & RpcNodesText;

/** What the nodes said: valid only when the quorum vouched and none contradicted; `dissenters` by node name. */
export type ContractSignatureVerdict = { valid: boolean; vouched: number; refused: number; quorum: number; dissenters: string[] };

/**
 * The verdict from each node's answer (true: valid, false: invalid, null: no answer). Dissenters: the nodes outside
 * the larger side when both sides answered; every node that answered on a tie (nothing tells the liar apart).
 */
export function contractSignatureVerdict(answers: (boolean | null)[], names: string[], quorum: number): ContractSignatureVerdict {
  const yes = names.filter((_, i) => answers[i] === true);
  const no = names.filter((_, i) => answers[i] === false);
  const dissenters = yes.length === 0 || no.length === 0 ? [] : yes.length > no.length ? no : no.length > yes.length ? yes : [...yes, ...no];
  return { valid: yes.length >= Math.max(1, quorum) && no.length === 0, vouched: yes.length, refused: no.length, quorum, dissenters };
}

const describe = (err: unknown) => (err instanceof Error ? err.message.split("\n")[0] : String(err));

/** A node's answer that says something: a result, or an execution revert (JSON-RPC error 3 or a "revert" message). */
const isRevert = (err: unknown) => err instanceof RpcRequestError && (err.code === 3 || /revert/i.test(err.message));

/** `base`, remembering the first request that got no answer (down, timed out, a JSON-RPC error other than a revert). */
function answering(base: Transport) {
  let failure: unknown = null;
  const transport: Transport = (options) => {
    const t = base(options);
    return {
      ...t,
      request: (async (args: Parameters<typeof t.request>[0]) => {
        try {
          return await t.request(args);
        } catch (err) {
          if (!isRevert(err)) failure ??= err;
          throw err;
        }
      }) as typeof t.request,
    };
  };
  return {
    transport,
    failure: () => failure,
    failed: (err: unknown) => {
      failure ??= err;
    },
  };
}

/**
 * Whether the nodes vouch that `signature` is `address`'s over `hash` (an EIP-191 message hash), by quorum. Asks
 * every configured Ethereum node at once; never throws (an unreachable node is a node that did not answer).
 */
export async function contractSignatureByQuorum(
  env: ContractSignatureEnv,
  p: { address: Address; hash: Hex; signature: Hex },
  report: DisagreementReport,
): Promise<ContractSignatureVerdict> {
  const { urls, quorum } = quorumOf(env, "ethereum");
  const names = nodeNames(urls);
  const chain = ethereumChain(env);
  const answers = await Promise.all(
    urls.map(async (url, i) => {
      // viem reads any failed eth_call as "invalid", a node that is down included; only a node that answered (a
      // result, or a revert: the validator refusing) has said anything, so a transport failure is no answer.
      const node = answering(http(url, { timeout: CONTRACT_SIGNATURE_TIMEOUT_MS, retryCount: 0 }));
      try {
        const valid = await verifyHash(createPublicClient({ chain, transport: node.transport }), p);
        if (node.failure() === null) return valid;
      } catch (err) {
        node.failed(err);
      }
      console.warn(`contract-wallet check: ${names[i]} did not answer:`, describe(node.failure()));
      return null;
    }),
  );
  const verdict = contractSignatureVerdict(answers, names, quorum);
  if (verdict.dissenters.length > 0)
    await report({
      network: "ethereum",
      nodes: verdict.dissenters,
      hash: null,
      detail: `contract-wallet sign-in for ${p.address}: ${verdict.vouched} node(s) said the signature is valid, ${verdict.refused} said it is not`,
    });
  return verdict;
}
