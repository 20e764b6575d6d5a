#!/usr/bin/env node
// Builds the example bundle examples/word-count with Vite's build API and packs it with npm:
//   dist/host.js    ES module for Node: zod bundled in, only node: built-ins imported
//   dist/client.js  ES module for the UI: `react`, `react/jsx-runtime` and `@seam/client` are
//                   shims reading globalThis.__seamShared (the app's own instances), no React inside
// (the SDK's bundle build, packages/sdk/build.mjs, the one `seam plugin new` bundles use too),
// then `npm pack` (scripts ignored, nothing installed, no network) into the output folder.
//
//   node scripts/build-example.mjs [--out DIR]
// builds in place (examples/word-count/dist) and packs into DIR (default out/examples). Tests use
// buildExample({ outDir }), which builds a staged copy of the bundle under outDir instead, so
// that concurrent builds never share a folder.
import { execFile } from 'node:child_process'
import { copyFile, mkdir, readFile, rm } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs, promisify } from 'node:util'
import { buildClient, buildHost } from '../packages/sdk/build.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
export const EXAMPLE_DIR = join(root, 'examples', 'word-count')
const run = promisify(execFile)

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
  await rm(dist, { recursive: true, force: true })
  await buildHost(EXAMPLE_DIR, join(EXAMPLE_DIR, 'src/host.ts'), dist)
  await buildClient(EXAMPLE_DIR, join(EXAMPLE_DIR, 'src/client.tsx'), dist)
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
