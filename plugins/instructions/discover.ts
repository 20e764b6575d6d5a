// Finds the instructions files for a workspace, in the order the model gets them (later files
// take precedence): Claude Code's user CLAUDE.md, then per folder from the repository root down to
// the workspace CLAUDE.md, .claude/CLAUDE.md and CLAUDE.local.md; each followed by its `@path`
// imports. Then Codex's $CODEX_HOME/AGENTS.md and AGENTS.md (or AGENTS.override.md) per folder.
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import type { InstructionsFile, InstructionsMemoryType } from '@seam/sdk'
import type { InstructionsConfig } from './config'
import { findImports } from './imports'

export interface Discovery {
  files: InstructionsFile[]
  /** Problems worth telling the user (a refused import cycle, a file too large). */
  warnings: string[]
}

export interface DiscoverOptions {
  workspace: string
  config: InstructionsConfig
  env?: NodeJS.ProcessEnv
}

export function discoverInstructions({ workspace, config, env = process.env }: DiscoverOptions): Discovery {
  const home = config.home ?? homedir()
  const out: Discovery = { files: [], warnings: [] }
  const seen = new Set<string>()
  const folders = foldersFromRoot(resolve(workspace), config.claude.parents || config.codex.enabled)
  const claudeFolders = config.claude.parents ? folders : folders.slice(-1)

  const claude = (path: string, memoryType: InstructionsMemoryType): void => {
    const file = readInstructions(path, config.maxFileBytes, out.warnings)
    if (file === undefined || seen.has(file.real)) return
    seen.add(file.real)
    out.files.push({ path, memoryType, loadReason: 'session_start', content: file.content })
    addImports(path, file.content, memoryType, [file.real], config.claude.importDepth, home, config.maxFileBytes, seen, out)
  }
  if (config.claude.user) claude(join(home, '.claude', 'CLAUDE.md'), 'User')
  for (const folder of claudeFolders) {
    if (config.claude.project) {
      claude(join(folder, 'CLAUDE.md'), 'Project')
      claude(join(folder, '.claude', 'CLAUDE.md'), 'Project')
    }
    if (config.claude.local) claude(join(folder, 'CLAUDE.local.md'), 'Local')
  }

  if (config.codex.enabled) {
    let budget = config.codex.maxBytes
    const codex = (folder: string, memoryType: InstructionsMemoryType): void => {
      const override = join(folder, 'AGENTS.override.md')
      const path = existsSync(override) ? override : join(folder, 'AGENTS.md')
      const file = readInstructions(path, config.maxFileBytes, out.warnings)
      if (file === undefined || seen.has(file.real) || file.content.trim() === '') return
      seen.add(file.real)
      let content = file.content
      const bytes = Buffer.byteLength(content)
      if (memoryType === 'Agents') {
        if (budget <= 0) return void out.warnings.push(`${path}: not read, the AGENTS.md budget of ${config.codex.maxBytes} bytes is used up`)
        if (bytes > budget) {
          content = Buffer.from(content).subarray(0, budget).toString('utf8')
          out.warnings.push(`${path}: cut to ${budget} bytes (the AGENTS.md budget is ${config.codex.maxBytes} bytes)`)
        }
        budget -= Math.min(bytes, budget)
      }
      out.files.push({ path, memoryType, loadReason: 'session_start', content })
    }
    codex(config.codex.home ?? env.CODEX_HOME ?? join(home, '.codex'), 'CodexHome')
    for (const folder of folders) codex(folder, 'Agents')
  }
  return out
}

/** The repository root (nearest folder with `.git`) down to `workspace`; just `workspace` outside a repository or when `all` is false. */
export function foldersFromRoot(workspace: string, all: boolean): string[] {
  if (!all) return [workspace]
  const chain: string[] = []
  let folder = workspace
  for (;;) {
    chain.unshift(folder)
    if (existsSync(join(folder, '.git'))) return chain
    const parent = dirname(folder)
    if (parent === folder) return [workspace]
    folder = parent
  }
}

function addImports(
  from: string,
  content: string,
  memoryType: InstructionsMemoryType,
  chain: string[],
  depthLeft: number,
  home: string,
  maxBytes: number,
  seen: Set<string>,
  out: Discovery
): void {
  for (const target of findImports(content)) {
    const path = target.startsWith('~/') ? join(home, target.slice(2)) : isAbsolute(target) ? target : resolve(dirname(from), target)
    const file = readInstructions(path, maxBytes, out.warnings)
    if (file === undefined) continue
    if (chain.includes(file.real)) {
      out.warnings.push(`${from}: import @${target} refused: it would import itself again (cycle)`)
      continue
    }
    if (depthLeft <= 0) {
      out.warnings.push(`${from}: import @${target} not read: imports may nest at most ${chain.length - 1} deep`)
      continue
    }
    if (seen.has(file.real)) continue
    seen.add(file.real)
    out.files.push({ path, memoryType, loadReason: 'include', content: file.content, parent: from })
    addImports(path, file.content, memoryType, [...chain, file.real], depthLeft - 1, home, maxBytes, seen, out)
  }
}

/** The file's text and real path, or undefined when it is missing or not a regular file. */
function readInstructions(path: string, maxBytes: number, warnings: string[]): { content: string; real: string } | undefined {
  let size: number
  try {
    const stat = statSync(path)
    if (!stat.isFile()) return undefined
    size = stat.size
  } catch {
    return undefined
  }
  if (size > maxBytes) {
    warnings.push(`${path}: not read, ${size} bytes is over the ${maxBytes}-byte limit for an instructions file`)
    return undefined
  }
  try {
    return { content: readFileSync(path, 'utf8'), real: realpathSync(path) }
  } catch (error) {
    warnings.push(`${path}: could not be read: ${(error as Error).message}`)
    return undefined
  }
}
