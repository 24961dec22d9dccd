// Forms that write use react-query's useMutation for pending, error and success: an in-flight
// flag kept by hand (useState(false) set around an await) drifts from the request it describes, is missed on
// an early return, and never refreshes what the write changed. This keeps such flags from coming back.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const WEB_SRC = import.meta.dirname;
// The custom-order and purchase pages are another change's; they follow once it lands.
const NOT_YET = [/[\\/]-custom-order[\\/]/, /[\\/]-purchase[\\/]/, /[\\/]custom-orders?[^\\/]*\.tsx$/];
const FLAG =
  /const \[\s*(is)?(loading|submitting|busy|uploading|saving|verifying|deleting|creating|updating|working|sending|inFlight)\w*\s*,\s*set\w+\s*\]\s*=\s*useState/i;

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe("forms on useMutation", () => {
  const files = sources(WEB_SRC).filter((f) => !NOT_YET.some((re) => re.test(f)));

  it("no hand-rolled in-flight flag in any form or hook of the SPA", () => {
    expect(files.length).toBeGreaterThan(50);
    const offenders = files.flatMap((file) =>
      fs
        .readFileSync(file, "utf8")
        .split("\n")
        .flatMap((line, i) => (FLAG.test(line) ? [`${path.relative(WEB_SRC, file)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(offenders).toEqual([]);
  });

  it.each([
    ["routes/-create-listing/SingleListingForm.tsx", ["verifyOwnershipMutation", "listingChangeMutation"]],
    ["components/bulk-upload/BulkUpload.tsx", ["listingChangeMutation"]],
    ["routes/-admin/ListingsTab.tsx", ["listingChangeMutation"]],
    ["components/listing/use-buy-flow.ts", ["startPurchaseMutation"]],
    ["components/listing/OwnerControls.tsx", ["useMutation"]],
  ])("%s writes through %j", (file, mutations) => {
    const text = fs.readFileSync(path.join(WEB_SRC, file), "utf8");
    expect(text).toContain("useMutation(");
    for (const m of mutations) expect(text).toContain(m);
  });

  it("the flag pattern is what it claims to catch", () => {
    expect(FLAG.test("  const [busy, setBusy] = useState(false);")).toBe(true);
    expect(FLAG.test("const [uploading, setUploading] = useState(false);")).toBe(true);
    expect(FLAG.test("const [isSubmitting, setIsSubmitting] = useState<boolean>(false);")).toBe(true);
    expect(FLAG.test("const [selected, setSelected] = useState<Set<number>>(new Set());")).toBe(false);
  });
});
