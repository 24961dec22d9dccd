// The accounts of the public development mnemonics, whose private keys everyone holds (they are printed in
// every tutorial, and funded on every local chain): refused as platform addresses and admins anywhere but a
// local deployment (payment-rules.ts, auth/roles.ts; docs/production-settings.md). Addresses only, never a
// key or a mnemonic: this file ships in the Worker. public-dev-accounts.test.ts derives every address again
// from the mnemonics, so the list cannot drift.
import type { Network } from "../../schema/db";

/** The mnemonics, named by their first and last words (the words themselves stay out of the Worker bundle). */
export const PUBLIC_DEV_MNEMONICS = {
  test: 'the test mnemonic ("test test ... junk": anvil, Hardhat, Foundry)',
  ganache: 'Ganache\'s deterministic mnemonic ("myth like ... collect")',
} as const;
export type PublicDevMnemonic = keyof typeof PUBLIC_DEV_MNEMONICS;

/**
 * One derivation path of one mnemonic and the addresses at indexes 0, 1, 2 ... of it. `path` has `{i}` where the
 * index goes; "seed" is the BIP-39 seed's first 32 bytes as an Ed25519 key (solana-keygen without a path).
 */
export type PublicDevAccountList = { network: Network; mnemonic: PublicDevMnemonic; path: string; addresses: readonly string[] };

/**
 * Ethereum: accounts 0-19 on m/44'/60'/0'/0/i (Hardhat and anvil fund 10 or 20 of them; Ganache 10). Solana: the
 * paths wallets and the CLI derive (Phantom and Solflare m/44'/501'/i'/0', Ledger and `solana-keygen
 * prompt://?key=i` m/44'/501'/i', the CLI's default m/44'/501', and the bare seed).
 */
