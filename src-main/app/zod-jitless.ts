// Imported first by each process entry (the `seam` CLI, the web host, the Electron main), before
// any module builds a schema: zod decides per object schema, when it is built, whether its first
// parse generates a specialised parser with `new Function`. In a Seam process most schemas are
// parsed a handful of times, so that code generation never repays itself: it was about 50 ms of
// CPU in every `seam run` (0.78 -> 0.73 s, medians of 12 alternated runs) and about a quarter of
// zod's CPU in a web host serving an e2e test, against about 1 us more per tool call on the agent
// loop (bench/agent-loop.ts, alternated runs). The zod Seam pins keeps its settings on
// globalThis, so a plugin bundle's own copy of a zod that does the same shares this one: same
// results, no generated code. Tests that import modules directly keep zod's default.
import { z } from 'zod'

z.config({ jitless: true })
