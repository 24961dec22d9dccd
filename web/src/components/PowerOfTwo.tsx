// A difficulty as a power of two the way a reader writes it, 2 with a raised exponent, never the code-like "2^24";
// screen readers hear "2 to the power 24".
export function PowerOfTwo({ bits }: { bits: number | string }) {
  return (
    <span role="img" aria-label={`2 to the power ${bits}`} data-testid="power-of-two">
      2<sup className="text-xs">{bits}</sup>
    </span>
  );
}
