// The plugin SDK a new bundle builds against, taken from the running Seam: `@seam/sdk` is not on
// the public npm registry, so `seam plugin new` puts the SDK's npm tarball in the bundle
// (`vendor/seam-sdk-<version>.tgz`) and depends on it as `file:vendor/…`: `npm install` then needs
// the registry (or npm's cache) only for the SDK's own pinned dependencies. `seam plugin sdk [DIR]`
// refreshes that copy to the running Seam's SDK (after a Seam update).
//
// Where the tarball comes from: one shipped beside Seam (`packages/sdk/seam-sdk-<version>.tgz`), one
// packed earlier into `<Seam home>/sdk/`, or, in a checkout of Seam, packed now by
// packages/sdk/pack.mjs (in a staging folder: the checkout's packages/sdk is never written).
import { execFile } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { SDK_VERSION } from '@seam/sdk/version'
import { writeFileAtomic } from '../app/atomic-file'

const run = promisify(execFile)

export const SDK_PACKAGE = '@seam/sdk'
export const VENDOR_DIR = 'vendor'

export function sdkTarballName(version = SDK_VERSION): string {
  return `seam-sdk-${version}.tgz`
}

/** The folder of Seam's own package.json (the build moves files: walk up until it is found). */
export function seamRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url))
  for (;;) {
    try {
      if ((JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string }).name === 'seam') return dir
    } catch {
      // not here: keep walking up
    }
    const parent = path.dirname(dir)
    if (parent === dir) throw new Error(`cannot find Seam's package.json above ${fileURLToPath(import.meta.url)}`)
    dir = parent
  }
}

/**
 * The running Seam's SDK tarball: shipped, cached in Seam home, or packed now from the checkout
 * (`fresh` packs again even when a cached one exists: a checkout's SDK changes between versions).
 */
export async function sdkTarball(seamHome: string, options: { fresh?: boolean } = {}): Promise<string> {
  const name = sdkTarballName()
  const root = seamRoot()
  const shipped = path.join(root, 'packages', 'sdk', name)
  if (existsSync(shipped) && !existsSync(path.join(root, 'packages', 'sdk', 'pack.mjs'))) return shipped
  const cacheDir = path.join(seamHome, 'sdk')
  const cached = path.join(cacheDir, name)
  if (existsSync(cached) && !options.fresh) return cached
  if (!existsSync(path.join(root, 'packages', 'sdk', 'pack.mjs'))) {
    throw new Error(`this Seam has no packed plugin SDK (${shipped} is missing) and is not a checkout that can pack one`)
  }
  mkdirSync(cacheDir, { recursive: true })
  const staging = path.join(cacheDir, `.pack-${process.pid}`)
  rmSync(staging, { recursive: true, force: true })
  mkdirSync(staging)
  try {
    await run(process.execPath, [path.join(root, 'packages', 'sdk', 'pack.mjs'), '--pack-destination', staging], {
      cwd: root,
      env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' },
      maxBuffer: 64 * 1024 * 1024
    })
    const packed = readdirSync(staging).find((file) => file.endsWith('.tgz'))
    if (packed === undefined) throw new Error('packages/sdk/pack.mjs wrote no tarball')
    // The staging folder is beside the cache: one rename replaces the cached tarball whole.
    renameSync(path.join(staging, packed), cached)
    return cached
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
}

/**
 * Puts the SDK tarball into `bundleDir/vendor/` (removing older ones) and points the bundle's
 * `@seam/sdk` dependency at it. Returns the dependency spec written.
 */
export function vendorSdk(bundleDir: string, tarball: string): string {
  const vendor = path.join(bundleDir, VENDOR_DIR)
  mkdirSync(vendor, { recursive: true })
  for (const file of readdirSync(vendor)) if (/^seam-sdk-.*\.tgz$/.test(file)) rmSync(path.join(vendor, file))
  copyFileSync(tarball, path.join(vendor, path.basename(tarball)))
  const spec = `file:${VENDOR_DIR}/${path.basename(tarball)}`
  const manifestFile = path.join(bundleDir, 'package.json')
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { devDependencies?: Record<string, string>; dependencies?: Record<string, string> }
  const field = manifest.dependencies?.[SDK_PACKAGE] !== undefined ? 'dependencies' : 'devDependencies'
  manifest[field] = { ...manifest[field], [SDK_PACKAGE]: spec }
  writeFileAtomic(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`, 0o644)
  return spec
}
