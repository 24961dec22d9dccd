// --list: sealed intake from the grinding host (docs/grinder.md#sealed-intake---list). Each verified row is sealed
// to the marketplace's intake key (HPKE, schema/sealed-intake.ts) as soon as it is found, and only the sealed
// row is sent to POST /api/admin/addresses/sealed; without --out nothing of the key reaches this disk. Rows the
// marketplace cannot be reached for are kept sealed in a file (the route's own body), never in plain text.
import { writeFileSync } from "node:fs";
import type { BulkUploadResponse } from "../../schema/listings";
import { type IntakeKeyResponse, type IntakePlainRow, type SealedRow, sealIntakeRow } from "../../schema/sealed-intake";

/** The two admin calls --list makes (orders-api.ts implements them over a signed-in session). */
export interface IntakeApi {
  intakeKey(): Promise<IntakeKeyResponse>;
  uploadSealed(rows: SealedRow[]): Promise<BulkUploadResponse>;
}

/** Uploads tried per sealed row before it is kept in the unsent file; the waits between them double. */
const UPLOAD_ATTEMPTS = 3;

export type ListSummary = { listed: number; refused: number; unsent: SealedRow[] };

export class SealedLister {
  private work: Promise<void> = Promise.resolve();
  private listed = 0;
  private refused = 0;
  private readonly unsent: SealedRow[] = [];

  private constructor(
    private readonly api: IntakeApi,
    readonly key: IntakeKeyResponse,
    private readonly log: (line: string) => void,
    private readonly retryMs: number,
  ) {}

  /** Fetches the intake key first, so a marketplace that cannot be reached stops the run before it grinds. */
  static async connect(api: IntakeApi, log: (line: string) => void, retryMs = 1000): Promise<SealedLister> {
    return new SealedLister(api, await api.intakeKey(), log, retryMs);
  }

  /** Seals the row now; its upload follows the earlier ones. */
  add(row: IntakePlainRow): void {
    const sealed = sealIntakeRow(this.key, row);
    const address = row.address;
    this.work = this.work.then(async () => this.send(await sealed, address));
  }

  private async send(row: SealedRow, address: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        const answer = await this.api.uploadSealed([row]);
        const result = answer.results[0];
        if (result?.status === "success") {
          this.listed++;
          this.log(`listed ${address} as listing #${result.id} (${result.price} ${result.currency})`);
        } else {
          this.refused++;
          this.log(`refused ${address}: ${result ? `${result.reason}: ${result.message}` : "no result"}`);
        }
        return;
      } catch (e) {
        if (attempt >= UPLOAD_ATTEMPTS) {
          this.unsent.push(row);
          this.log(`could not list ${address} (${(e as Error).message}); kept sealed`);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, this.retryMs * 2 ** (attempt - 1)));
      }
    }
  }

  /** Waits for every upload; the rows still unsent are returned (sealed). */
  async finish(): Promise<ListSummary> {
    await this.work;
    return { listed: this.listed, refused: this.refused, unsent: [...this.unsent] };
  }
}

/** Keeps sealed rows the marketplace did not take as `{rows}`, the body POST /api/admin/addresses/sealed reads. */
export function writeUnsent(path: string, rows: SealedRow[]): void {
  writeFileSync(path, `${JSON.stringify({ rows })}\n`, { mode: 0o600, flag: "wx" });
}
