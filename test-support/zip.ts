// Zip files for tests, made with yazl (the writing half of the yauzl Seam reads them with), so no
// test depends on a `zip` program the machine may not have. Like `zip -ry`: folders recursively,
// files with their mode, symlinks stored as links (their target as content), and empty files
// stored rather than deflated (a zlib stream each: 20,001 of them took 26 s of CPU).
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { join } from 'node:path'
import { ZipFile } from 'yazl'

/** An entry made in memory: a folder when its name ends with `/`, else an empty or given file. */
export interface MadeEntry {
  name: string
  data?: Buffer
}

/** A zip of `entries` (paths relative to `folder`, files or folders), then `made`, as a buffer. */
export async function zipOf(folder: string, entries: string[], made: MadeEntry[] = []): Promise<Buffer> {
  const zip = new ZipFile()
  const addFile = (data: Buffer, name: string, mode?: number): void =>
    zip.addBuffer(data, name, { ...(mode === undefined ? {} : { mode }), compress: data.length > 0 })
  const add = (name: string): void => {
    const path = join(folder, name)
    const stat = lstatSync(path)
    if (stat.isSymbolicLink()) zip.addBuffer(Buffer.from(readlinkSync(path)), name, { mode: 0o120777 })
    else if (stat.isDirectory()) {
      zip.addEmptyDirectory(name)
      for (const child of readdirSync(path).sort()) add(`${name}/${child}`)
    } else addFile(readFileSync(path), name, stat.mode)
  }
  for (const entry of entries) add(entry)
  for (const entry of made) {
    if (entry.name.endsWith('/')) zip.addEmptyDirectory(entry.name)
    else addFile(entry.data ?? Buffer.alloc(0), entry.name)
  }
  zip.end()
  const chunks: Buffer[] = []
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}
