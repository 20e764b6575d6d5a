// Types for chromium.mjs (plain JavaScript so that Node runs it before anything is built).

export interface ChromiumCandidate {
  path: string
  /** Where it was found: CHROMIUM_PATH, Debian's chromium, Playwright's cache (<entry>), Google Chrome, PATH (<name>). */
  source: string
}

export interface FoundChromium extends ChromiumCandidate {
  /** The first line of its `--version`. */
  version: string
}

export interface LookupOptions {
  env?: NodeJS.ProcessEnv
  home?: string
  platform?: NodeJS.Platform
  /** Prefix of the fixed system paths (default `/`). */
  root?: string
  /** Answers the version line of a usable browser, undefined otherwise (default: probeChromium). */
  probe?: (path: string) => string | undefined
}

export type InstallPlan = { action: 'install'; argv: string[]; shown: string } | { action: 'instruct'; line: string }

export interface InstallFacts {
  uid: number | undefined
  hasAptGet: boolean
  sudoWithoutPassword: boolean
}

export declare const INSTALL_COMMAND: string
export declare function playwrightCacheDir(options?: Pick<LookupOptions, 'env' | 'home' | 'platform'>): string
export declare function chromiumCandidates(options?: Omit<LookupOptions, 'probe'>): ChromiumCandidate[]
export declare function probeChromium(path: string): string | undefined
export declare function findChromium(options?: LookupOptions): FoundChromium | { error: string } | undefined
export declare function installPlan(facts: InstallFacts): InstallPlan
export declare function headlessShellHint(found: Pick<ChromiumCandidate, 'path'>, env?: NodeJS.ProcessEnv): string | undefined
export declare function installFacts(env?: NodeJS.ProcessEnv): InstallFacts
export declare function ensureChromium(options?: { env?: NodeJS.ProcessEnv; say?: (line: string) => void }): FoundChromium | { error: string }
