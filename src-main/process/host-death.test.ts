// Section "no process outlives what started it": a host killed with SIGKILL (no handler runs)
// still takes its running Bash commands, hooks and MCP stdio servers, with their children, down
// with it. Runs the
// real CLI (`node bin/seam.mjs`, the built out/main/cli.js) against the loopback OpenAI fake.
// The processes write their pid files only once the host has registered their group with its
// death watcher: a hook after reading its stdin (the host writes it after registering), a Bash
// command after a pause. Killing the host between a spawn and its registration is the window
// host-death-watcher.ts documents.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startFakeOpenAI, type OpenAIScript } from '../../test-support/fake-openai.mjs'
import { isAlive, scaledTestMs, waitFor, waitUntilDead } from './liveness'

const ROOT = path.resolve(import.meta.dirname, '../..')
const SEAM_BIN = path.join(ROOT, 'bin/seam.mjs')

let work: string
let workspace: string
let host: ChildProcess | undefined
const spawnedPids: number[] = []

beforeEach(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'seam-host-death-'))
  workspace = path.join(work, 'ws')
  await mkdir(workspace)
})

afterEach(async () => {
  if (host?.exitCode === null) host.kill('SIGKILL')
  // Never leave a stray behind, even when an assertion failed.
  for (const pid of spawnedPids.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // already gone
    }
  }
  await rm(work, { recursive: true, force: true })
})

/** The pids a file lists (one, or several separated by spaces). */
const pidsIn = (file: string): number[] => readFileSync(path.join(workspace, file), 'utf8').trim().split(/\s+/).map(Number)

async function killHostWhile(script: OpenAIScript, pidFiles: string[], signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  const server = await startFakeOpenAI(script)
  try {
    host = spawn(
      process.execPath,
      [SEAM_BIN, 'run', '--workspace', workspace, '--provider', 'openai-compatible', '--base-url', server.url, '--model', 'fake', '--approve', 'allow', '--trust-workspace', 'go'],
      { cwd: workspace, env: { ...process.env, SEAM_HOME: path.join(work, 'home'), HOME: work }, stdio: 'ignore' }
    )
    await waitFor(() => pidFiles.every((file) => existsSync(path.join(workspace, file)) && readFileSync(path.join(workspace, file), 'utf8').endsWith('\n')), scaledTestMs(15_000), 'the pid files')
    const pids = pidFiles.flatMap(pidsIn)
    spawnedPids.push(...pids)
    for (const pid of pids) expect(isAlive(pid)).toBe(true)
    host.kill(signal)
    for (const pid of pids) expect(await waitUntilDead(pid, scaledTestMs(5_000)), `pid ${pid} outlived the killed host`).toBe(true)
  } finally {
    await server.close()
  }
}

describe('after kill -9 (or SIGTERM) of the CLI host', () => {
  it('a running Bash command and its background child die with it', async () => {
    const command = 'sleep 0.5; echo $$ > bash.pid; sleep 300 & echo $! > bash-child.pid; wait'
    await killHostWhile([{ toolCalls: [{ name: 'Bash', args: { command, description: 'wait' } }] }, { text: 'done' }], ['bash.pid', 'bash-child.pid'])
  })

  it('a running PreToolUse hook and its background child die with it', async () => {
    await mkdir(path.join(workspace, '.claude'))
    const hook = 'cat > /dev/null; echo $$ > hook.pid; sleep 300 & echo $! > hook-child.pid; wait'
    const settings = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hook }] }] } }
    await writeFile(path.join(workspace, '.claude/settings.json'), JSON.stringify(settings))
    await killHostWhile([{ toolCalls: [{ name: 'Bash', args: { command: 'echo ran', description: 'x' } }] }, { text: 'done' }], ['hook.pid', 'hook-child.pid'])
  })

  it.each(['SIGKILL', 'SIGTERM'] as const)('on %s, an MCP stdio server and the child its running tool started die with it', async (signal) => {
    const server = path.join(ROOT, 'plugins/mcp/test-servers/scripted-server.mjs')
    const mcp = { mcpServers: { spawns: { command: process.execPath, args: [server, 'spawns'], env: { PID_FILE: path.join(workspace, 'mcp.pids') } } } }
    await writeFile(path.join(workspace, '.mcp.json'), JSON.stringify(mcp))
    await killHostWhile([{ toolCalls: [{ name: 'mcp__spawns__spawn', args: {} }] }, { text: 'done' }], ['mcp.pids'], signal)
  })
})
