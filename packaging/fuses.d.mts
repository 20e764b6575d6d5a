// Types for fuses.mjs.
import type { FuseV1Config } from '@electron/fuses'

export declare const SEAM_FUSES: FuseV1Config & { strictlyRequireAllFuses: true }
export declare function flipSeamFuses(executable: string): Promise<number>
export default function afterPack(context: {
  appOutDir: string
  electronPlatformName: string
  packager: { appInfo: { productFilename: string }; executableName?: string }
}): Promise<void>
