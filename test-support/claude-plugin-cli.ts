// What the built-CLI tests of Claude Code plugins share: the scratch home and workspace with `seam`
// run there, files written with a mode, git run with a fixed identity and no user config, a
// marketplace made as a git repository, a plugin's stdio MCP server, and `seam run`'s flags for a
// loopback Anthropic server.
import { execFileSync } from 'node:child_process'
import { chmod, mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { runSeamHeadless, useCliScratch, type CliResult } from './built-cli'

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com', GIT_CONFIG_GLOBAL: '/dev/null' }

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8' })
}

export async function put(file: string, text: string, mode?: number): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  await writeFile(file, text)
  if (mode !== undefined) await chmod(file, mode)
}

/** `seam run` flags for `workspace` against a loopback Anthropic server at `url`, every ask allowed. */
export function anthropicRunFlags(workspace: string, url: string): string[] {
  return ['--workspace', workspace, '--provider', 'anthropic', '--base-url', url, '--api-key-env', 'FAKE_KEY', '--model', 'claude-main', '--approve', 'allow']
}

export interface ClaudePluginCli {
  /** The scratch HOME (Seam's home is `<home>/seam`); set once the file's tests start. */
  readonly home: string
  /** The scratch workspace, `seam`'s working folder. */
  readonly workspace: string
  /** The built `seam` with `args`, run in the workspace with the scratch home. */
  seam(...args: string[]): Promise<CliResult>
  /** `seam run` flags for the workspace against a loopback Anthropic server at `url`. */
  flags(url: string): string[]
}

/** Scratch folders for this test file (made before its tests, removed after) and `seam` run in them. */
export function useClaudePluginCli(name: string): ClaudePluginCli {
  let dirs: { home: string; workspace: string } | undefined
  useCliScratch(name, (made) => (dirs = made))
  const ready = () => {
    if (!dirs) throw new Error('the scratch folders are made in beforeAll: use them inside a test')
    return dirs
  }
  return {
    get home() {
      return ready().home
    },
    get workspace() {
      return ready().workspace
    },
    seam: (...args) => runSeamHeadless(args, { cwd: ready().workspace, home: ready().home }),
    flags: (url) => anthropicRunFlags(ready().workspace, url)
  }
}

/**
 * A marketplace as a git repository at `source`: its `.claude-plugin/marketplace.json` (named
 * `name`, listing `plugins`), what `fill` writes (the plugins' folders), all committed.
 */
export async function gitMarketplace(source: string, name: string, plugins: ReadonlyArray<{ name: string; source: string }>, fill: () => Promise<void>, message: string): Promise<void> {
  await mkdir(source, { recursive: true })
  git(source, 'init', '--quiet', '--initial-branch=main')
  await put(join(source, '.claude-plugin', 'marketplace.json'), JSON.stringify({ name, owner: { name: 'Team' }, plugins }))
  await fill()
  git(source, 'add', '-A')
  git(source, 'commit', '--quiet', '-m', message)
}

/**
 * A stdio MCP server as a plugin would ship it (newline-delimited JSON-RPC): one tool, whose call
 * answers with the text the JavaScript expression `reply` makes (it sees `m`, the request).
 */
export function stdioServerScript(server: { name: string; tool: { name: string; description: string; inputSchema: Record<string, unknown> }; reply: string }): string {
  return `import { createInterface } from 'node:readline'
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n')
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line)
  if (m.method === 'initialize') send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: ${JSON.stringify(server.name)}, version: '1.0.0' } } })
  else if (m.method === 'tools/list') send({ id: m.id, result: { tools: [${JSON.stringify(server.tool)}] } })
  else if (m.method === 'tools/call') send({ id: m.id, result: { content: [{ type: 'text', text: ${server.reply} }] } })
  else if (m.id !== undefined) send({ id: m.id, result: {} })
})
`
}
