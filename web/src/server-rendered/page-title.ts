// Each route names itself in the browser tab and in history, so a buyer with several listings open can tell
// them apart. Routes pass this to their `head`; the root renders it through <HeadContent />.
export const SITE_NAME = "0xVanity";

export function pageTitle(page?: string) {
  return { meta: [{ title: page ? `${page} · ${SITE_NAME}` : `${SITE_NAME}: vanity Ethereum and Solana addresses` }] };
}
