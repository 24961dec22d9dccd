// How the router reads and writes a URL's search (TanStack Router's parseSearch / stringifySearch). Its default
// runs JSON.parse over every value that looks like JSON, so a pattern typed into a shared link comes back as
// another value: `?patternValue=7e8` read as the number 700000000, `?search=1e3` as 1000. Here only what the
// router itself wrote as JSON (a quoted string, an array, an object) is parsed; anything else stays the text in
// the URL (the query-string decoder still turns "3" into 3 and "true" into true, which round-trip exactly), and
// each route's validateSearch reads it with its own rules.
import { parseSearchWith, stringifySearchWith } from "@tanstack/react-router";

function parseWritten(value: string): unknown {
  if (/^["[{]/.test(value)) return JSON.parse(value);
  // not JSON the router wrote: parseSearchWith keeps the text as it is
  throw new SyntaxError("not router JSON");
}

export const parseAppSearch = parseSearchWith(parseWritten);

/** The router's own writer: a string it could misread (`"7e8"`, `"null"`) goes out quoted, which parseAppSearch reads back. */
export const stringifyAppSearch = stringifySearchWith(JSON.stringify, JSON.parse);
