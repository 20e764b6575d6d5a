// `@seam/sdk/build`: builds a bundle's entries with Vite, the way Seam loads them:
//   dist/host.js    ES module for Node: every dependency bundled in, only node: built-ins imported
//   dist/client.js  ES module for the UI: `react`, `react/jsx-runtime` and `@seam/client` are
//                   shims reading globalThis.__seamShared (the app's own instances), no React inside
// Sources: src/host.ts and src/client.tsx, for the parts package.json declares (`seam.host`,
// `seam.client`, which must be dist/host.js and dist/client.js).
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { builtinModules, createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { build } from 'vite'

const require = createRequire(import.meta.url)

/** Named exports a shim offers: every identifier-like key of the real module (same versions as the app's). */
function exportNames(module) {
  return Object.keys(module).filter((key) => /^[A-Za-z_$][\w$]*$/.test(key) && key !== 'default')
}

/** `@seam/client`'s run-time exports (src-renderer/plugins/sdk.ts); everything else in it is types. */
const CLIENT_EXPORTS = ['SDK_VERSION', 'defineClientPlugin']

function shimSource(key, names) {
  const lines = [
    `const shared = globalThis.__seamShared`,
    `if (!shared || !shared[${JSON.stringify(key)}]) throw new Error(${JSON.stringify(`${key} is not shared by this Seam (globalThis.__seamShared)`)})`,
    `const m = shared[${JSON.stringify(key)}]`,
    // Pure calls, so the exports a bundle does not use are left out of it.
    `const pick = (name) => m[name]`,
    `export default /* @__PURE__ */ pick('default') ?? m`
  ]
  for (const name of names) lines.push(`export const ${name} = /* @__PURE__ */ pick(${JSON.stringify(name)})`)
  return lines.join('\n') + '\n'
}

/** Resolves the shared modules to virtual shims; nothing from node_modules/react enters the bundle. */
function sharedModulesPlugin() {
  const jsxRuntime = require('react/jsx-runtime')
  const shims = new Map([
    ['react', shimSource('react', exportNames(require('react')))],
    ['react/jsx-runtime', shimSource('react/jsx-runtime', exportNames(jsxRuntime))],
    // Only reached if the JSX transform ran in development mode; jsx() accepts jsxDEV's leading arguments.
    ['react/jsx-dev-runtime', shimSource('react/jsx-runtime', ['Fragment', 'jsx']) + 'export const jsxDEV = /* @__PURE__ */ pick(\'jsx\')\n'],
    ['@seam/client', shimSource('@seam/client', CLIENT_EXPORTS)]
  ])
  const prefix = '\0seam-shared:'
  return {
    name: 'seam:shared-modules',
    enforce: 'pre',
    resolveId(id) {
      return shims.has(id) ? prefix + id : null
    },
    load(id) {
      return id.startsWith(prefix) ? shims.get(id.slice(prefix.length)) : null
    }
  }
}

/** Files of the plugin SDK and of the host sources it re-exports (src-shared), in this repository or installed. */
const SDK_SOURCES = /\/(packages\/sdk|src-shared|@seam\/sdk)\//

const common = (dir) => ({
  configFile: false,
  envDir: false,
  publicDir: false,
  root: dir,
  logLevel: 'warn',
  mode: 'production',
  clearScreen: false
})

/** `seam plugin dev` sets SEAM_PLUGIN_DEV=1: source maps, so stacks and errors point into src/. */
const devBuild = () => process.env.SEAM_PLUGIN_DEV === '1'

/** Builds `entry` (a .ts file) into `<outDir>/host.js`. */
export async function buildHost(dir, entry, outDir, sourcemap = devBuild()) {
  const nodeBuiltins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)])
  await build({
    ...common(dir),
    build: {
      outDir,
      emptyOutDir: false,
      target: 'node20',
      minify: false,
      sourcemap,
      ssr: true,
      lib: { entry, formats: ['es'], fileName: () => 'host.js' },
      rolldownOptions: {
        external: (id) => nodeBuiltins.has(id),
        // The plugin SDK and the sources it re-exports run nothing when loaded, so what a bundle
        // does not use of them (the kernel's classes) is left out.
        treeshake: { moduleSideEffects: (id) => !SDK_SOURCES.test(id.split('\\').join('/')) }
      }
    },
    // Bundle every dependency (zod): a bundle cannot rely on Seam's node_modules.
    ssr: { target: 'node', noExternal: true }
  })
}

/** Builds `entry` (a .tsx file) into `<outDir>/client.js`. */
export async function buildClient(dir, entry, outDir, sourcemap = devBuild()) {
  await build({
    ...common(dir),
    plugins: [sharedModulesPlugin()],
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    oxc: { jsx: { runtime: 'automatic', importSource: 'react', development: false } },
    build: {
      outDir,
      emptyOutDir: false,
      target: 'es2022',
      minify: false,
      sourcemap,
      lib: { entry, formats: ['es'], fileName: () => 'client.js' },
      rolldownOptions: { output: { codeSplitting: false } }
    }
  })
}

/**
 * Builds the parts the bundle in `dir` declares from src/host.ts and src/client.tsx into
 * `outDir` (default `<dir>/dist`). Returns the files written.
 * @param {{ dir: string, outDir?: string }} options
 * @returns {Promise<string[]>}
 */
export async function buildBundle({ dir, outDir }) {
  const root = resolve(dir)
  const out = resolve(outDir ?? join(root, 'dist'))
  const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'))
  const parts = manifest.seam ?? {}
  const written = []
  for (const [part, source, build] of [['host', 'src/host.ts', buildHost], ['client', 'src/client.tsx', buildClient]]) {
    if (parts[part] === undefined) continue
    if (parts[part] !== `dist/${part}.js`) throw new Error(`package.json: seam.${part} must be "dist/${part}.js" (got ${JSON.stringify(parts[part])})`)
    const entry = join(root, source)
    if (!existsSync(entry)) throw new Error(`seam.${part} is declared but ${source} does not exist`)
    await build(root, entry, out)
    written.push(join(out, `${part}.js`))
  }
  if (written.length === 0) throw new Error('package.json declares neither seam.host nor seam.client')
  return written
}
