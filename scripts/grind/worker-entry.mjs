// Plain-JS entry for worker threads: on Node 20, `node --import tsx` does not install the
// TypeScript loader inside workers, so register it here before loading the real worker.
import { register } from "tsx/esm/api";

register();
await import("./worker.ts");
