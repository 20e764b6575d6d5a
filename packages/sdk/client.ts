// `@seam/sdk/client`: the types of a bundle's client part. At run time a client entry imports
// `@seam/client`, which the app shares with bundles (globalThis.__seamShared); the types here are
// that module's own.
export type * from '../../src-renderer/plugins/sdk'
export type { SessionEvent, SessionEventOf, SessionEventType } from '../../src-shared/session/events'
