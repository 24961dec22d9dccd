// Contract wallets (ERC-1271 deployed, ERC-6492 not yet deployed, ERC-8010 delegated) prove a signature only through a
// node's eth_call: nothing local can tell a real wallet's "valid" from a node that says "valid" to everything. So a
// sign-in takes that proof only as payments take theirs (docs/payments.md#trust-no-single-node): every configured
// node of the request's deployment is asked on its own, and the signature counts when at least the quorum
// (ETH_RPC_QUORUM) of them say valid and none says invalid. A node that contradicts the others is recorded like a payment disagreement
// (operations/node-disagreements.ts); a node that does not answer counts neither way. docs/sign-in.md#contract-wallets
import { type Address, BaseError, createPublicClient, type Hex, http, RpcRequestError, type Transport } from "viem";
import { verifyHash } from "viem/actions";
import type { NodeList } from "../deployment/deployment";
import { chainOf } from "./ethereum";
import type { DisagreementReport } from "./quorum-verifier";

/** A person is waiting: one short try per node, no retries (the payment client retries; a payment must not give up). */
export const CONTRACT_SIGNATURE_TIMEOUT_MS = 5_000;

/** The deployment's Ethereum nodes and quorum, on the chain sign-in is for (deployment.ethereum, its chain id read). */
export type ContractSignatureNodes = NodeList & { chainId: number };

/** What the nodes said: valid only when the quorum vouched and none contradicted; `dissenters` by node name. */
export type ContractSignatureVerdict = { valid: boolean; vouched: number; refused: number; quorum: number; dissenters: string[] };

/**
 * The verdict from each node's answer (true: valid, false: invalid, null: no answer). Dissenters: the nodes outside
 * the larger side when both sides answered; every node that answered on a tie (nothing tells the liar apart).
 */
export function contractSignatureVerdict(answers: (boolean | null)[], names: string[], quorum: number): ContractSignatureVerdict {
  const yes = names.filter((_, i) => answers[i] === true);
  const no = names.filter((_, i) => answers[i] === false);
  // One side empty: the larger side is the other, so no node is named (and with no answer at all, nobody).
  const dissenters = yes.length > no.length ? no : no.length > yes.length ? yes : [...yes, ...no];
  return { valid: yes.length >= Math.max(1, quorum) && no.length === 0, vouched: yes.length, refused: no.length, quorum, dissenters };
}

const describe = (err: unknown) => (err instanceof Error ? err.message.split("\n")[0] : String(err));

/**
 * A node's answer that says something: a result, or an execution revert (JSON-RPC error 3, or a "revert" message:
 * geth answers a revert without data with -32000 "execution reverted"). viem hands a known code on wrapped in its
 * own error class (-32000 as InvalidInputRpcError), so the node's own error is looked for along the causes.
 */
function isRevert(err: unknown): boolean {
  const sent = err instanceof BaseError ? err.walk((e) => e instanceof RpcRequestError) : null;
  return sent instanceof RpcRequestError && (sent.code === 3 || /revert/i.test(sent.details));
}

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
 * every Ethereum node of the deployment at once; never throws (an unreachable node is a node that did not answer).
 * `timeoutMs`: how long each node is waited for (tests shorten it).
 */
export async function contractSignatureByQuorum(
  ethereum: ContractSignatureNodes,
  p: { address: Address; hash: Hex; signature: Hex },
  report: DisagreementReport,
  timeoutMs = CONTRACT_SIGNATURE_TIMEOUT_MS,
): Promise<ContractSignatureVerdict> {
  const { quorum } = ethereum;
  const urls = ethereum.nodes.map((n) => n.url);
  const names = ethereum.nodes.map((n) => n.name);
  const chain = chainOf(ethereum.chainId, urls);
  const answers = await Promise.all(
    urls.map(async (url, i) => {
      // viem reads any failed eth_call as "invalid", a node that is down included; only a node that answered (a
      // result, or a revert: the validator refusing) has said anything, so a transport failure is no answer.
      const node = answering(http(url, { timeout: timeoutMs, retryCount: 0 }));
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
