// The fixed ports of the test stacks (chain tests, e2e), moved together by TEST_PORT_OFFSET so that two
// checkouts on one machine can run their suites at once. Unset (CI, npm test) means the ports below.
function offset(): number {
  const n = Number(process.env.TEST_PORT_OFFSET ?? "0");
  if (!Number.isSafeInteger(n) || n < 0 || n > 20_000)
    throw new Error(`TEST_PORT_OFFSET must be a whole number from 0 to 20000, not "${process.env.TEST_PORT_OFFSET}"`);
  return n;
}

export const testPort = (base: number) => base + offset();
