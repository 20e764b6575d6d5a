// The bundle shelf's own JSON files (the lock, the dev-bundle registry and host states): read,
// parsed and checked with zod, each problem named with its file; a missing file is no error.
import { readFile } from 'node:fs/promises'
import type { z } from 'zod'
import { formatZodError } from '../../../src-shared/validation'
import { BundleError } from './manifest'

/** `text` (the contents of `file`) parsed as JSON and checked against `schema`; BundleError naming the file otherwise. */
export function parseJsonFile<T>(schema: z.ZodType<T>, text: string, file: string): T {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (error) {
    throw new BundleError(`${file}: not JSON (${(error as Error).message})`)
  }
  const parsed = schema.safeParse(raw)
  if (!parsed.success) throw new BundleError(formatZodError(file, parsed.error))
  return parsed.data
}

/** `file` read and checked as parseJsonFile does; undefined when it does not exist. */
export async function readJsonFile<T>(schema: z.ZodType<T>, file: string): Promise<T | undefined> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  return parseJsonFile(schema, text, file)
}
