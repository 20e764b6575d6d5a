// What the built-CLI tests of Claude Code plugins share: files written with a mode, git run with a
// fixed identity and no user config, and `seam run`'s flags for a loopback Anthropic server.
import { execFileSync } from 'node:child_process'
import { chmod, mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'

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
