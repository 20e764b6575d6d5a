// Types for build-example.mjs (plain JavaScript so that Node runs it directly).

/** The example bundle's source folder (examples/word-count). */
export declare const EXAMPLE_DIR: string

export interface BuiltExample {
  /** The `npm pack` archive, inside outDir. */
  tgz: string
  /** The built bundle folder: a staged copy under outDir, or examples/word-count with `inPlace`. */
  dir: string
}

export declare function buildExample(options: { outDir: string; inPlace?: boolean }): Promise<BuiltExample>
