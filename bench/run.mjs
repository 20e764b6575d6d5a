// `npm run bench`: runs every bench/*.ts module, each in its own Node process (so one bench's
// garbage and child processes cannot skew the next), loading TypeScript through Vite's SSR
// loader. Prints one JSON object per measure per line on stdout.
//   node bench/run.mjs [name...]   only the modules whose file name starts with a name
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0) // e.g. piped into `head`
  throw error
})

const [flag, single] = process.argv.slice(2)
if (flag === '--one') {
  const { createServer } = await import('vite')
  const { modulePathForDev } = await import('../scripts/vite-module-path.mjs')
  const server = await createServer({ root, configFile: false, plugins: [modulePathForDev()], logLevel: 'error', server: { middlewareMode: true, hmr: false }, appType: 'custom', optimizeDeps: { noDiscovery: true, include: [] } })
  try {
    const mod = await server.ssrLoadModule(`/bench/${single}`)
    for (const result of await mod.run()) process.stdout.write(JSON.stringify(result) + '\n')
  } finally {
    await server.close()
  }
  process.exit(0)
}

const only = process.argv.slice(2)
const modules = readdirSync(join(root, 'bench'))
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && f !== 'measure.ts')
  .filter((f) => only.length === 0 || only.some((name) => f.startsWith(name)))
  .sort()

let failed = 0
for (const file of modules) {
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--one', file], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] })
  if (child.status !== 0) {
    failed++
    process.stderr.write(`bench ${file} failed (exit ${child.status ?? child.signal})\n`)
  }
}
process.exit(failed ? 1 : 0)
