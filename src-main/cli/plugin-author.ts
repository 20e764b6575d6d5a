// The author's commands, which need no running Host:
//   seam plugin new NAME [--host] [--client] [--dir DIR]   scaffold a bundle (both parts when no flag)
//   seam plugin pack [DIR] [--out DIR]                      check the manifest, then npm pack
//   seam plugin sdk [DIR]                                   refresh the bundle's vendored @seam/sdk (plugin-sdk.ts)
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { parseArgs, promisify } from 'node:util'
import { z } from 'zod'
import { SDK_VERSION } from '@seam/sdk/version'
import { readManifest } from '../plugins/bundles/manifest'
import { bundleFiles, type ScaffoldOptions } from './plugin-templates'
import { sdkTarball, seamRoot, vendorSdk } from './plugin-sdk'
import { bundleLockfileFor } from './plugin-lockfile'
import { writeFileAtomic } from '../app/atomic-file'
import { resolveSeamHome } from '../app/paths'
import { UsageError } from './usage-error'

const run = promisify(execFile)

/** npm's rules for a package name (lower case, URL-safe, optionally scoped). */
export const BundleNameSchema = z
  .string()
  .max(214, 'a bundle name has at most 214 characters')
  .regex(/^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/, 'a bundle name is an npm package name: lower-case letters, digits, ".", "_", "~", "-", optionally @scope/')

type Io = { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream }

/** Writes a new bundle's files into `dir`, which must not exist or be empty. Returns the files written. */
export async function scaffoldBundle(dir: string, options: ScaffoldOptions): Promise<string[]> {
  if (existsSync(dir) && (await readdir(dir)).length > 0) throw new UsageError(`${dir} already exists and is not empty`)
  const files = bundleFiles(options)
  for (const [rel, text] of Object.entries(files)) {
    const file = path.join(dir, rel)
    await mkdir(path.dirname(file), { recursive: true })
    await writeFile(file, text, { flag: 'wx' })
  }
  return Object.keys(files)
}

/** Checks the bundle in `dir` as `seam plugin install` will, then packs it into `outDir`. Returns the .tgz. */
export async function packBundle(dir: string, outDir: string): Promise<string> {
  const manifest = await readManifest(dir, SDK_VERSION)
  await mkdir(outDir, { recursive: true })
  const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--offline', '--pack-destination', outDir], {
    cwd: dir,
    env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' }
  })
  const [info] = JSON.parse(stdout) as Array<{ filename?: string; files?: Array<{ path: string }> }>
  if (!info?.filename) throw new Error(`npm pack printed no file name: ${stdout}`)
  // What install will look for must be in the tarball (package.json "files" can leave it out).
  const packed = new Set((info.files ?? []).map((f) => f.path))
  for (const [field, entry] of [['seam.host', manifest.host], ['seam.client', manifest.client]] as const) {
    if (entry !== undefined && !packed.has(entry)) throw new Error(`${field} (${entry}) is not in the packed files: check "files" in package.json`)
  }
  return path.join(outDir, info.filename)
}

export async function authorCommand(args: string[], io: Io): Promise<number> {
  const [action, ...rest] = args
  if (action === 'new') {
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      strict: true,
      options: { host: { type: 'boolean', default: false }, client: { type: 'boolean', default: false }, dir: { type: 'string' } }
    })
    if (positionals.length !== 1) throw new UsageError('seam plugin new NAME [--host] [--client] [--dir DIR]')
    const name = BundleNameSchema.safeParse(positionals[0])
    if (!name.success) throw new UsageError(`NAME: ${name.error.issues[0].message} (got ${JSON.stringify(positionals[0])})`)
    const both = !values.host && !values.client
    const dir = path.resolve(values.dir ?? name.data.split('/').pop()!)
    const files = await scaffoldBundle(dir, { name: name.data, host: both || values.host, client: both || values.client, sdkVersion: SDK_VERSION })
    // @seam/sdk is not on the public registry: the running Seam's SDK goes into the bundle.
    const tarball = await sdkTarball(resolveSeamHome())
    const spec = vendorSdk(dir, tarball)
    files.push(spec.slice('file:'.length))
    // The versions Seam itself installed: `npm install` finds them all in npm's cache.
    const lock = await bundleLockfileFor(seamRoot(), dir, { spec, file: path.join(dir, spec.slice('file:'.length)) })
    if (lock.ok) {
      writeFileAtomic(path.join(dir, 'package-lock.json'), lock.text, 0o644)
      files.push('package-lock.json')
    } else io.stderr.write(`seam plugin new: no package-lock.json (${lock.reason}); npm install will resolve every package from the registry\n`)
    io.stdout.write(`created ${dir}\n${files.map((f) => `  ${f}\n`).join('')}next: cd ${path.relative(process.cwd(), dir) || '.'} && npm install && npm run build && npm test && seam plugin pack\n`)
    return 0
  }
  if (action === 'sdk') {
    const { positionals } = parseArgs({ args: rest, allowPositionals: true, strict: true, options: {} })
    if (positionals.length > 1) throw new UsageError('seam plugin sdk [DIR]')
    const dir = path.resolve(positionals[0] ?? '.')
    if (!existsSync(path.join(dir, 'package.json'))) throw new UsageError(`${dir} has no package.json: run seam plugin sdk in a bundle's folder`)
    const spec = vendorSdk(dir, await sdkTarball(resolveSeamHome(), { fresh: true }))
    io.stdout.write(`@seam/sdk ${SDK_VERSION}: ${spec} in ${path.join(dir, 'package.json')}\nnext: npm install\n`)
    return 0
  }
  if (action === 'pack') {
    const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, strict: true, options: { out: { type: 'string' } } })
    if (positionals.length > 1) throw new UsageError('seam plugin pack [DIR] [--out DIR]')
    const dir = path.resolve(positionals[0] ?? '.')
    const tgz = await packBundle(dir, path.resolve(values.out ?? dir))
    io.stdout.write(`${tgz}\n`)
    return 0
  }
  throw new UsageError('seam plugin new NAME [--host] [--client] [--dir DIR] | pack [DIR] [--out DIR] | sdk [DIR]')
}
