// Vite's `?raw` imports, which examples.test.ts uses to read docs/rarity.md (the worker tsconfig has no
// vite/client or node types).
declare module "*?raw" {
  const content: string;
  export default content;
}
