// Which repository paths the docs name, and which of them do not exist (run by scripts/docs-paths.test.ts).
//
// The rule, for README.md and docs/**/*.md:
//  - Code. Every inline code span and fenced code block is split into words at whitespace and at the
//    characters that cannot be part of a path here (quotes, brackets, commas, `=`, `|`...). A word names a
//    repository path when it starts with a top-level folder of the repository followed by "/" (`worker/`,
//    `web/src/api/`, `.ci/run`), or is a root file of the kinds in ROOT_FILE (`package.json`, `wrangler.toml`,
//    `vitest.config.ts`...). Such a path is relative to the repository root, whichever doc names it. A leading
//    "./" and trailing punctuation or a ":<line>" are dropped; `*` stands for any part of one path segment,
//    `**` for any number of segments, `<name>` for one segment part (a placeholder), `{a,b}` for either
//    alternative. A path ending in "/"
//    must be a folder; any other must be a file or a folder; a pattern must match at least one.
//  - Links. Every Markdown link or image target `[text](target)` and reference definition `[label]: target`
//    that is not a URL (no scheme) or a mail address is relative to the doc that holds it and must exist; a
//    `#fragment` on a link to a Markdown file (or on its own, for the same file) must be one of that file's
//    heading anchors as GitHub makes them.
// Prose outside code is not read: too many ordinary words look like paths ("routes/", "and/or").
import fs from "node:fs";
import path from "node:path";

/** A root file named without a folder: config files and the README. Other bare names (`keystore.ts`) are not read. */
export const ROOT_FILE = /^(?:README\.md|package(?:-lock)?\.json|tsconfig\.json|wrangler\.toml|[\w-]+(?:\.[\w-]+)*\.config\.(?:ts|js|mjs|cjs|json))$/;

/** Generated or local-only folders: not part of the repository, so a doc naming them is not checked. */
const NOT_REPOSITORY = new Set([".git", "node_modules", "dist", ".wrangler", ".stryker-tmp", "reports", "test-results", "bench-out", ".tsbuild"]);

/** What the checker needs to know about a repository; `fromDisk` reads one, tests build one from a list. */
export type RepoView = {
  /** Top-level folder names (no slash). */
  topLevel: ReadonlySet<string>;
  /** Every file (no trailing slash) and folder (trailing slash), relative to the root, "/"-separated. */
  entries: ReadonlySet<string>;
  /** A Markdown file's text, for its heading anchors; null when it does not exist. */
  read(file: string): string | null;
};

/** A repository given as a map of file path -> text (folders are implied). For tests. */
export function repoFromFiles(files: Record<string, string>): RepoView {
  const entries = new Set<string>();
  for (const file of Object.keys(files)) {
    entries.add(file);
    const parts = file.split("/");
    for (let i = 1; i < parts.length; i++) entries.add(`${parts.slice(0, i).join("/")}/`);
  }
  const topLevel = new Set([...entries].filter((e) => /^[^/]+\/$/.test(e)).map((e) => e.slice(0, -1)));
  return { topLevel, entries, read: (file) => files[file] ?? null };
}

/** The repository on disk, without generated and local-only folders. */
export function repoFromDisk(root: string): RepoView {
  const entries = new Set<string>();
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = dir ? `${dir}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!dir && (NOT_REPOSITORY.has(e.name) || e.name.startsWith(".e2e-profile"))) continue;
        entries.add(`${rel}/`);
        walk(rel);
      } else {
        entries.add(rel);
      }
    }
  };
  walk("");
  const topLevel = new Set([...entries].filter((e) => /^[^/]+\/$/.test(e)).map((e) => e.slice(0, -1)));
  return {
    topLevel,
    entries,
    read: (file) => (entries.has(file) ? fs.readFileSync(path.join(root, file), "utf8") : null),
  };
}

/** Every Markdown file a doc check covers: README.md and docs/**\/*.md. */
export function docFiles(repo: RepoView): string[] {
  return [...repo.entries].filter((e) => e === "README.md" || (e.startsWith("docs/") && e.endsWith(".md"))).sort();
}

type Found = { text: string; offset: number };

/** Fenced code blocks (``` or ~~~), inline code spans, and the rest of the text with both blanked out. */
export function splitMarkdown(markdown: string): { code: Found[]; prose: string } {
  const code: Found[] = [];
  const blank = (s: string) => s.replace(/[^\n]/g, " ");
  let prose = markdown.replace(
    /^( {0,3})(`{3,}|~{3,})[^\n]*\n([\s\S]*?)(?:^ {0,3}\2[`~]*[ \t]*$|(?![\s\S]))/gm,
    (block, _indent, _fence, body: string, offset: number) => {
      code.push({ text: body, offset: offset + block.indexOf(body) });
      return blank(block);
    },
  );
  prose = prose.replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (span, ticks: string, body: string, offset: number) => {
    code.push({ text: body, offset: offset + ticks.length });
    return blank(span);
  });
  return { code: code.sort((a, b) => a.offset - b.offset), prose };
}

