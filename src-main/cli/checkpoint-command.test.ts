// `seam revert` and `seam rewind` end to end: the built `seam` command as a real process, a
// session written by `seam run` against a loopback OpenAI-wire server, then taken back.
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'
import { startFakeOpenAI, type OpenAIScript } from '../../test-support/fake-openai.mjs'
import { SEAM_BIN, useCliScratch } from '../../test-support/built-cli'

const run = promisify(execFile)
let home: string
let workspace: string
useCliScratch('cli-ckpt', (dirs) => ({ home, workspace } = dirs))

async function seam(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('setsid', ['-w', process.execPath, SEAM_BIN, ...args], { cwd: workspace, env: { ...process.env, SEAM_HOME: home, HOME: home }, timeout: 60_000 })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string }
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout, stderr: e.stderr }
  }
}

async function runPrompts(script: OpenAIScript, prompts: string[]): Promise<string> {
  const server = await startFakeOpenAI(script)
  try {
    const result = await seam(['run', '--workspace', workspace, '--provider', 'openai-compatible', '--base-url', server.url, '--model', 'm', '--approve', 'allow', ...prompts])
    expect(result.code, result.stderr).toBe(0)
    return /session (\S+)/.exec(result.stderr)![1]
  } finally {
    await server.close()
  }
}

it('seam revert puts back the last turn\'s files; a file changed since needs --force; seam rewind goes back to before prompt 1', async () => {
  const notes = join(workspace, 'notes.txt')
  const extra = join(workspace, 'extra.txt')
  await writeFile(notes, 'v1\n')
  const id = await runPrompts(
    [
      { toolCalls: [{ name: 'Edit', args: { file_path: notes, old_string: 'v1', new_string: 'v2' } }] },
      { text: 'edited' },
      { toolCalls: [{ name: 'Write', args: { file_path: extra, content: 'extra\n' } }] },
      { text: 'wrote' }
    ],
    ['edit notes', 'add extra']
  )
  expect(await readFile(notes, 'utf8')).toBe('v2\n')

  const last = await seam(['revert', id])
  expect(last).toMatchObject({ code: 0, stdout: `restored ${extra}\n` })
  expect(existsSync(extra)).toBe(false)

  await writeFile(notes, 'v2\nmine\n')
  const asked = await seam(['revert', id, '--turn', '1'])
  expect(asked.code).toBe(1)
  expect(asked.stdout).toBe(`would restore ${notes} (changed since)\n`)
  expect(asked.stderr).toContain('nothing was changed (run again with --force to overwrite them)')
  expect(await readFile(notes, 'utf8')).toBe('v2\nmine\n')

  const bad = await seam(['rewind', id, '3'])
  expect(bad.code).toBe(2)
  expect(bad.stderr).toContain('prompt 3: the conversation has 2 prompts')

  const rewound = await seam(['rewind', id, '1', '--force'])
  expect(rewound.code, rewound.stderr).toBe(0)
  expect(rewound.stdout).toContain(`restored ${notes} (changed since)`)
  expect(rewound.stdout).toContain('rewound to before: edit notes')
  expect(await readFile(notes, 'utf8')).toBe('v1\n')
}, 90_000)
