// The parts of npm's own libraries that the registry client uses (they ship no types).
declare module '@npmcli/config' {
  interface ConfigOptions {
    definitions: unknown
    shorthands: unknown
    flatten: unknown
    nerfDarts?: readonly string[]
    /** npm's install folder; its `npmrc` is the "builtin" layer. */
    npmPath: string
    env?: Record<string, string | undefined>
    argv?: string[]
    cwd?: string
    execPath?: string
    platform?: string
    warn?: boolean
  }
  export default class Config {
    constructor(options: ConfigOptions)
    load(): Promise<void>
    validate(where?: string): boolean
    get(key: string, where?: string): unknown
    readonly flat: Record<string, unknown>
    readonly localPrefix: string
  }
}

declare module '@npmcli/config/lib/definitions/index.js' {
  const definitions: { definitions: unknown; shorthands: unknown; flatten: unknown; nerfDarts: readonly string[] }
  export default definitions
}

declare module 'npm-registry-fetch' {
  export interface FetchOptions extends Record<string, unknown> {
    headers?: Record<string, string>
    /** A package spec: picks the scope's registry (`@scope:registry`). */
    spec?: string
    registry?: string
    signal?: AbortSignal
  }
  export interface FetchResponse {
    status: number
    headers: { get(name: string): string | null }
    url: string
    json(): Promise<unknown>
    buffer(): Promise<Buffer>
    body: NodeJS.ReadableStream
  }
  interface RegistryFetch {
    (uri: string, options?: FetchOptions): Promise<FetchResponse>
    json(uri: string, options?: FetchOptions): Promise<unknown>
    pickRegistry(spec: string, options?: Record<string, unknown>): string
  }
  const fetch: RegistryFetch
  export default fetch
}

declare module 'npm-package-arg' {
  export interface PackageArg {
    type: 'tag' | 'version' | 'range' | 'file' | 'directory' | 'git' | 'remote' | 'alias'
    name: string | null
    scope: string | null
    escapedName: string | null
    rawSpec: string
    fetchSpec: string | null
    raw: string
  }
  export default function npa(spec: string, where?: string): PackageArg
}
