// Where patch layers live, in the order they apply: the user's Seam home, the workspace's .seam/
// (only once the workspace is trusted), then an explicit --patch file.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import type { PatchLayer } from './compose'
import { ProfileError } from './profile'

export const PATCH_FILE_NAME = 'cordis.patch.yml'

export interface LayerSources {
  seamHome: string
  /** The workspace folder; its `.seam/cordis.patch.yml` counts only when `trusted`. */
  workspace?: string
  trusted: boolean
  /** `--patch FILE`; unlike the others it must exist. */
  patchFile?: string
}

/** The candidate layer files in order (whether or not they exist). */
export function layerPaths(sources: LayerSources): string[] {
  const paths = [path.resolve(sources.seamHome, PATCH_FILE_NAME)]
  if (sources.workspace && sources.trusted) paths.push(path.resolve(sources.workspace, '.seam', PATCH_FILE_NAME))
  if (sources.patchFile) paths.push(path.resolve(sources.patchFile))
  return paths
}

/** Reads the layer files that exist, in order. A missing `--patch` file is an error. */
export async function loadLayers(sources: LayerSources): Promise<PatchLayer[]> {
  const explicit = sources.patchFile ? path.resolve(sources.patchFile) : undefined
  const layers: PatchLayer[] = []
  for (const file of layerPaths(sources)) {
    let text: string
    try {
      text = await readFile(file, 'utf8')
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'ENOENT' && file !== explicit) continue
      throw new ProfileError(`${file}: cannot read patch file: ${(error as Error).message}`, file)
    }
    layers.push({ file, text })
  }
  return layers
}
