// `npm run bench`: loads every bench/*.ts module through Vite's SSR loader (TypeScript without
// a separate build), runs it, and prints one JSON object per measure per line.
import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createServer } from 'vite'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const only = process.argv.slice(2)
const skip = new Set(['measure.ts'])
const modules = readdirSync(join(root, 'bench'))
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !skip.has(f))
  .filter((f) => only.length === 0 || only.some((name) => f.startsWith(name)))
  .sort()

const server = await createServer({ root, configFile: false, logLevel: 'error', server: { middlewareMode: true, hmr: false }, appType: 'custom', optimizeDeps: { noDiscovery: true, include: [] } })
let failed = 0
try {
  for (const file of modules) {
    try {
      const mod = await server.ssrLoadModule(`/bench/${file}`)
      for (const result of await mod.run()) process.stdout.write(JSON.stringify(result) + '\n')
    } catch (error) {
      failed++
      process.stderr.write(`bench ${file} failed: ${error instanceof Error ? error.stack : error}\n`)
    }
  }
} finally {
  await server.close()
}
process.exit(failed ? 1 : 0)
