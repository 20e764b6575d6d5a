#!/usr/bin/env node
// The `seam` command: runs the built CLI (npm install builds it through the prepare script).
import { existsSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { dirname, join } from 'node:path'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const cli = join(root, 'out', 'main', 'cli.js')
if (!existsSync(cli)) {
  process.stderr.write(`seam: ${cli} is missing; run "npm run build" in ${root} first\n`)
  process.exit(1)
}
const { main } = await import(pathToFileURL(cli).href)
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`seam: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(error && error.exitCode === 2 ? 2 : 1)
  }
)
