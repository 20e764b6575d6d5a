#!/usr/bin/env node
// Builds the example bundle examples/word-count with Vite's build API and packs it with npm:
//   dist/host.js    ES module for Node: zod bundled in, only node: built-ins imported
//   dist/client.js  ES module for the UI: `react`, `react/jsx-runtime` and `@seam/client` are
//                   shims reading globalThis.__seamShared (the app's own instances), no React inside
// then `npm pack` (scripts ignored, nothing installed, no network) into the output folder.
//
//   node scripts/build-example.mjs [--out DIR]
// builds in place (examples/word-count/dist) and packs into DIR (default out/examples). Tests use
// buildExample({ outDir }), which builds a staged copy of the bundle under outDir instead, so
// that concurrent builds never share a folder.
import { execFile } from 'node:child_process'
import { copyFile, mkdir, readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { builtinModules } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs, promisify } from 'node:util'
import { build } from 'vite'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
export const EXAMPLE_DIR = join(root, 'examples', 'word-count')
const run = promisify(execFile)
const require = createRequire(import.meta.url)

/** Named exports a shim offers: every identifier-like key of the real module (same versions as the app's). */
function exportNames(module) {
  return Object.keys(module).filter((key) => /^[A-Za-z_$][\w$]*$/.test(key) && key !== 'default')
}

/** `@seam/client`'s run-time exports (src-renderer/plugins/sdk.ts); everything else in it is types. */
const SDK_EXPORTS = ['SDK_VERSION', 'defineClientPlugin']

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
    ['@seam/client', shimSource('@seam/client', SDK_EXPORTS)]
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

/** Files of the plugin SDK and of the host sources it re-exports (src-shared). */
const SDK_SOURCES = /\/(packages\/sdk|src-shared)\//

const common = (dir, outDir) => ({
  configFile: false,
  envDir: false,
  publicDir: false,
  root: dir,
  logLevel: 'warn',
  mode: 'production',
  clearScreen: false
})

async function buildHost(dir, outDir) {
  const nodeBuiltins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)])
  await build({
    ...common(dir, outDir),
    build: {
      outDir,
      emptyOutDir: true,
      target: 'node20',
      minify: false,
      ssr: true,
      lib: { entry: join(dir, 'src/host.ts'), formats: ['es'], fileName: () => 'host.js' },
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

async function buildClient(dir, outDir) {
  await build({
    ...common(dir, outDir),
    plugins: [sharedModulesPlugin()],
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    oxc: { jsx: { runtime: 'automatic', importSource: 'react', development: false } },
    build: {
      outDir,
      emptyOutDir: false,
      target: 'es2022',
      minify: false,
      lib: { entry: join(dir, 'src/client.tsx'), formats: ['es'], fileName: () => 'client.js' },
      rolldownOptions: { output: { codeSplitting: false } }
    }
  })
}

/** `npm pack` of `dir` into `destination`; returns the .tgz path. */
async function pack(dir, destination) {
  await mkdir(destination, { recursive: true })
  const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--offline', '--pack-destination', destination], {
    cwd: dir,
    env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' }
  })
  const [info] = JSON.parse(stdout)
  if (!info || typeof info.filename !== 'string') throw new Error(`npm pack printed no file name: ${stdout}`)
  return join(destination, info.filename)
}

/**
 * Builds the example and packs it into `outDir`. Returns the .tgz and the built bundle folder
 * (`dir`: a staged copy under outDir, or examples/word-count itself with `inPlace`).
 * @param {{ outDir: string, inPlace?: boolean }} options
 * @returns {Promise<{ tgz: string, dir: string }>}
 */
export async function buildExample({ outDir, inPlace = false }) {
  const destination = resolve(outDir)
  let dir = EXAMPLE_DIR
  if (!inPlace) {
    const manifest = JSON.parse(await readFile(join(EXAMPLE_DIR, 'package.json'), 'utf8'))
    dir = join(destination, manifest.name)
    await mkdir(dir, { recursive: true })
    for (const file of ['package.json', 'README.md']) await copyFile(join(EXAMPLE_DIR, file), join(dir, file))
  }
  const dist = join(dir, 'dist')
  await buildHost(EXAMPLE_DIR, dist)
  await buildClient(EXAMPLE_DIR, dist)
  return { tgz: await pack(dir, destination), dir }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { out: { type: 'string', default: join(root, 'out', 'examples') } } })
  try {
    const { tgz } = await buildExample({ outDir: values.out, inPlace: true })
    console.log(tgz)
  } catch (error) {
    console.error(`build-example: ${error instanceof Error ? error.message : String(error)}`)
    process.exitCode = 1
  }
}