export const PUBLIC_DEV_ACCOUNT_LISTS: readonly PublicDevAccountList[] = [
  {
    network: "ethereum",
    mnemonic: "test",
    path: "m/44'/60'/0'/0/{i}",
    addresses: [
      "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
      "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
      "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
      "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65",
      "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc",
      "0x976EA74026E726554dB657fA54763abd0C3a0aa9",
      "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955",
      "0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f",
      "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720",
      "0xBcd4042DE499D14e55001CcbB24a551F3b954096",
      "0x71bE63f3384f5fb98995898A86B02Fb2426c5788",
      "0xFABB0ac9d68B0B445fB7357272Ff202C5651694a",
      "0x1CBd3b2770909D4e10f157cABC84C7264073C9Ec",
      "0xdF3e18d64BC6A983f673Ab319CCaE4f1a57C7097",
      "0xcd3B766CCDd6AE721141F452C550Ca635964ce71",
      "0x2546BcD3c84621e976D8185a91A922aE77ECEc30",
      "0xbDA5747bFD65F08deb54cb465eB87D40e51B197E",
      "0xdD2FD4581271e230360230F9337D5c0430Bf44C0",
      "0x8626f6940E2eb28930eFb4CeF49B2d1F2C9C1199",
    ],
  },
  {
    network: "ethereum",
    mnemonic: "ganache",
    path: "m/44'/60'/0'/0/{i}",
    addresses: [
      "0x90F8bf6A479f320ead074411a4B0e7944Ea8c9C1",
      "0xFFcf8FDEE72ac11b5c542428B35EEF5769C409f0",
      "0x22d491Bde2303f2f43325b2108D26f1eAbA1e32b",
      "0xE11BA2b4D45Eaed5996Cd0823791E0C93114882d",
      "0xd03ea8624C8C5987235048901fB614fDcA89b117",
      "0x95cED938F7991cd0dFcb48F0a06a40FA1aF46EBC",
      "0x3E5e9111Ae8eB78Fe1CC3bb8915d5D461F3Ef9A9",
      "0x28a8746e75304c0780E011BEd21C72cD78cd535E",
      "0xACa94ef8bD5ffEE41947b4585a84BdA5a3d3DA6E",
      "0x1dF62f291b2E969fB0849d99D9Ce41e2F137006e",
      "0x610Bb1573d1046FCb8A70Bbbd395754cD57C2b60",
      "0x855FA758c77D68a04990E992aA4dcdeF899F654A",
      "0xfA2435Eacf10Ca62ae6787ba2fB044f8733Ee843",
      "0x64E078A8Aa15A41B85890265648e965De686bAE6",
      "0x2F560290FEF1B3Ada194b6aA9c40aa71f8e95598",
      "0xf408f04F9b7691f7174FA2bb73ad6d45fD5d3CBe",
      "0x66FC63C2572bF3ADD0Fe5d44b97c2E614E35e9a3",
      "0xF0D5BC18421fa04D0a2A2ef540ba5A9f04014BE3",
      "0x325A621DeA613BCFb5B1A69a7aCED0ea4AfBD73A",
      "0x3fD652C93dFA333979ad762Cf581Df89BaBa6795",
    ],
  },
  {
    network: "solana",
    mnemonic: "test",
    path: "m/44'/501'/{i}'/0'",
    addresses: [
      "oeYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq96",
      "AqynRZwvVqUPRwRJXvm6odUb3t93fDjnWe3p6BeuUFxD",
      "CqMbRgMuEhQi9BUS8xP44Wk5nENm48FqJnfjEi4eNb1k",
      "9Tj3srBSxH7RFRCm8uharreY7ZBS49XSfpwCeYa7Xaqp",
      "6gYw7q94fJdEwL8WkT1a6LHBdTMbix1aciALwEWPx3Wp",
      "7EeV8eiRuGoR8bFHCjdCRGQd1RM5sR2dAkdiTEtC9ko7",
      "F9fVg2LeE2RhM6CfNn888hbjqovZDEWY3vm2hEkvX3Nh",
      "26roUwgM5T6bccX41hakjiW4fDiKFSao1RyoFsAxr6e6",
      "5mCGtMUD21HEvWJxKGKS6HEAH7ezzy12MWGs4bPgcJwV",
      "2yaW8VAMLhQiornz1BgcSWDUSH2jC2dmB8RWnTJi8Yab",
      "6FvbTFsvAeiN6agSCxqsh2WM5xGw3GNAQ2A4M1xWPYfc",
      "Co9iaX5MKFXUds9wbdhtJw4eVCqiUJHJEqEyzrJAh7Dt",
      "85FUbwziFK8H2LzwG3sQ78iT9axkrct91cLCpet6hZPC",
      "BLTqd86WFbBVzwscvVVSnQZEeJZnYP8xRbaHBqGmPrEh",
      "5Jnn8wes5Adzc7RKmEZZLmbd2Yr37HW6nGU8x8V37v2w",
      "F2HeEd4ENcce9tmnFsxJtjkDDEs3JtfLEZgCmngyG2Fz",
      "4fNNXcemx1jQ1crbXfADJ8tdkB5sTccjRp6bH6HJFnV5",
      "9hPmaarJSc15DQz2zUkKmr67bUUsrbwMp1Zrzw7mhxt2",
      "98jmNurpJPD6G1i9PEbSTzBEcKBQfeN88P1YLzfSV9wA",
      "5AWnYCGhpNR6pXax2xpvUujjtZogmJb9RrWHApWQqe4W",
    ],
  },
  {
    network: "solana",
    mnemonic: "test",
    path: "m/44'/501'/{i}'",
    addresses: [
      "BtELVjZSaWhMat94P9HyasX3Gvpv6C7WHXJGqWdZbwSQ",
      "M9juqHHtP85PvRKX3d4FS9jkF1WHZwyX3dG7NcYswdH",
      "9gWFETMPDvG69vJZEbC7HvHKV1jiFJPnBjduJ5f7dHxb",
      "DUuxpc4CH1cWdNHGCieWi5ELq4KZtNG6XtPskqgV5TJH",
      "bGmWV1RDMDLgNSg7GQ5xi676n35s1HPZuuceSh8ANFC",
      "24qfTdWF17cw6TbybnXKVPH9cfTjtHF6NTiAF7ksLns2",
      "9haXfSw2unw7xWf2cBwYubC4pn3kihUs1tsVTJGaZnWc",
      "BVbaPDWn9DYUJphQAjfsnA7oSetLubTrHpFafjpZncbE",
      "9MzPWbpykVd4ZzBXPtWPTMn1Kcp1En7KgrFJsLwQ9Yf5",
      "8MQnF7zZcDkT5AqyevDZiaQEWj8zBn4LgUFdnCjzPJ6w",
      "EhLkz3kUZ3LNpykZqHhjM1bFS2aYjHYu3hZttMn1o8Ef",
      "HsYHAxjMd59siyHMVjR1QHpGiAsNK5ZWampiW5NY8haY",
      "6zMLTM44DYAp4tkgTkniuhKd5Bd8kXdrye8CRyrWrvVG",
      "H97zmjTAKzxruDrF6fH6RV9wp5vnyuEKLBaryeVcgfbr",
      "5qrtac4TyV6SdBiJH1KgWEUpW5wc4reXSLr17BM7KmW6",
      "2eKoagcLQwmUW1qeWH9KoUsZrtsTxQiKk7t8y1662AR7",
      "CkXtzBEAo6AMa2xkgTgvf2ktZsEZWGKt7f7J8K2pwP3d",
      "DjoUmqk3EPoLw8vCHM3Bra4NfhrTjd8Mtv1eJx96LEqj",
      "EEc2bwaZh91MT2FoiFJRnGbYEh39Wefu4KkqfGiPJsgX",
      "2J9gXbrxkerpbjj7EWbR8yWUydGcF3TXAucU8f9pkgR3",
    ],
  },
  { network: "solana", mnemonic: "test", path: "m/44'/501'", addresses: ["9tKf8Q98FsGKJiM4oqMnTxmYH3fU2qJzSwzc76vgzyBT"] },
  { network: "solana", mnemonic: "test", path: "seed", addresses: ["G9r1RYmVnXptzCA2an46rNnHsCAQLvjyM6vR2mo3LpG1"] },
  {
    network: "solana",
    mnemonic: "ganache",
    path: "m/44'/501'/{i}'/0'",
    addresses: [
      "E1SFdNqDk1NSdTi13pM8j8tLKwGH3dm6ym5DVJKTwaYA",
      "HPECh7sacnB9qGjtr4Te43quWSFYfpZ1jBmZECrGooXL",
      "JAs9Yi5bzgUoyfUs7CfaVT2FSEUBLLAr2ya5NHcU9BK",
      "5QPBLN5iCRSabCQrbc45xH3v5QVckm45QNRP21DAM5oh",
      "Ehj3hPikxK5RntMNWBNReYmGrat8Wx3y1ECE9S3YdqDA",
      "59E5Sb2HofHKMNA3gXMBDKqex5BrKjJQVsNaC1MiQ32H",
      "VfrDpeXgrt5uQGPpdkJ5Qs2etQdquQ4AbFrb84SkNqN",
      "HneLUv2sfLPrmTMmxDNehfiL7ao1NYZwrjFJiwCmcrbu",
      "2G2Xw1GpdhzoFnjCpVq4psf78mkdnNKrwZK1Pq1vrRbz",
      "6ciDpDgTioJb4X4X8GZjAZSLVh4WmMHG3Ct5qx4oCqbr",
      "5npPWqzydZkvjnUsC13XJE28faV3QQT4oZ8McyqV6xyy",
      "4gjvdR5ngudUXXs84XVXkG3i2Ge3hKTemT3djHYf1WZ2",
      "3PLhTpoBc9Xoiwuo1wkNYwM93QECmATi7jxKKM4H3aEz",
      "6EZUoZ7FyY6KSEquVFcPu1H1wHiRm8H3mvJnBY5wfHC1",
      "YrRmSUCPNUBZarp6cRoQuDsJrxRTrKecrBxQ6rs63DQ",
      "7FcAJxP21XURFXBRkv5LWjymFrNyqctBuCFqFfSQFYor",
      "4iz1YyTkiP5gFwfW1SDngQMqVaRww5tEqMyUhqC5qnot",
      "5N9ARdkeJTUzu13d7HNAnWk7HFBbVSWH1hwvdcGcupg1",
      "6VZ1ogMHTJparUeeBShc6VjBmUqFERJ7fUWoW8pGTT6x",
      "HiL6s45wBnzNoNhDPqY4NsBEv7DgNojmaergxGsbnjUK",
    ],
  },
  {
    network: "solana",
    mnemonic: "ganache",
    path: "m/44'/501'/{i}'",
    addresses: [
      "4bvALyNUGf4YNjzo1mjUPDhMEdrNthpBNyLFCQu3XQkz",
      "BuNgq5DXYMc4xZycDPNYSeFUPvkwD52B7h8GhrBEYjFe",
      "B3Y6Z3JwoHSFGqUewJ6LCPo5iuMM1H2oC9Wh3hZbJ8tt",
      "J51Um9j7F18fYYU4bSR2kwtwwGigSGL3RQK5qQ8GWvAn",
      "3gSiC1NrrGMqdAVRWSWcgU7iX7fVtjBmJutHDiDhfMGa",
      "BgaLjQm9QiDfh7iPKzRne2LCk6ozdnmHgA5gnzXo2rxp",
      "DgLLRtndENM28U4zyEoiPEfxojEfoQ1xc2ii4bW7vBPQ",
      "2hnuDFFXVtwY3Ay8NXCxUA3NcyqBVdBaEcWHj1uaaxBi",
      "8LvyycxH2wCZMHqk6mw7nEuLqufkW4xGyL387e9LCPxm",
      "41urm29U44pESwNk7D7xVcz6Yjgf3RYtJghoSDQLSFVv",
      "9VLAZN2LAVLqJncighLs1DoLFs7yHhvGvdtRssB5YCi1",
      "EmVBkdRbx7PUxiM1avba4XGKXJf5SYfcfj2p7ZnupipH",
      "4j3D95batRgrpRgvi7m2BMsAXmhscwqQgiHFwKqizVmD",
      "7aa2sqTfoXqdtz5Y6yWeAAT3cw9SnKiXJT2Jo5WCQhb6",
      "AFCZJMw9R2V5ndfYXYEBWfMeAJsZ4D5vX6EXpGrVSTeX",
      "48eH5kcBSHUWA42mwAUC8NfLqd2QBryHf4bQNaAt9ePo",
      "BpdwVnAqbgpmrfE8k2FJGtj6WYtsc72pQrLnwKkUVUkC",
      "GRLFxQH7eJ9oF9hVF3ztDX3ZihGxtF9v4JkSfmVjGBkE",
      "5TS38Mhrhfw2JnRRbqkJ48PsgwycBY7yN32mCUsNrYaf",
      "9KKNdJxXwFJ9xJmavMvwJNpLuyRoEaRXtw2TaTJFG7as",
    ],
  },
  { network: "solana", mnemonic: "ganache", path: "m/44'/501'", addresses: ["Gb78HnRRcW9zctKaqJqiRwLYWqQjTCgeH68TJHwEB5y3"] },
  { network: "solana", mnemonic: "ganache", path: "seed", addresses: ["vCdWfJRYsxcqVs8t1iYwV11SKzAtYMDHWNduukxiHia"] },
];

