// Real plugin folders and a marketplace in a real git repository, written by the tests.
import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    const file = join(root, rel)
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, text)
    if (rel.startsWith('bin/') || rel.endsWith('.sh') || rel.endsWith('.mjs')) chmodSync(file, 0o755)
  }
}

/** A plugin with one of each component: a command, an agent, a skill, a hook, an MCP server, bin/. */
export function fullPluginFiles(name: string, options: { version?: string; hookCommand?: string; server?: Record<string, unknown> } = {}): Record<string, string> {
  return {
    '.claude-plugin/plugin.json': JSON.stringify({ name, version: options.version ?? '1.0.0', description: `${name} plugin` }),
    'commands/hello.md': '---\ndescription: Say hello\n---\nSay hello to $ARGUMENTS from the plugin.\n',
    'agents/reviewer.md': '---\nname: reviewer\ndescription: Reviews code\n---\nYou review code.\n',
    'skills/greet/SKILL.md': '---\nname: greet\ndescription: Greets\n---\nGreet warmly.\n',
    'hooks/hooks.json': JSON.stringify({
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: options.hookCommand ?? '${CLAUDE_PLUGIN_ROOT}/scripts/guard.sh' }] }] }
    }),
    'scripts/guard.sh': '#!/bin/sh\nexit 0\n',
    '.mcp.json': JSON.stringify({ mcpServers: { tools: options.server ?? { command: '${CLAUDE_PLUGIN_ROOT}/bin/server', args: ['--data', '${CLAUDE_PLUGIN_DATA}'] } } }),
    'bin/server': '#!/bin/sh\nexit 0\n'
  }
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 'test', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 'test', GIT_COMMITTER_EMAIL: 't@example.com', GIT_CONFIG_GLOBAL: '/dev/null' }
  })
}

/** A git repository at `root` with `files` committed on `main`. */
export function gitRepo(root: string, files: Record<string, string>): void {
  mkdirSync(root, { recursive: true })
  git(root, 'init', '--quiet', '--initial-branch=main')
  writeFiles(root, files)
  git(root, 'add', '-A')
  git(root, 'commit', '--quiet', '-m', 'marketplace')
}

/** Commits the current state of a repository made by gitRepo. */
export function gitCommit(root: string, message: string): void {
  git(root, 'add', '-A')
  git(root, 'commit', '--quiet', '-m', message)
}

export function marketplaceJson(name: string, plugins: Array<Record<string, unknown>>): string {
  return JSON.stringify({ name, owner: { name: 'Test Owner' }, plugins })
}
