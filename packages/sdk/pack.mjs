// Makes the SDK packable (`npm pack -w packages/sdk`, `npm publish -w packages/sdk`):
//
//   node pack.mjs prepack    builds dist/ and writes the package.json the tarball carries
//   node pack.mjs postpack   puts the workspace's package.json back
//
// In this repository the entries are TypeScript sources re-exporting the host's own definitions
// (../../src-shared, ../../src-main), resolved through the workspace link. A tarball cannot
// reach outside its folder, so prepack builds each entry into dist/ with Vite (the host code it
// re-exports bundled in; npm packages stay imports, listed as dependencies with the versions this
// repository pins) and emits declarations with tsc into dist/types (the same folder layout, so
// every type is still the host's own definition, now inside the package). Nothing is copied by
// hand and nothing in dist/ is committed.
//
// Packs of this folder take turns (two `seam plugin new` in a checkout, or test files packing at
// once): prepack rewrites package.json and dist/ in place, so it waits for `.pack.lock`, which
// postpack removes. A lock older than LOCK_STALE_MS is taken to be a pack that was killed, and the
// package.json such a pack had saved is put back before this one starts.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, copyFileSync, mkdirSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { join, resolve } from 'node:path'
import { build } from 'vite'
import { modulePathForBuild } from '../../scripts/vite-module-path.mjs'

const HERE = import.meta.dirname
const ROOT = resolve(HERE, '../..')
const DIST = join(HERE, 'dist')
const SAVED = join(HERE, '.package.workspace.json')
const LOCK = join(HERE, '.pack.lock')
const LOCK_STALE_MS = 10 * 60_000
const LOCK_WAIT_MS = 15 * 60_000
/** The JS entries (client.ts is types only: its module is empty). */
const ENTRIES = ['index', 'node', 'client', 'testing', 'version']
const TYPES = 'dist/types/packages/sdk'

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'))
const nodeBuiltins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)])
const isBare = (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0') && !/^[A-Za-z]:[\\/]/.test(id)
const packageOf = (id) => id.split('/').slice(0, id.startsWith('@') ? 2 : 1).join('/')

/** Seam's own version is read from the install's package.json at run time; in the SDK it is Seam's version at pack time. */
function seamVersionPlugin(version) {
  return {
    name: 'seam-sdk:seam-version',
    enforce: 'pre',
    load(id) {
      return id.split('\\').join('/').endsWith('/src-main/app/seam-version.ts') ? `export const SEAM_VERSION = ${JSON.stringify(version)}\n` : null
    }
  }
}

async function buildJs(seamVersion) {
  const result = await build({
    configFile: false,
    envDir: false,
    publicDir: false,
    root: HERE,
    logLevel: 'warn',
    mode: 'production',
    plugins: [seamVersionPlugin(seamVersion), modulePathForBuild()],
    build: {
      outDir: DIST,
      emptyOutDir: false,
      target: 'node20',
      minify: false,
      sourcemap: true,
      ssr: true,
      // The web tools' Markdown worker is emitted as its own file (modulePathForBuild).
      ssrEmitAssets: true,
      lib: { entry: Object.fromEntries(ENTRIES.map((e) => [e, join(HERE, `${e}.ts`)])), formats: ['es'], fileName: (_format, name) => `${name}.js` },
      // @seam/sdk itself (the host code imports @seam/sdk/version) resolves to these sources, bundled.
      rolldownOptions: { external: (id) => nodeBuiltins.has(id) || (isBare(id) && packageOf(id) !== '@seam/sdk') }
    },
    ssr: { target: 'node' }
  })
  const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => r.output)
  const own = new Set(outputs.map((o) => o.fileName))
  const imported = new Set()
  for (const chunk of outputs) {
    for (const id of chunk.type === 'chunk' ? chunk.imports : []) if (!own.has(id) && isBare(id) && !nodeBuiltins.has(id)) imported.add(packageOf(id))
  }
  return imported
}

