// How /grind names the graphics adapter the browser gave it. A software adapter (SwiftShader, llvmpipe, the
// browser's fallback adapter) runs the kernels on the computer's processor: calling it "your GPU" told a visitor
// their graphics card was slow when none was used at all, so it is named for what it is.

/** What WebGPU says about an adapter (GPUAdapterInfo's fields; any may be empty). */
export type AdapterInfo = { vendor?: string; architecture?: string; device?: string; description?: string };

export type AdapterWords = {
  /** true for a software (CPU) renderer or the browser's fallback adapter */
  software: boolean;
  /** the adapter's own name from vendor, architecture and description ("nvidia ampere"), or "" when it gives none */
  name: string;
  /** after "Found ": "your GPU (nvidia ampere)", "a software renderer (google swiftshader), not a GPU" */
  found: string;
  /** the subject of a sentence: "Your GPU (nvidia ampere)", "The software renderer (google swiftshader)" */
  subject: string;
  /** after "Grinding on ": "your GPU", "the software renderer" */
  on: string;
};

/** "nvidia ampere, NVIDIA GeForce RTX 3080": vendor and architecture, then the description; nothing said twice. */
function adapterName(info: AdapterInfo): string {
  const vendor = info.vendor?.trim() ?? "";
  const architecture = info.architecture?.trim() ?? "";
  const description = info.description?.trim() ?? "";
  const has = (a: string, b: string) => a.toLowerCase().includes(b.toLowerCase());
  const head = vendor && architecture && !has(architecture, vendor) ? `${vendor} ${architecture}` : architecture || vendor;
  if (!description || has(head, description)) return head;
  if (!head || has(description, head)) return description;
  return `${head}, ${description}`;
}

/** The words for an adapter: `software` is the caller's verdict (isSoftwareAdapter, or WebGPU's fallback flag). */
export function adapterWords(info: AdapterInfo, software: boolean): AdapterWords {
  const name = adapterName(info);
  const named = name ? ` (${name})` : "";
  if (software)
    return {
      software,
      name,
      found: `a software renderer${named}, not a GPU: it runs the grinder on this computer's processor, far slower than a graphics card`,
      subject: `The software renderer${named}`,
      on: "the software renderer",
    };
  return { software, name, found: `your GPU${named || " (the browser does not name it)"}`, subject: `Your GPU${named}`, on: "your GPU" };
}
