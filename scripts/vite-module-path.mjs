// `import path from './file?modulePath'` outside the app's build (vitest, benches): electron-vite's
// build turns such an import into the path of `file` bundled as its own module; here the same is
// done with rolldown, into node_modules/.cache/seam-module-path/, with every dependency bundled
// in (as the app's worker bundles are: they must load from outside the asar archive).
import { createHash } from 'node:crypto'
import { mkdir, rename, writeFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { rolldown } from 'rolldown'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const QUERY = '?modulePath'
const PREFIX = '\0seam-module-path:'

/** @returns {import('vite').Plugin} */
export function modulePathForDev() {
  return {
    name: 'seam:module-path-dev',
    apply: 'serve',
    enforce: 'pre',
    async resolveId(id, importer) {
      if (!id.endsWith(QUERY)) return null
      const resolved = await this.resolve(id.slice(0, -QUERY.length), importer, { skipSelf: true })
      return resolved ? PREFIX + resolved.id : null
    },
    async load(id) {
      if (!id.startsWith(PREFIX)) return null
      return `export default ${JSON.stringify(await bundle(id.slice(PREFIX.length)))}`
    }
  }
}

/** Bundles `entry` into one self-contained ES module and returns its path. */
export async function bundle(entry) {
  const build = await rolldown({ input: entry, platform: 'node', logLevel: 'silent' })
  try {
    const { output } = await build.generate({ format: 'esm', codeSplitting: false })
    const code = output[0].code
    const dir = join(root, 'node_modules', '.cache', 'seam-module-path')
    await mkdir(dir, { recursive: true })
    const file = join(dir, `${basename(entry).replace(/\.\w+$/, '')}-${createHash('sha256').update(code).digest('hex').slice(0, 12)}.mjs`)
    // Test files build at once in several processes: each writes its own temporary file, then renames.
    const temporary = `${file}.${process.pid}.tmp`
    await writeFile(temporary, code)
    await rename(temporary, file)
    return file
  } finally {
    await build.close()
  }
}
