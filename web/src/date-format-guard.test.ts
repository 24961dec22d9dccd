// Every date a screen shows goes through lib/date-format.ts, so one visitor sees one format, their locale's
// (docs/front-end.md#how-the-landing-pages-meet-it): formatting a date any other way (toLocaleString(), an Intl
// date or relative-time formatter of its own, a clock written from getHours()) fails here with the file and line.
// Numbers keep their own module (lib/number-format.ts); a number's toLocaleString("en-US") is not a date.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const WEB_SRC = path.join(import.meta.dirname);
const DATE_MODULE = path.join(WEB_SRC, "lib", "date-format.ts");

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith(".gen.ts") ? [full] : [];
  });
}

const FORBIDDEN: [what: string, pattern: RegExp][] = [
  ["toLocaleDateString", /\.toLocaleDateString\s*\(/],
  ["toLocaleTimeString", /\.toLocaleTimeString\s*\(/],
  ['toLocaleString other than a number\'s toLocaleString("en-US")', /\.toLocaleString\s*\((?!\s*"en-US"\s*\))/],
  ["toDateString / toTimeString / toUTCString", /\.to(?:Date|Time|UTC)String\s*\(/],
  ["Intl.DateTimeFormat", /Intl\s*\.\s*DateTimeFormat/],
  ["Intl.RelativeTimeFormat", /Intl\s*\.\s*RelativeTimeFormat/],
  ["a clock written by hand from getHours / getMinutes", /\.get(?:UTC)?(?:Hours|Minutes)\s*\(/],
];

/** Each forbidden use in a source text: "file:line: what". */
function dateFormattingOutside(file: string, text: string): string[] {
  return text.split("\n").flatMap((line, i) => FORBIDDEN.filter(([, pattern]) => pattern.test(line)).map(([what]) => `${file}:${i + 1}: ${what}`));
}

describe("dates go through lib/date-format.ts", () => {
  it("no other web source formats a date", () => {
    const found = sources(WEB_SRC)
      .filter((file) => file !== DATE_MODULE)
      .flatMap((file) => dateFormattingOutside(path.relative(WEB_SRC, file), fs.readFileSync(file, "utf8")));
    expect(found).toEqual([]);
  });

  it("the check sees each way of formatting a date, and leaves numbers alone", () => {
    const text = [
      "const a = new Date(x).toLocaleString();",
      "const b = d.toLocaleDateString('de-DE');",
      "const c = d.toLocaleTimeString();",
      "const e = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' });",
      "const f = new Intl.RelativeTimeFormat('en');",
      'const g = pad(d.getHours()) + ":" + pad(d.getMinutes());',
      "const h = d.toDateString() === e.toDateString();",
      'const n = count.toLocaleString("en-US");',
      "const m = formatDay(d);",
    ].join("\n");
    expect(dateFormattingOutside("x.ts", text).map((s) => Number(s.split(":")[1]))).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
});
