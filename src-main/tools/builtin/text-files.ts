// Facts about files on disk the file tools share: binary detection, friendly fs error texts.
import fs from 'node:fs/promises'

const SNIFF_BYTES = 8192

/** A file is treated as binary when its first 8 KiB contain a NUL byte. */
export async function looksBinary(filePath: string): Promise<boolean> {
  const handle = await fs.open(filePath, 'r')
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES)
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0)
    return buffer.subarray(0, bytesRead).includes(0)
  } finally {
    await handle.close()
  }
}

export function bufferLooksBinary(buffer: Buffer): boolean {
  return buffer.subarray(0, SNIFF_BYTES).includes(0)
}

export function errnoCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined
}

/** One sentence for a failed fs call on `filePath`, naming the path and the cause. */
export function describeFsError(error: unknown, filePath: string): string {
  switch (errnoCode(error)) {
    case 'ENOENT':
      return `File does not exist: ${filePath}`
    case 'EACCES':
    case 'EPERM':
      return `Permission denied: ${filePath}`
    case 'EISDIR':
      return `${filePath} is a directory, not a file`
    case 'ENOTDIR':
      return `A parent of ${filePath} is not a directory`
    case 'EROFS':
      return `${filePath} is on a read-only file system`
    case 'ENOSPC':
      return `No space left on the device holding ${filePath}`
    default:
      return `Cannot access ${filePath}: ${error instanceof Error ? error.message : String(error)}`
  }
}

/** Strips a leading UTF-8 byte order mark. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
}
