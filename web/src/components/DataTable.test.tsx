import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { type Column, DataTable } from "./DataTable";

type Row = { id: number; name: string };
const columns: Column<Row>[] = [
  { key: "name", header: "Name", cell: (r) => r.name },
  { key: "id", header: "Id", hideBelow: "md", ariaSort: "ascending", cell: (r) => r.id },
];
const render = (props: Partial<Parameters<typeof DataTable<Row>>[0]> = {}) =>
  renderToStaticMarkup(<DataTable columns={columns} rows={[]} rowKey={(r) => r.id} caption="People" {...props} />);

describe("DataTable", () => {
  it("one markup: caption, column headers with scope and aria-sort, responsive hiding on header and cells", () => {
    const html = render({ rows: [{ id: 7, name: "Ada" }], rowProps: (r) => ({ "data-testid": `row-${r.id}` }) });
    expect(html).toContain('<caption class="sr-only">People</caption>');
    expect(html).toMatch(/<th scope="col"[^>]*>Name<\/th>/);
    expect(html).toMatch(/<th scope="col" aria-sort="ascending" class="[^"]*hidden md:table-cell[^"]*">Id<\/th>/);
    expect(html).toMatch(/<tr data-testid="row-7"><td class="[^"]*">Ada<\/td><td class="[^"]*hidden md:table-cell[^"]*">7<\/td><\/tr>/);
  });

  it("loading: skeleton rows or a text row, and no data rows", () => {
    expect(render({ loading: true, skeletonRows: 3, rows: [{ id: 1, name: "x" }] }).match(/table-skeleton-row/g)).toHaveLength(3);
    const text = render({ loading: true, loadingText: "Loading people…" });
    expect(text).toMatch(/<td colSpan="2"[^>]*>Loading people…<\/td>|<td colspan="2"[^>]*>Loading people…<\/td>/i);
  });

  it("empty: one full-width row with the message, only when not loading", () => {
    expect(render({ empty: "Nobody here" })).toMatch(/<td colspan="2"[^>]*>Nobody here<\/td>/i);
    expect(render({ empty: "Nobody here", loading: true })).not.toContain("Nobody here");
  });
});
