// The card's tier and the marketplace table's grade for the same scores (docs/rarity.md#two-scales): the two scales
// share the word RARE, so the table always prints its grade with the score, names the card's tier on hover, and
// the legend under the table maps each grade to the card tier of the same scores.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { TYPE_LEGEND } from "../../lib/rarity-display";
import { TableGrade, TierBadge } from "./badges";

const text = (html: string) => html.replace(/<[^>]+>/g, "").trim();
const titleOf = (html: string) => /title="([^"]*)"/.exec(html)?.[1] ?? "";

describe("one address, two scales, no contradiction", () => {
  it.each([
    ["9.4", "ULTRA RARE", "GOLD"],
    ["8.8", "RARE", "EPIC"],
    ["7.8", "UNCOMMON", "RARE"],
    ["6.1", "NOTABLE", "HIGH"],
    ["5.5", "COMMON", "PLUS"],
    ["4.2", "COMMON", "BASE"],
    ["1.0", "BASIC", "BASE"],
  ])("score %s: card %s, table %s with its score, the card tier named beside it and in the legend", (score, tier, grade) => {
    const card = text(renderToStaticMarkup(<TierBadge score={score} />));
    const cell = renderToStaticMarkup(<TableGrade score={score} />);
    expect(card).toBe(tier);
    // The grade never appears without its score, so the table's RARE is not the card's RARE.
    expect(text(cell)).toBe(`${grade} ${score}`);
    expect(titleOf(cell)).toBe(`Grade ${grade} (rarity ${score}/10); its card shows the tier ${tier}`);
    // The legend says, in words, which card tier each grade is.
    const entry = TYPE_LEGEND.split(": ")[1]
      .split("; ")
      .find((part) => part.startsWith(`${grade} `));
    expect(entry).toContain(tier);
  });

  it("the legend lists every grade of the table with its bound and the card tiers of the same scores", () => {
    expect(TYPE_LEGEND).toContain("GOLD 9+ is ULTRA RARE; EPIC 8+ is RARE; RARE 7+ is UNCOMMON; HIGH 6+ is NOTABLE; PLUS 5+ is COMMON");
    expect(TYPE_LEGEND).toContain("BASE under 5 is COMMON from 4 and BASIC under 4.");
  });
});
