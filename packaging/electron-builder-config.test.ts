// The installers' configuration (issue 30), checked without building anything: electron-builder's
// own schema accepts it, the files the app runs and loads from disk are in the package (and
// unpacked where they must be read by path), the fuses hook runs after packing, the icons exist
// at the sizes each platform wants, and packaging stops early where Electron cannot be fetched.
import { existsSync, readdirSync } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import picomatch from 'picomatch'
import { describe, expect, it } from 'vitest'
import { APP_ID, PRODUCT_NAME } from '../src-main/electron/app-id'
import { config, publishFor } from './electron-builder.config.mjs'
import afterPack from './fuses.mjs'

const root = dirname(dirname(fileURLToPath(import.meta.url)))
const require = createRequire(join(root, 'package.json'))
const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
  main: string
  scripts: Record<string, string>
  dependencies: Record<string, string>
  devDependencies: Record<string, string>
}
const list = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : value === undefined || value === null ? [] : [String(value)])

/** Whether electron-builder's `files` patterns (globs, `!` excludes, in order) keep `file`. */
function included(patterns: string[], file: string): boolean {
  let kept = false
  for (const pattern of patterns) {
    const negated = pattern.startsWith('!')
    if (picomatch(negated ? pattern.slice(1) : pattern, { dot: true })(file)) kept = !negated
  }
  return kept
}

/** Width and height from a PNG's IHDR. */
async function pngSize(file: string): Promise<[number, number]> {
  const bytes = await readFile(file)
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG')
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)]
}

