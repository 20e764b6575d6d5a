// Plugin loading in the host: profiles and patch layers, applying them to the kernel, and
// installed bundles.
export { composeProfile, dumpProfile, BASE_PROFILE, type PatchLayer } from './compose'
export { loadLayers, layerPaths, PATCH_FILE_NAME, type LayerSources } from './layers'
export { ProfileLoader, type EntryState, type EntryStatus, type ReloadSummary } from './loader'
export { parsePatch, type PatchAction, type PatchRow } from './patch'
export { ProfileError, type CatalogEntry, type ComposedEntry, type PluginCatalog, type ProfileEntry } from './profile'
export { watchPatchFiles, watchProfile, type PatchWatchOptions, type ProfileWatchOptions, type StopWatching } from './watch'
export { installBundle, type InstallOptions, type InstallResult } from './bundles/install'
export { loadBundleHost } from './bundles/host-entry'
export { bundleDir, lockPath, readLock, type LockEntry } from './bundles/lockfile'
export { BundleError, readManifest, type BundleManifest } from './bundles/manifest'
export { bundleCatalogKey, listBundles, loadBundleCatalog, removeBundle, setEnabled, type BundleCatalog, type InstalledBundle } from './bundles/registry'
