// CSV output for found keys. Each row is written (and flushed) as soon as it is verified, so an
// interrupted run keeps what it found. New files are created 0600: they hold private keys.
import { closeSync, existsSync, openSync, readFileSync, statSync, writeSync } from "node:fs";
import type { Row } from "./verify.ts";

export const CSV_COLUMNS = ["address", "private_key", "platform", "pattern_type", "pattern_matched"] as const;
export const CSV_HEADER = CSV_COLUMNS.join(",");

export class CsvError extends Error {
  override name = "CsvError";
}

function cell(v: string): string {
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

export function formatRow(row: Row): string {
  return CSV_COLUMNS.map((c) => cell(row[c])).join(",");
}

export class CsvWriter {
  private readonly fd: number;
  private readonly ownsFd: boolean;

  /** path "-" writes to stdout. Refuses to clobber a non-empty file unless append or force. */
  constructor(path: string, opts: { append?: boolean; force?: boolean } = {}) {
    if (path === "-") {
      this.fd = 1;
      this.ownsFd = false;
      writeSync(this.fd, CSV_HEADER + "\n");
      return;
    }
    this.ownsFd = true;
    const nonEmpty = existsSync(path) && statSync(path).size > 0;
    if (nonEmpty && opts.append) {
      const text = readFileSync(path, "utf8");
      const header = text.split(/\r?\n/, 1)[0];
      if (header !== CSV_HEADER) throw new CsvError(`${path}: cannot append, its header is ${JSON.stringify(header)}, expected ${JSON.stringify(CSV_HEADER)}`);
      this.fd = openSync(path, "a");
      if (!text.endsWith("\n")) writeSync(this.fd, "\n");
      return;
    }
    if (nonEmpty && !opts.force) throw new CsvError(`${path} exists and may hold private keys; use --append to add rows or --force to overwrite`);
    this.fd = openSync(path, "w", 0o600);
    writeSync(this.fd, CSV_HEADER + "\n");
  }

  write(row: Row): void {
    writeSync(this.fd, formatRow(row) + "\n");
  }

  close(): void {
    if (this.ownsFd) closeSync(this.fd);
  }
}

/** Minimal reader for the files this writer produces (no quoted cells are ever needed). */
export function readRows(path: string): Row[] {
  const lines = readFileSync(path, "utf8")
    .split(/\r?\n/)
    .filter((l) => l.length > 0);
  if (lines[0] !== CSV_HEADER) throw new CsvError(`${path}: unexpected header ${JSON.stringify(lines[0])}`);
  return lines.slice(1).map((line) => {
    const cells = line.split(",");
    if (cells.length !== CSV_COLUMNS.length) throw new CsvError(`${path}: bad row ${JSON.stringify(line)}`);
    return Object.fromEntries(CSV_COLUMNS.map((c, i) => [c, cells[i]])) as unknown as Row;
  });
}