describe('electron-builder configuration (issue 30: installers)', () => {
  it("passes electron-builder's own schema, and an unknown key would not", async () => {
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as { validateConfiguration(c: unknown, l: unknown): Promise<void> }
    const { DebugLogger } = require('builder-util/out/DebugLogger') as { DebugLogger: new (enabled: boolean) => unknown }
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined()
    await expect(validateConfiguration({ ...config, asarUnpak: [] }, new DebugLogger(false))).rejects.toThrow(/asarUnpak/)
  })

  it('names the app as the running app does (Windows notifications need the same AppUserModelID)', () => {
    expect(config.appId).toBe(APP_ID)
    expect(config.productName).toBe(PRODUCT_NAME)
  })

  it('targets AppImage and deb, a hardened-runtime dmg with entitlements, and NSIS', async () => {
    expect(list(config.linux?.target)).toEqual(['AppImage', 'deb'])
    expect(list(config.mac?.target)).toEqual(['dmg'])
    expect(config.mac?.hardenedRuntime).toBe(true)
    const entitlements = await readFile(join(root, config.mac!.entitlements!), 'utf8')
    expect(entitlements).toContain('com.apple.security.cs.allow-jit')
    expect(config.mac?.entitlementsInherit).toBe(config.mac?.entitlements)
    expect(list(config.win?.target)).toEqual(['nsis'])
  })

  it('packs the built app (main entry, preload, renderer) and leaves sources, tests and maps out', () => {
    const files = list(config.files)
    for (const file of [manifest.main.replace(/^\.\//, ''), 'out/preload/index.cjs', 'out/renderer/index.html', 'out/main/chunks/host-1.js', 'package.json']) {
      expect(included(files, file), file).toBe(true)
    }
    for (const file of ['out/main/index.js.map', 'src-main/electron/main.ts', 'e2e/app.spec.ts', 'packaging/fuses.test.ts']) {
      expect(included(files, file), file).toBe(false)
    }
    expect(config.asar).toBe(true)
  })

  it('unpacks from asar the files the app reads by path: the tree-sitter grammars and native addons', () => {
    const unpack = list(config.asarUnpack)
    const grammarFiles = [require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'), join(dirname(require.resolve('web-tree-sitter')), 'web-tree-sitter.wasm')]
    for (const file of grammarFiles) {
      const inPackage = relative(root, file).split('\\').join('/')
      expect(inPackage.startsWith('node_modules/'), inPackage).toBe(true)
      expect(unpack.some((pattern) => picomatch(pattern, { dot: true })(inPackage)), inPackage).toBe(true)
    }
    expect(unpack.some((pattern) => picomatch(pattern)('node_modules/some-addon/build/Release/addon.node'))).toBe(true)
    // The grammar packages are runtime dependencies, so electron-builder copies them in.
    expect(manifest.dependencies['tree-sitter-bash']).toBeDefined()
    expect(manifest.dependencies['web-tree-sitter']).toBeDefined()
  })

  it("unpacks the worker threads' bundles, which load by path (WebFetch's converter), and packs them", async () => {
    const unpack = list(config.asarUnpack)
    const built = existsSync(join(root, 'out/main/chunks')) ? readdirSync(join(root, 'out/main/chunks')).filter((f) => f.startsWith('markdown-worker-')) : []
    for (const file of ['out/main/chunks/markdown-worker-da4df07c.js', ...built.map((f) => `out/main/chunks/${f}`)]) {
      expect(unpack.some((pattern) => picomatch(pattern, { dot: true })(file)), file).toBe(true)
      expect(included(list(config.files), file), file).toBe(true)
    }
    // Only the workers: the main chunks stay in the archive.
    expect(unpack.some((pattern) => picomatch(pattern, { dot: true })('out/main/chunks/host-1.js'))).toBe(false)
  })

  it('flips the fuses after packing (fuses.mjs as the afterPack hook)', () => {
    expect(config.afterPack).toBe(afterPack)
  })

  it('has every icon it names, at the sizes each platform wants', async () => {
    const [width, height] = await pngSize(join(root, String(config.mac!.icon)))
    expect([width, height]).toEqual([1024, 1024])
    expect(await pngSize(join(root, String(config.icon)))).toEqual([1024, 1024])
    const linuxDir = join(root, String(config.linux!.icon))
    for (const size of [16, 32, 48, 64, 128, 256, 512]) expect(await pngSize(join(linuxDir, `${size}x${size}.png`))).toEqual([size, size])
    for (const ico of [config.win!.icon, config.nsis!.installerIcon, config.nsis!.uninstallerIcon]) {
      const bytes = await readFile(join(root, String(ico)))
      expect(bytes.readUInt16LE(2), String(ico)).toBe(1) // an icon resource
      const count = bytes.readUInt16LE(4)
      const sizes = Array.from({ length: count }, (_, i) => bytes.readUInt8(6 + 16 * i) || 256)
      expect(sizes).toContain(256) // Windows' largest, for the installer and Explorer
      expect(sizes).toContain(16)
    }
    expect((await stat(join(root, 'packaging/icons/seam.svg'))).isFile()).toBe(true)
    // The running window's icon (main.ts: <resources>/icon.png).
    expect(config.extraResources).toEqual([{ from: 'packaging/icons/png/512x512.png', to: 'icon.png' }])
    expect(await pngSize(join(root, 'packaging/icons/png/512x512.png'))).toEqual([512, 512])
  })

  it('stops before building where Electron cannot be fetched, with the message npm start gives', () => {
    expect(manifest.scripts.prepackage).toBe(manifest.scripts.prestart)
    expect(manifest.scripts.prestart).toBe('node scripts/ensure-electron.mjs')
    expect(manifest.scripts.package).toContain('electron-builder --config packaging/electron-builder.config.mjs --publish never')
    // electron-builder is a build tool: not in the app, and nothing of it runs at install.
    expect(manifest.devDependencies['electron-builder']).toMatch(/^\d+\.\d+\.\d+$/)
    expect(manifest.dependencies['electron-builder']).toBeUndefined()
  })

  it('has an update feed only when one is named at packaging time; the updater ships with the app', () => {
    expect(publishFor({})).toBeNull()
    expect(publishFor({ SEAM_UPDATE_FEED_URL: 'https://releases.example/seam' })).toEqual([{ provider: 'generic', url: 'https://releases.example/seam', channel: 'latest' }])
    expect(manifest.dependencies['electron-updater']).toMatch(/^\d+\.\d+\.\d+$/)
  })
})
