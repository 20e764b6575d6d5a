// `seam plugin install NAME[@RANGE]`, `seam plugin update [NAME]`, `seam plugin search [QUERY]`:
// bundles from the npm registry the user's npm is set up for (src-main/plugins/bundles/registry-*).
import { existsSync } from 'node:fs'
import { isAbsolute, resolve } from 'node:path'
import type { HostRuntime } from '../app/runtime'
import { UsageError } from './usage-error'

type Io = { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream }

/**
 * A path (an existing file or folder, or anything spelled like a path or a .tgz) installs from
 * disk; anything else is a registry package name with an optional @range.
 */
export function isBundlePath(target: string, cwd = process.cwd()): boolean {
  if (existsSync(resolve(cwd, target))) return true
  return isAbsolute(target) || /^\.{1,2}([/\\]|$)/.test(target) || target.startsWith('~') || target.includes('\\') || /\.(tgz|tar\.gz)$/i.test(target) || (target.includes('/') && !target.startsWith('@'))
}

export async function installByName(runtime: HostRuntime, spec: string, io: Io, options: { force?: boolean }): Promise<number> {
  const installed = await runtime.plugins.installFromRegistry(spec, options)
  for (const note of installed.notes) io.stderr.write(`note: ${note}\n`)
  if (installed.status === 'replaced' || installed.status === 'unchanged') {
    io.stdout.write(`${installed.message}\n`)
    return 0
  }
  io.stdout.write(
    `installed ${installed.name}@${installed.version} from ${installed.registry} (range ${installed.range})${installed.host ? ` (host: ${installed.host})` : ''}${installed.client ? ` (client: ${installed.client})` : ''}\n`
  )
  if (installed.host) io.stderr.write(`note: ${installed.warning}\n`)
  return 0
}

export async function updateCommand(runtime: HostRuntime, name: string | undefined, io: Io): Promise<number> {
  const reports = await runtime.plugins.updateFromRegistry(name)
  if (reports.length === 0) {
    io.stdout.write('no bundle was installed from a registry; nothing to update\n')
    return 0
  }
  for (const report of reports) {
    for (const note of report.notes) io.stderr.write(`note: ${note}\n`)
    if (report.status === 'failed') io.stderr.write(`error: ${report.message}\n`)
    else io.stdout.write(`${report.status === 'updated' ? 'updated' : 'current'}: ${report.message}\n`)
  }
  return reports.some((r) => r.status === 'failed') ? 1 : 0
}

export async function searchCommand(runtime: HostRuntime, query: string[], io: Io): Promise<number> {
  const result = await runtime.plugins.searchRegistry(query.join(' '))
  if (result.hits.length === 0) {
    io.stdout.write(`no bundles (keyword seam-plugin) found in ${result.registry}${query.length ? ` for "${query.join(' ')}"` : ''}\n`)
    return 0
  }
  for (const hit of result.hits) {
    const fit = hit.problem ? `unknown (${hit.problem})` : hit.fits ? `fits this Seam${hit.fitVersion !== hit.version ? ` (${hit.fitVersion})` : ''}` : `does not fit this Seam (engines.seam ${hit.engines ?? 'not declared'})`
    io.stdout.write(`${hit.name}  ${hit.version}  ${fit}${hit.description ? `  ${hit.description}` : ''}\n`)
  }
  return 0
}

export function registryUsage(action: string): never {
  throw new UsageError(`seam plugin ${action}: ${action === 'update' ? 'seam plugin update [NAME]' : 'seam plugin search [QUERY...]'}`)
}
