// electron-builder's configuration for Seam's installers (`npm run package`): Linux AppImage and
// .deb, macOS .dmg (hardened runtime and entitlements, ready for signing and notarizing when
// CSC_LINK / APPLE_* are set), Windows NSIS. The fuses are flipped after packing (fuses.mjs, which
// also re-signs ad hoc for macOS arm64, where an unsigned binary does not start). A test reads this
// file without building (electron-builder-config.test.ts).
import afterPack from './fuses.mjs'

// The same ID the running app gives Windows (src-main/electron/app-id.ts; a test compares them).
const APP_ID = 'dev.seam.desktop'

/**
 * Where electron-updater looks for releases: a generic feed (a folder of `latest*.yml` and the
 * installers, e.g. a GitHub release's download URL) named at packaging time. Without it the
 * package has no feed and the updater says so when turned on. Updates are off by default either
 * way: the `autoUpdate` setting turns them on (src-main/electron/updates.ts).
 */
export function publishFor(env = process.env) {
  const url = env.SEAM_UPDATE_FEED_URL
  return url ? [{ provider: 'generic', url, channel: 'latest' }] : null
}

/** @type {import('electron-builder').Configuration} */
export const config = {
  appId: APP_ID,
  productName: 'Seam',
  copyright: 'Copyright © Seam contributors',
  directories: { output: 'dist-packages', buildResources: 'packaging' },
  // What the app runs: the built main, preload and renderer (electron-vite's out/) and package.json;
  // production dependencies are added by electron-builder. Sources, tests and maps stay out.
  files: ['out/**/*', 'package.json', '!out/**/*.map', '!**/*.{test,spec}.{js,mjs,ts}'],
  asar: true,
  // Read from disk by path, not through Electron's asar layer: the tree-sitter grammars
  // (web-tree-sitter.wasm, tree-sitter-bash.wasm: the Bash command parser of the hook matcher,
  // loaded by emscripten's loader), any native addon, and the worker threads' self-contained
  // bundles (`?modulePath` imports, e.g. WebFetch's HTML-to-Markdown converter: a worker loads
  // them by path, and from a plain folder it needs no asar support in worker threads).
  asarUnpack: ['**/*.wasm', '**/*.node', 'out/main/chunks/*-worker-*.js'],
  afterPack,
  // The window icon on Linux and Windows (main.ts reads it from process.resourcesPath).
  extraResources: [{ from: 'packaging/icons/png/512x512.png', to: 'icon.png' }],
  icon: 'packaging/icons/icon.png',
  publish: publishFor(),
  linux: {
    target: ['AppImage', 'deb'],
    category: 'Development',
    icon: 'packaging/icons/png',
    executableName: 'seam',
    synopsis: 'A desktop agent harness where everything is a plugin',
    maintainer: 'Seam contributors'
  },
  deb: { depends: ['libnss3', 'libatk-bridge2.0-0', 'libgtk-3-0', 'libgbm1', 'libasound2 | libasound2t64'] },
  mac: {
    target: ['dmg'],
    category: 'public.app-category.developer-tools',
    icon: 'packaging/icons/icon.png',
    hardenedRuntime: true,
    gatekeeperAssess: false,
    entitlements: 'packaging/entitlements.mac.plist',
    entitlementsInherit: 'packaging/entitlements.mac.plist'
  },
  dmg: { sign: false },
  win: {
    target: ['nsis'],
    icon: 'packaging/icons/icon.ico'
  },
  nsis: {
    oneClick: false,
    perMachine: false,
    allowToChangeInstallationDirectory: true,
    installerIcon: 'packaging/icons/icon.ico',
    uninstallerIcon: 'packaging/icons/icon.ico',
    shortcutName: 'Seam'
  }
}

export default config
