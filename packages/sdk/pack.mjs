// Packs the SDK into an npm tarball:
//
//   node packages/sdk/pack.mjs [--pack-destination DIR]     (npm run pack:sdk -- --pack-destination DIR)
//
// prints the tarball's path (DIR defaults to the current folder). Publish that tarball with
// `npm publish <tarball>`.
//
// In this repository the entries are TypeScript sources re-exporting the host's own definitions
// (../../src-shared, ../../src-main), resolved through the workspace link. A tarball cannot
// reach outside its folder, so the pack builds each entry with Vite (the host code it re-exports
// bundled in; npm packages stay imports, listed as dependencies with the versions this repository
// pins), emits declarations with tsc (the same folder layout, so every type is still the host's
// own definition, now inside the package), writes the package.json the tarball carries, and has
// npm pack that folder. All of it happens in a staging folder of its own under the system's temp
// folder: this one is never written, so tests, the dev server and an editor resolving
// `@seam/sdk` from the workspace meanwhile see its sources and package.json as they are, and two
// packs at once do not meet. (`npm pack -w packages/sdk` would pack the sources as they are; the
// workspace's prepack refuses it and names this command.) Nothing is copied by hand and nothing
// built is committed.
import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { build } from 'vite'
import { modulePathForBuild } from '../../scripts/vite-module-path.mjs'

const HERE = import.meta.dirname
const ROOT = resolve(HERE, '../..')
/** The JS entries (client.ts is types only: its module is empty). */
const ENTRIES = ['index', 'node', 'client', 'testing', 'version']
const TYPES = 'dist/types/packages/sdk'
/** What the tarball carries besides dist/ (the manifest's `files`). */
const DOCS = ['README.md', 'CHANGELOG.md', 'api.txt']

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

async function buildJs(seamVersion, dist) {
  const result = await build({
    configFile: false,
    envDir: false,
    publicDir: false,
    root: HERE,
    logLevel: 'warn',
    mode: 'production',
    plugins: [seamVersionPlugin(seamVersion), modulePathForBuild()],
    build: {
      outDir: dist,
      emptyOutDir: false,
      target: 'node20',
      minify: false,
      sourcemap: true,
      ssr: true,
      // The web tools' Markdown worker is emitted as its own file (modulePathForBuild).
      ssrEmitAssets: true,
      lib: { entry: Object.fromEntries(ENTRIES.map((e) => [e, join(HERE, `${e}.ts`)])), formats: ['es'], fileName: (_format, name) => `${name}.js` },
      // @seam/sdk itself (the host code imports @seam/sdk/version) resolves to these sources, bundled.
      rolldownOptions: {
        external: (id) => nodeBuiltins.has(id) || (isBare(id) && packageOf(id) !== '@seam/sdk'),
        // The maps name their sources as seen from packages/sdk/dist, not from the staging folder,
        // so the tarball is the same whichever folder it was built in.
        output: { sourcemapPathTransform: (source, map) => relative(join(HERE, 'dist', relative(dist, dirname(map))), resolve(dirname(map), source)) }
      }
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
function buildTypes(dist) {
  const config = join(HERE, 'tsconfig.pack.json')
  execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript-native/bin/tsc'), '-p', config, '--outDir', join(dist, 'types')], { stdio: ['ignore', 2, 2], cwd: ROOT })
}

/** The dependencies of the packed SDK: every package its dist imports, at the version this repository pins. */
function dependencies(imported, root) {
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

function packedManifest(workspace, deps, root) {
  const entry = (name) => ({ types: `./${TYPES}/${name}.d.ts`, default: `./dist/${name}.js` })
  const { private: _private, exports: _exports, scripts: _scripts, ...rest } = workspace
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
    files: ['dist', ...DOCS],
    engines: { node: root.engines.node },
    dependencies: deps
  }
}

/** Builds the package into a staging folder, has npm pack it into `destination`; the tarball's path. */
async function pack(destination) {
  const staging = mkdtempSync(join(tmpdir(), 'seam-sdk-pack-'))
  try {
    const dist = join(staging, 'dist')
    const root = readJson(join(ROOT, 'package.json'))
    const imported = await buildJs(root.version, dist)
    copyFileSync(join(HERE, 'build.mjs'), join(dist, 'build.mjs'))
    buildTypes(dist)
    for (const doc of DOCS) copyFileSync(join(HERE, doc), join(staging, doc))
    const manifest = packedManifest(readJson(join(HERE, 'package.json')), dependencies(imported, root), root)
    writeFileSync(join(staging, 'package.json'), JSON.stringify(manifest, null, 2) + '\n')
    mkdirSync(destination, { recursive: true })
    // npm's progress goes to stderr; stdout is the JSON report naming the file.
    const report = execFileSync('npm', ['pack', staging, '--json', '--ignore-scripts', '--pack-destination', destination], {
      cwd: staging,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' },
      shell: process.platform === 'win32'
    })
    const [{ filename }] = JSON.parse(report)
    return join(destination, filename)
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
}

const { values, positionals } = parseArgs({ options: { 'pack-destination': { type: 'string' } }, allowPositionals: true })
if (positionals[0] === 'prepack') {
  // `npm pack -w packages/sdk` / `npm publish -w packages/sdk`: they would ship the TypeScript sources.
  console.error('pack.mjs: the SDK is packed by `npm run pack:sdk -- --pack-destination DIR` (node packages/sdk/pack.mjs), which builds it in a staging folder; publish the tarball it prints with `npm publish <tarball>`')
  process.exitCode = 1
} else if (positionals.length > 0) {
  throw new Error(`pack.mjs: unexpected argument "${positionals[0]}"; usage: node packages/sdk/pack.mjs [--pack-destination DIR]`)
} else {
  const destination = resolve(values['pack-destination'] ?? '.')
  // The build names modules relative to the working folder (in its region comments): this one, as
  // when npm runs a package's scripts.
  process.chdir(HERE)
  console.log(await pack(destination))
}
