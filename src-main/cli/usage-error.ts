/** A mistake in how `seam` was called: printed with the usage hint, exit code 2. */
export class UsageError extends Error {
  /** Read by bin/seam.mjs, which cannot rely on class names surviving a build. */
  readonly exitCode = 2
}
