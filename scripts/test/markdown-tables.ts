// Reading the tables of a docs page, for the tests that hold a page against the code it describes (a lifecycle's
// sets and transitions, for one): a change on either side alone then fails.

/** The lines of `## heading` up to the next `## ` (`page` names the file in the error). */
export function section(markdown: string, heading: string, page = "the page"): string[] {
  const lines = markdown.split("\n");
  const start = lines.indexOf(`## ${heading}`);
  if (start < 0) throw new Error(`${page} has no "## ${heading}"`);
  const end = lines.findIndex((l, i) => i > start && l.startsWith("## "));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** The rows of the markdown table whose header row is exactly `header` (cells trimmed, header and rule left out). */
export function table(lines: string[], header: string[]): string[][] {
  const cells = (line: string) =>
    line
      .trim()
      .replace(/^\||\|$/g, "")
      .split("|")
      .map((c) => c.trim());
  const start = lines.findIndex((l) => l.trim().startsWith("|") && JSON.stringify(cells(l)) === JSON.stringify(header));
  if (start < 0) throw new Error(`no table with the columns ${header.join(", ")}`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.trim().startsWith("|")) break;
    rows.push(cells(line));
  }
  return rows;
}

/** "a, b" -> ["a", "b"]; an empty cell -> []. */
export const list = (cell: string) => (cell === "" ? [] : cell.split(",").map((x) => x.trim()));

/** The words of `among` named in backticks in a cell, in order, each once. */
export const backticked = <S extends string>(cell: string, among: readonly S[]): S[] => [
  ...new Set([...cell.matchAll(/`([a-z_-]+)`/g)].map((m) => m[1]).filter((w): w is S => (among as readonly string[]).includes(w))),
];
