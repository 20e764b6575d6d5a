#!/usr/bin/env node
// The `seam` command: runs the built CLI (npm install builds it through the prepare script).
// `runCli` exits itself, once stdout and stderr have passed on everything (src-main/app/process-exit.ts).
import { existsSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { dirname, join } from 'node:path'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const cli = join(root, 'out', 'main', 'cli.js')
if (!existsSync(cli)) {
  process.stderr.write(`seam: ${cli} is missing; run "npm run build" in ${root} first\n`)
  // No process.exit: the loop ends once the message is written.
  process.exitCode = 1
} else {
  const { runCli } = await import(pathToFileURL(cli).href)
  await runCli(process.argv.slice(2))
}
