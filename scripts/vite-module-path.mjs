// `import path from './file?modulePath'` outside the app's build: electron-vite's build turns such
// an import into the path of `file` bundled as its own module. For vitest and the benches
// (`modulePathForDev`) the same is done with rolldown, into node_modules/.cache/seam-module-path/;
// for a library build (`modulePathForBuild`, the packed SDK) the bundle is emitted beside the
// importing chunk. Either way every dependency is bundled in (as the app's worker bundles are:
// they must load from outside the asar archive).
import { createHash } from 'node:crypto'
import { mkdir, rename, writeFile } from 'node:fs/promises'
import { basename, dirname, join, relative } from 'node:path'
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

/**
 * For a library build whose chunks all sit in the output folder's root (the packed SDK): the
 * bundle is emitted there too, and the import is its path beside the importing chunk. An SSR build
 * emits it only with `build.ssrEmitAssets`.
 * @returns {import('vite').Plugin}
 */
export function modulePathForBuild() {
  return {
    name: 'seam:module-path-build',
    apply: 'build',
    enforce: 'pre',
    resolveId(id, importer) {
      if (!id.endsWith(QUERY)) return null
      // Relative to the repository, so the build names no machine path.
      return this.resolve(id.slice(0, -QUERY.length), importer, { skipSelf: true }).then((resolved) => (resolved ? PREFIX + relative(root, resolved.id) : null))
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null
      const entry = join(root, id.slice(PREFIX.length))
      return bundleCode(entry).then((code) => {
        const fileName = `${basename(entry).replace(/\.\w+$/, '')}-${createHash('sha256').update(code).digest('hex').slice(0, 12)}.mjs`
        this.emitFile({ type: 'asset', fileName, source: code })
        // A variable, not a literal: `new URL('./x', import.meta.url)` would be taken for an asset import.
        return `import { fileURLToPath } from 'node:url'\nconst file = ${JSON.stringify(`./${fileName}`)}\nexport default fileURLToPath(new URL(file, import.meta.url))\n`
      })
    }
  }
}

/** `entry` and everything it imports as one self-contained ES module's code. */
async function bundleCode(entry) {
  const build = await rolldown({ input: entry, platform: 'node', logLevel: 'silent' })
  try {
    const { output } = await build.generate({ format: 'esm', codeSplitting: false })
    return output[0].code
  } finally {
    await build.close()
  }
}

/** Bundles `entry` into one self-contained ES module and returns its path. */
export async function bundle(entry) {
  const code = await bundleCode(entry)
  const dir = join(root, 'node_modules', '.cache', 'seam-module-path')
  await mkdir(dir, { recursive: true })
  const file = join(dir, `${basename(entry).replace(/\.\w+$/, '')}-${createHash('sha256').update(code).digest('hex').slice(0, 12)}.mjs`)
  // Test files build at once in several processes: each writes its own temporary file, then renames.
  const temporary = `${file}.${process.pid}.tmp`
  await writeFile(temporary, code)
  await rename(temporary, file)
  return file
}
