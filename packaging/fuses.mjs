// The Electron fuses of a packaged Seam: switches compiled into the Electron binary that no
// environment variable or argument can turn back on. Run on the packaged app's executable after
// packing (`node packaging/fuses.mjs <path to the packaged Seam executable or Seam.app>`), or
// name this file as electron-builder's `afterPack` hook: its default export takes that context.
import { existsSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { flipFuses, FuseV1Options, FuseVersion } from '@electron/fuses'

/** Every fuse set explicitly: a new fuse in a later Electron fails the flip until it is decided here. */
export const SEAM_FUSES = {
  version: FuseVersion.V1,
  strictlyRequireAllFuses: true,
  // The binary cannot be started as a plain Node (ELECTRON_RUN_AS_NODE) to run arbitrary code with the app's identity.
  [FuseV1Options.RunAsNode]: false,
  // Cookies and local storage on disk are encrypted with the OS keychain.
  [FuseV1Options.EnableCookieEncryption]: true,
  // NODE_OPTIONS (e.g. --require of a foreign script) is ignored.
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
  // --inspect / --inspect-brk cannot attach a debugger to the main process.
  [FuseV1Options.EnableNodeCliInspectArguments]: false,
  // app.asar is checked against the hash embedded at packing: a changed main.js does not load.
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
  // Only app.asar is loaded, never a loose app/ folder next to it.
  [FuseV1Options.OnlyLoadAppFromAsar]: true,
  [FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]: false,
  // The renderer is served from seam://app; file:// gets no extra privileges.
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
  [FuseV1Options.WasmTrapHandlers]: true
}

/** Flips SEAM_FUSES in the Electron binary at `executable` (a macOS .app bundle works too). */
export function flipSeamFuses(executable, options = {}) {
  return flipFuses(executable, { ...SEAM_FUSES, resetAdHocDarwinSignature: options.resetAdHocDarwinSignature === true })
}

// electron-builder's Arch enum (builder-util): arm64 = 3, universal = 4 (it holds an arm64 slice).
const ARCHES_WITH_ARM64 = new Set([3, 4])

/**
 * Flipping fuses changes the binary, which breaks its signature; on Apple silicon a binary
 * without a valid signature is killed at start, so the app is re-signed ad hoc (a real identity,
 * when configured, signs it again after this hook).
 */
export function needsAdHocResign(context) {
  return context.electronPlatformName === 'darwin' && ARCHES_WITH_ARM64.has(context.arch)
}

/** The packaged executable electron-builder left in `appOutDir` for this platform. */
export function packagedExecutable(context) {
  const name = context.packager.appInfo.productFilename
  if (context.electronPlatformName === 'darwin') return path.join(context.appOutDir, `${name}.app`)
  if (context.electronPlatformName === 'win32') return path.join(context.appOutDir, `${name}.exe`)
  return path.join(context.appOutDir, context.packager.executableName ?? name)
}

/** electron-builder's afterPack hook: the fuses of the packaged executable in `appOutDir`. */
export default async function afterPack(context) {
  const executable = packagedExecutable(context)
  if (!existsSync(executable)) throw new Error(`fuses: no packaged executable at ${executable}`)
  await flipSeamFuses(executable, { resetAdHocDarwinSignature: needsAdHocResign(context) })
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const target = process.argv[2]
  if (!target) {
    console.error('usage: node packaging/fuses.mjs <packaged Seam executable or Seam.app>')
    process.exit(2)
  }
  flipSeamFuses(path.resolve(target), { resetAdHocDarwinSignature: process.platform === 'darwin' && process.arch === 'arm64' }).then(
    () => console.log(`fuses set in ${target}`),
    (error) => {
      console.error(`fuses: ${error instanceof Error ? error.message : String(error)}`)
      process.exit(1)
    }
  )
}
