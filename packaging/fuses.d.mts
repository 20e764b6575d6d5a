// Types for fuses.mjs.
import type { FuseV1Config } from '@electron/fuses'

/** What electron-builder's afterPack hook receives that the fuses step reads. */
export interface PackContext {
  appOutDir: string
  electronPlatformName: string
  /** electron-builder's Arch enum (arm64 = 3, universal = 4). */
  arch: number
  packager: { appInfo: { productFilename: string }; executableName?: string }
}

export declare const SEAM_FUSES: FuseV1Config & { strictlyRequireAllFuses: true }
export declare function flipSeamFuses(executable: string, options?: { resetAdHocDarwinSignature?: boolean }): Promise<number>
export declare function needsAdHocResign(context: PackContext): boolean
export declare function packagedExecutable(context: PackContext): string
export default function afterPack(context: PackContext): Promise<void>
