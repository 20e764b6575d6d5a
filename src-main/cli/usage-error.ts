/** A mistake in how `seam` was called: printed with the usage hint, exit code 2. */
export class UsageError extends Error {}