// TypeScript 7's native compiler (the `typescript-native` alias) emits the same declarations (the
// same types; union members and quotes may come in another order or style) in under half the CPU
// time of 5.9's.
function buildTypes() {
  const config = join(HERE, 'tsconfig.pack.json')
  execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript-native/bin/tsc'), '-p', config], { stdio: 'inherit', cwd: ROOT })
}

/** The dependencies of the packed SDK: every package its dist imports, at the version this repository pins. */
function dependencies(imported) {
  const root = readJson(join(ROOT, 'package.json'))
  const pinned = { ...root.devDependencies, ...root.dependencies }
  // @seam/sdk/build imports vite and reads react's exports; declarations name React's and Node's types.
  for (const extra of ['vite', 'react', '@types/react', '@types/node']) imported.add(extra)
  const deps = {}
  for (const name of [...imported].sort()) {
    if (!pinned[name]) throw new Error(`the SDK's dist imports ${name}, which Seam's package.json does not pin`)
    deps[name] = pinned[name]
  }
  return deps
}

function packedManifest(workspace, deps) {
  const entry = (name) => ({ types: `./${TYPES}/${name}.d.ts`, default: `./dist/${name}.js` })
  const { private: _private, exports: _exports, scripts, ...rest } = workspace
  return {
    ...rest,
    exports: {
      '.': entry('index'),
      './node': entry('node'),
      './client': entry('client'),
      './testing': entry('testing'),
      './version': entry('version'),
      './build': { types: `./${TYPES}/build.d.mts`, default: './dist/build.mjs' },
      './package.json': './package.json'
    },
    types: `./${TYPES}/index.d.ts`,
    files: ['dist', 'README.md', 'CHANGELOG.md', 'api.txt'],
    engines: { node: readJson(join(ROOT, 'package.json')).engines.node },
    scripts,
    dependencies: deps
  }
}

/** Takes `.pack.lock` (an atomic mkdir), waiting while another pack holds it. */
async function lock() {
  const deadline = Date.now() + LOCK_WAIT_MS
  for (;;) {
    try {
      mkdirSync(LOCK)
      return
    } catch (error) {
      if (error.code !== 'EEXIST') throw error
    }
    let age = 0
    try {
      age = Date.now() - statSync(LOCK).mtimeMs
    } catch {
      continue // released between the two calls
    }
    if (age > LOCK_STALE_MS) {
      rmSync(LOCK, { recursive: true, force: true })
      continue
    }
    if (Date.now() > deadline) throw new Error(`${LOCK} is held by another pack (for ${Math.round(age / 1000)} s); remove it if no pack is running`)
    await new Promise((resolveWait) => setTimeout(resolveWait, 250))
  }
}

async function prepack() {
  // This pack holds the lock, so a saved package.json is a pack that was killed between its prepack
  // and postpack (its lock since gone stale): put the workspace's package.json back and go on.
  if (existsSync(SAVED)) {
    console.error(`pack.mjs: a previous pack did not finish; restoring package.json from ${SAVED}`)
    renameSync(SAVED, join(HERE, 'package.json'))
  }
  const workspace = readJson(join(HERE, 'package.json'))
  rmSync(DIST, { recursive: true, force: true })
  const imported = await buildJs(readJson(join(ROOT, 'package.json')).version)
  mkdirSync(DIST, { recursive: true })
  copyFileSync(join(HERE, 'build.mjs'), join(DIST, 'build.mjs'))
  buildTypes()
  copyFileSync(join(HERE, 'package.json'), SAVED)
  writeFileSync(join(HERE, 'package.json'), JSON.stringify(packedManifest(workspace, dependencies(imported)), null, 2) + '\n')
}

function postpack() {
  if (existsSync(SAVED)) renameSync(SAVED, join(HERE, 'package.json'))
  rmSync(LOCK, { recursive: true, force: true })
}

const step = process.argv[2]
if (step === 'prepack') {
  await lock()
  try {
    await prepack()
  } catch (error) {
    postpack()
    throw error
  }
} else if (step === 'postpack') postpack()
else throw new Error('usage: node pack.mjs prepack | postpack')
