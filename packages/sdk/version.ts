// The plugin API's version: the `version` of this package. The Host checks every bundle's
// `engines.seam` range against it (src-main/app/plugin-host.ts).
import manifest from './package.json'

/**
 * The version of the plugin API. A bundle's `engines.seam` range is checked against it when the
 * bundle is installed and loaded; CHANGELOG.md lists what each version changed.
 */
export const SDK_VERSION: string = manifest.version