/** The words of a piece of code that name repository paths (see the rule at the top), with their offsets. */
export function pathWords(code: Found, topLevel: ReadonlySet<string>): Found[] {
  const out: Found[] = [];
  // A brace group without spaces stays in its word: `web/src/**/*.test.{ts,tsx}` is one pattern.
  for (const m of code.text.matchAll(/(?:[^\s"'`()[\]{},;=|]|\{[^\s{}]*\})+/g)) {
    let word = m[0].replace(/^\.\//, "");
    word = word.replace(/:\d+(?::\d+)?$/, "").replace(/[.:!?]+$/, "");
    const slash = word.indexOf("/");
    const named = slash > 0 ? topLevel.has(word.slice(0, slash)) : ROOT_FILE.test(word);
    if (named) out.push({ text: word, offset: code.offset + m.index });
  }
  return out;
}

/** Link and image targets, and reference definitions, outside code. */
export function linkTargets(prose: string): Found[] {
  const out: Found[] = [];
  for (const m of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g)) out.push({ text: m[1], offset: m.index + 2 });
  for (const m of prose.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)) out.push({ text: m[1], offset: m.index });
  return out;
}

/** GitHub's anchors for a Markdown file's headings (lower case, punctuation dropped, spaces to hyphens, -1 -2 for repeats). */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const { prose } = splitMarkdownKeepingHeadings(markdown);
  for (const m of prose.matchAll(/^ {0,3}#{1,6}[ \t]+(.*?)[ \t#]*$/gm)) {
    const text = m[1].replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/<[^>]+>/g, "");
    const base = text
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** Like splitMarkdown, but inline code stays in the text (a heading's code is part of its anchor). */
function splitMarkdownKeepingHeadings(markdown: string): { prose: string } {
  return { prose: markdown.replace(/^( {0,3})(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^ {0,3}\2[`~]*[ \t]*$|(?![\s\S]))/gm, (b) => b.replace(/[^\n]/g, " ")) };
}

/** A path with `*`, `**`, `<name>` or `{a,b}` as a regular expression over repository entries. */
function patternRegExp(pattern: string): RegExp {
  const source = pattern
    .split(/(\*\*\/?|\*|<[^>/]+>|\{[^{}]*\})/)
    .map((part) => {
      if (part.startsWith("**")) return "(?:[^/]+/)*";
      if (part === "*" || /^<[^>/]+>$/.test(part)) return "[^/]*";
      if (/^\{[^{}]*\}$/.test(part)) return `(?:${part.slice(1, -1).split(",").map(escapeRegExp).join("|")})`;
      return escapeRegExp(part);
    })
    .join("");
  return new RegExp(`^${source}$`);
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^$()[\]{}|\\]/g, "\\$&");

/** Whether a repository path (possibly a pattern; a trailing "/" asks for a folder) exists. */
export function pathExists(repo: RepoView, name: string): boolean {
  const wantsFolder = name.endsWith("/");
  const bare = wantsFolder ? name.slice(0, -1) : name;
  if (!/[*<{]/.test(bare)) return wantsFolder ? repo.entries.has(`${bare}/`) : repo.entries.has(bare) || repo.entries.has(`${bare}/`);
  const re = patternRegExp(bare);
  for (const entry of repo.entries) {
    const isFolder = entry.endsWith("/");
    if (wantsFolder && !isFolder) continue;
    if (re.test(isFolder ? entry.slice(0, -1) : entry)) return true;
  }
  return false;
}

const lineOf = (text: string, offset: number) => text.slice(0, offset).split("\n").length;

/** What is wrong with one doc's paths and links: one message per problem, "<doc>:<line>: ...". */
export function docProblems(repo: RepoView, doc: string): string[] {
  const text = repo.read(doc);
  if (text === null) return [`${doc}: does not exist`];
  const problems: string[] = [];
  const { code, prose } = splitMarkdown(text);

  for (const piece of code) {
    for (const word of pathWords(piece, repo.topLevel)) {
      if (pathExists(repo, word.text)) continue;
      problems.push(`${doc}:${lineOf(text, word.offset)}: \`${word.text}\` does not exist`);
    }
  }

  for (const link of linkTargets(prose)) {
    const target = link.text;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: ...
    const hash = target.indexOf("#");
    const filePart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash)).replace(/\?.*$/, "");
    const fragment = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
    const resolved = filePart === "" ? doc : path.posix.normalize(path.posix.join(path.posix.dirname(doc), filePart)).replace(/\/$/, "");
    const where = `${doc}:${lineOf(text, link.offset)}`;
    if (resolved.startsWith("..")) {
      problems.push(`${where}: link ${target} leaves the repository`);
      continue;
    }
    if (!repo.entries.has(resolved) && !repo.entries.has(`${resolved}/`)) {
      problems.push(`${where}: link ${target} does not resolve (${resolved} does not exist)`);
      continue;
    }
    if (fragment !== null && resolved.endsWith(".md")) {
      const anchors = headingAnchors(repo.read(resolved) ?? "");
      if (!anchors.has(fragment)) problems.push(`${where}: link ${target}: ${resolved} has no heading #${fragment}`);
    }
  }
  return problems;
}

const CODE_FILE = /^(?:worker|schema|web\/src|scripts|e2e|gpu)\/.*\.(?:ts|tsx|mjs)$|^[^/]+\.config\.ts$|^wrangler\.toml$|^migrations\/[^/]+\.sql$/;

/**
 * Pointers in code that lead a reader nowhere: an issue number ("issue 22 §3", "Issue 13"), and the design notes
 * and specification that live outside the repository (DESIGN.md or "DESIGN §6", STYLE.md, shared/spec,
 * public-side.md, transactions-profile-admin.md, a bare "§9"). A comment states the reason itself or links
 * docs/<page>.md#<anchor>; a name the specification gives is said as "the specification names X".
 */
const OUTSIDE_POINTERS: [RegExp, string][] = [
  [/\bissues? #?\d+/i, "an issue number"],
  [/\bDESIGN(?:\.md\b|\s*§)|\bSTYLE\.md\b/, "a pointer to the design notes outside the repository"],
  [/\bshared\/spec\b|\bpublic-side\b|\btransactions-profile-admin\b|§\s*\d/, "a pointer to the specification outside the repository"],
];

/**
 * The pointers in code and settings files that a reader follows: `docs/<page>.md` with its `#anchor`, and the old
 * `README "<section>"` form (README.md is an entry point now; its sections are not pointed at); and the pointers
 * OUTSIDE_POINTERS refuses. Each problem as "file:line: what", like docProblems.
 */
export function codePointerProblems(repo: RepoView, file: string): string[] {
  const text = repo.read(file) ?? "";
  const problems: string[] = [];
  text.split("\n").forEach((line, i) => {
    const at = `${file}:${i + 1}`;
    if (/README "[^"]+"/.test(line)) problems.push(`${at}: a README "section" pointer: point at docs/<page>.md#<anchor>`);
    const outside = OUTSIDE_POINTERS.find(([pattern]) => pattern.test(line));
    if (outside) problems.push(`${at}: ${outside[1]}: say the reason, or point at docs/<page>.md#<anchor>`);
    for (const m of line.matchAll(/\bdocs\/([\w-]+\.md)(?:#([\w-]+))?/g)) {
      const page = `docs/${m[1]}`;
      const markdown = repo.read(page);
      if (markdown === null) problems.push(`${at}: ${page} does not exist`);
      else if (m[2] !== undefined && !headingAnchors(markdown).has(m[2])) problems.push(`${at}: ${page} has no heading #${m[2]}`);
    }
  });
  return problems;
}

/** The code and settings files whose pointers codePointerProblems checks. */
export function codeFiles(repo: RepoView): string[] {
  // The checker and its test name broken pointers on purpose.
  return [...repo.entries].filter((e) => CODE_FILE.test(e) && !e.startsWith("scripts/docs-paths")).sort();
}
