// Test fixtures for plugin bundles: bundle folders with a package.json and entry files, and
// .tgz archives shaped like `npm pack` output, including deliberately malicious ones (entries
// with `..`, absolute paths, links pointing outside) that a real packer would refuse to write.
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { create, Header } from 'tar'

export interface BundleDirOptions {
  name: string
  version: string
  /** engines.seam; `null` leaves engines out. Default `>=0.1.0`. */
  enginesSeam?: string | null
  /** Source of the host entry, written to `host.mjs`. */
  host?: string
  /** Source of the client entry, written to `client.mjs`. */
  client?: string
  /** More files: relative path -> content. */
  extraFiles?: Record<string, string>
  /** Shallow overrides of the generated package.json; a value of `undefined` deletes the key. */
  manifest?: Record<string, unknown>
}

/** A host entry exporting a plugin that records each apply on `globalThis[counterKey]`. */
export function hostSource(pluginName: string, counterKey = '__seamBundleApplies'): string {
  return [
    `export default {`,
    `  name: ${JSON.stringify(pluginName)},`,
    `  apply(ctx, config) {`,
    `    const list = (globalThis[${JSON.stringify(counterKey)}] ??= [])`,
    `    list.push({ name: ${JSON.stringify(pluginName)}, config })`,
    `  }`,
    `}`,
    ``
  ].join('\n')
}

export async function makeBundleDir(dir: string, options: BundleDirOptions): Promise<string> {
  await mkdir(dir, { recursive: true })
  const seam: Record<string, string> = {}
  if (options.host !== undefined) {
    seam.host = 'host.mjs'
    await writeFile(path.join(dir, 'host.mjs'), options.host)
  }
  if (options.client !== undefined) {
    seam.client = 'client.mjs'
    await writeFile(path.join(dir, 'client.mjs'), options.client)
  }
  const pkg: Record<string, unknown> = { name: options.name, version: options.version, type: 'module', seam }
  const engines = options.enginesSeam === undefined ? '>=0.1.0' : options.enginesSeam
  if (engines !== null) pkg.engines = { seam: engines }
  for (const [key, value] of Object.entries(options.manifest ?? {})) {
    if (value === undefined) delete pkg[key]
    else pkg[key] = value
  }
  await writeFile(path.join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`)
  for (const [relative, content] of Object.entries(options.extraFiles ?? {})) {
    const file = path.join(dir, relative)
    await mkdir(path.dirname(file), { recursive: true })
    await writeFile(file, content)
  }
  return dir
}

/** A raw archive entry written exactly as given (its path is not prefixed with `package/`). */
export interface CraftedEntry {
  path: string
  type?: 'File' | 'Directory' | 'SymbolicLink' | 'Link' | 'CharacterDevice' | 'FIFO'
  content?: string
  linkpath?: string
}

export interface PackOptions {
  /** Raw entries appended after the folder's files; any present switches to the hand-built writer. */
  extraEntries?: CraftedEntry[]
  /** Top-level folder in the archive. Default `package`. */
  prefix?: string
}

/**
 * Packs `dir` into a gzipped tarball whose entries sit under `package/`, as `npm pack` does.
 * With `extraEntries` the archive is written block by block so that it can hold entries no
 * honest packer produces.
 */
export async function packTgz(dir: string, outFile: string, options: PackOptions = {}): Promise<string> {
  const prefix = options.prefix ?? 'package'
  await mkdir(path.dirname(outFile), { recursive: true })
  if (!options.extraEntries?.length) {
    const names = (await readdir(dir)).sort()
    await create({ gzip: true, file: outFile, cwd: dir, prefix: `${prefix}/`, portable: true }, names)
    return outFile
  }
  const entries: CraftedEntry[] = [{ path: `${prefix}/`, type: 'Directory' }]
  const walk = async (folder: string, rel: string): Promise<void> => {
    for (const name of (await readdir(folder)).sort()) {
      const full = path.join(folder, name)
      const inner = rel ? `${rel}/${name}` : name
      if ((await stat(full)).isDirectory()) {
        entries.push({ path: `${prefix}/${inner}/`, type: 'Directory' })
        await walk(full, inner)
      } else entries.push({ path: `${prefix}/${inner}`, type: 'File', content: await readFile(full, 'utf8') })
    }
  }
  await walk(dir, '')
  entries.push(...options.extraEntries)
  await writeFile(outFile, gzipSync(tarBlocks(entries)))
  return outFile
}

/** Raw ustar blocks: a header per entry, its content padded to 512 bytes, two zero blocks at the end. */
function tarBlocks(entries: readonly CraftedEntry[]): Buffer {
  const blocks: Buffer[] = []
  for (const entry of entries) {
    const type = entry.type ?? 'File'
    const body = type === 'File' ? Buffer.from(entry.content ?? '') : Buffer.alloc(0)
    const header = new Header({
      path: entry.path,
      type,
      size: body.length,
      mode: type === 'Directory' ? 0o755 : 0o644,
      mtime: new Date(0),
      linkpath: entry.linkpath,
      uid: 0,
      gid: 0
    })
    if (header.encode()) throw new Error(`test fixture: path or link target too long for a plain ustar header: ${entry.path}`)
    blocks.push(header.block as Buffer, body, Buffer.alloc((512 - (body.length % 512)) % 512))
  }
  blocks.push(Buffer.alloc(1024))
  return Buffer.concat(blocks)
}
