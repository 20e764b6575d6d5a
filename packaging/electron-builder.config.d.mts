// Types for electron-builder.config.mjs.
import type { Configuration, GenericServerOptions } from 'electron-builder'

export declare function publishFor(env?: Readonly<Record<string, string | undefined>>): GenericServerOptions[] | null
export declare const config: Configuration
export default config
