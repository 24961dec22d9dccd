// A pattern's category in words for the screens: the API's slugs ("leading-zeros", "word-like") are for URLs,
// filters and exports, never for a reader.
const WORDS: Record<string, string> = {
  "leading-zeros": "leading zeros",
  "trailing-zeros": "trailing zeros",
  "word-like": "word",
  palindrome: "mirror",
  sequential: "sequence",
  custom: "custom",
};

/** "leading zeros", "word", "mirror"; an unknown slug with its hyphens as spaces. */
export function categoryWords(slug: string): string {
  return WORDS[slug] ?? slug.replaceAll("-", " ");
}

/** The same, capitalised, for a label or a table cell: "Leading zeros". */
export function categoryLabel(slug: string): string {
  const words = categoryWords(slug);
  return words.charAt(0).toUpperCase() + words.slice(1);
}
