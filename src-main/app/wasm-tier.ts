// Seam's plain-Node processes (`seam`, web mode) run WebAssembly on V8's baseline compiler only.
import { setFlagsFromString } from 'node:v8'

/**
 * V8 starts wasm on its baseline compiler (Liftoff) and re-compiles hot functions with its
 * optimising one (TurboFan) on a background thread. Two of the wasm functions a host runs are
 * very large: the state machine of undici's HTTP parser (what Node's `fetch` reads
 * model responses with) and tree-sitter-bash's lexer. Optimising the first costs about 150 ms of
 * CPU in every process that has read a second model response (a `seam run` of one Bash call:
 * about 970 ms -> 790 ms of CPU, medians of 7); across 2,000 parses of a ten-part shell line the
 * second costs 520-830 ms against 250-400 ms, while the optimised parse is no faster at that
 * length (about 0.05 ms either way). Responses of a few KB and shell lines of a few hundred bytes
 * never repay it. Must run before the first `fetch`: a module keeps the tiering it was compiled
 * with. Not in Electron: Chromium's V8 may freeze its flags once started, and changing a frozen
 * flag aborts the process.
 */
export function keepWasmOnBaselineCompiler(): void {
  if (process.versions.electron === undefined) setFlagsFromString('--liftoff-only')
}
