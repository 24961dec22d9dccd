// A password that protects a key file is typed twice: a typo in a single field would lock the buyer out of
// their own key for good, because nobody (us included) can open the file without it.

/** What is wrong with a new password and its repeat, in words; null when it may be used. */
export function passwordPairProblem(password: string, repeat: string, min: number): string | null {
  if (password.length < min) return `Choose a password of at least ${min} characters.`;
  if (repeat === "") return "Type the password again to check it.";
  if (password !== repeat) return "The two passwords differ; type the same password in both fields.";
  return null;
}
