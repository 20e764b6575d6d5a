// Imported first by each process entry (the `seam` CLI, the web host, the Electron main), before
// any module builds a schema: zod decides per object schema, when it is built, whether its first
// parse generates a specialised parser with `new Function`. In a Seam process most schemas are
// parsed a handful of times, so that code generation never repays itself: it was about 40 ms of
// CPU in every `seam run` (0.79 -> 0.75 s, medians of 12 alternated runs) and most of the 0.2 s
// zod took in a web host serving one e2e test, against about 1 us more per tool call on the
// agent loop (bench/agent-loop.ts, alternated runs). Tests that import modules directly keep
// zod's default.
import { z } from 'zod'

z.config({ jitless: true })
