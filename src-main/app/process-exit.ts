// How a Seam process ends (`seam`, web mode). `process.exit()` drops whatever stdout and stderr
// have not handed to their reader yet: on a pipe Node writes asynchronously, so a reader slower
// than Seam (`seam run --json | (sleep 8; cat)`) got 5 of 13 events, the last one cut. Every exit
// goes through here: wait until each stream has taken everything written to it, then exit.

type Output = NodeJS.WritableStream & { writable?: boolean; destroyed?: boolean }

/** Resolves once `stream` has passed on every byte written before this call (or can take none). */
export function drained(stream: Output): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed === true || stream.writable === false) return resolve()
    // Writes complete in order: the callback of an empty write runs after every earlier one.
    // An error (EPIPE: the reader went away) means nothing more can be delivered either.
    try {
      stream.write('', () => resolve())
    } catch {
      resolve()
    }
  })
}

/** Waits for stdout and stderr to drain, then exits with `code`. */
export async function exitWhenDrained(code: number, streams: Output[] = [process.stdout, process.stderr]): Promise<never> {
  process.exitCode = code
  await Promise.all(streams.map(drained))
  process.exit(code)
}

/**
 * A reader that closes the pipe early (`seam run --json | head -1`) makes further writes fail with
 * EPIPE; that is the reader's choice, not a crash of Seam: the output is dropped, the run goes on.
 */
export function ignoreClosedReaders(streams: Output[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error
    })
  }
}
