// A section of wrangler.toml's variables as written (`KEY = "value"` lines), for tests that need the committed
// values themselves: the worker tests' own bindings override some of them (vitest.config.ts), and a deployment
// of the file would not. `[vars]` is the top level (the local defaults); `[env.production.vars]` production's.
// The deploy script reads the file through wrangler itself (scripts/deploy.ts).
export function wranglerVars(toml: string, section = "vars"): Record<string, string> {
  const vars: Record<string, string> = {};
  let current = "";
  for (const line of toml.split("\n")) {
    const header = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/.exec(line);
    if (header) {
      current = header[1];
      continue;
    }
    const entry = /^\s*([A-Z][A-Z0-9_]*)\s*=\s*"([^"\\]*)"\s*(#.*)?$/.exec(line);
    if (current === section && entry) vars[entry[1]] = entry[2];
  }
  return vars;
}
