import { describe, expect, it } from "vitest";
import { adapterWords } from "./adapter-words";

describe("/grind names its adapter for what it is", () => {
  it("a software renderer is not called a GPU", () => {
    // What chromium reports for SwiftShader.
    const words = adapterWords({ vendor: "google", architecture: "swiftshader", device: "", description: "" }, true);
    expect(words.found).toBe(
      "a software renderer (google swiftshader), not a GPU: it runs the grinder on this computer's processor, far slower than a graphics card",
    );
    expect(words.subject).toBe("The software renderer (google swiftshader)");
    expect(words.on).toBe("the software renderer");
    for (const text of [words.found, words.subject, words.on]) expect(text).not.toMatch(/your GPU/i);
  });

  it("a hardware adapter is the visitor's GPU, named by vendor, architecture and description", () => {
    const words = adapterWords({ vendor: "nvidia", architecture: "ampere", description: "NVIDIA GeForce RTX 3080" }, false);
    expect(words).toMatchObject({ software: false, name: "nvidia ampere, NVIDIA GeForce RTX 3080", on: "your GPU" });
    expect(words.found).toBe("your GPU (nvidia ampere, NVIDIA GeForce RTX 3080)");
    expect(words.subject).toBe("Your GPU (nvidia ampere, NVIDIA GeForce RTX 3080)");
    // a description that repeats the rest is said once
    expect(adapterWords({ vendor: "apple", architecture: "", description: "Apple M2" }, false).name).toBe("Apple M2");
    expect(adapterWords({ vendor: "intel", architecture: "gen-12lp", description: "" }, false).name).toBe("intel gen-12lp");
  });

  it("says so when the browser names nothing, and names a nameless software adapter all the same", () => {
    expect(adapterWords({ vendor: "", architecture: "", description: "" }, false).found).toBe("your GPU (the browser does not name it)");
    expect(adapterWords({}, true).found).toMatch(/^a software renderer, not a GPU:/);
  });
});