export type PublicDevAccount = { network: Network; mnemonic: PublicDevMnemonic; path: string; index: number };

// Ethereum addresses are compared in lower case (ADMIN_WALLETS compares them case-insensitively), Solana exactly.
const key = (network: Network, address: string) => (network === "ethereum" ? `e:${address.toLowerCase()}` : `s:${address}`);
const BY_ADDRESS = new Map<string, PublicDevAccount>();
for (const list of PUBLIC_DEV_ACCOUNT_LISTS)
  list.addresses.forEach((address, index) =>
    BY_ADDRESS.set(key(list.network, address), { network: list.network, mnemonic: list.mnemonic, path: list.path, index }),
  );

/** The public dev account `address` is (an Ethereum address in any letter case, a Solana one exactly), or null. */
export function publicDevAccount(address: string): PublicDevAccount | null {
  return BY_ADDRESS.get(key(address.startsWith("0x") ? "ethereum" : "solana", address)) ?? null;
}

/**
 * Whether `address` is one of the public dev accounts (Ethereum in any letter case, Solana exactly): the admin
 * rule (auth/roles.ts) refuses these outside a local deployment, the payment rules refuse them as platform addresses.
 */
export function isPublicDevWallet(address: string): boolean {
  return publicDevAccount(address) !== null;
}

/** "public dev account 9 of the test mnemonic (...), m/44'/60'/0'/0/9", for the refusals that name one. */
export function describeDevAccount(account: PublicDevAccount): string {
  const path = account.path === "seed" ? "its seed as the key" : account.path.replace("{i}", String(account.index));
  return `public dev account ${account.index} of ${PUBLIC_DEV_MNEMONICS[account.mnemonic]}, ${path}`;
}

/** Every address of a network in the lists, in their order (the test mnemonic's first). */
export const publicDevAddresses = (network: Network): string[] => PUBLIC_DEV_ACCOUNT_LISTS.filter((l) => l.network === network).flatMap((l) => l.addresses);
