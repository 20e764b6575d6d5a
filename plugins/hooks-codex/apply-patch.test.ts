// apply_patch text both ways, and a hook's updatedInput turned back into tool arguments.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addFilePatch, parsePatch, updateFilePatch } from './apply-patch'
import { applyUpdatedInput, blockedText, presentToolCall } from './tool-view'

describe('apply_patch text', () => {
  it('renders Add File and Update File patches', () => {
    expect(addFilePatch('a.txt', 'one\ntwo\n')).toBe('*** Begin Patch\n*** Add File: a.txt\n+one\n+two\n*** End Patch')
    expect(updateFilePatch('a.txt', 'old', 'new\nlines')).toBe('*** Begin Patch\n*** Update File: a.txt\n@@\n-old\n+new\n+lines\n*** End Patch')
  })

  it('parses every operation, hunks with context, and a first hunk without @@', () => {
    const parsed = parsePatch(
      ['*** Begin Patch', '*** Add File: n.txt', '+hi', '*** Delete File: d.txt', '*** Update File: u.txt', '*** Move to: v.txt', ' keep', '-old', '+new', '@@ def f', '-x', '+y', '*** End Patch', ''].join('\n')
    )
    expect(parsed).toEqual({
      ok: true,
      ops: [
        { kind: 'add', path: 'n.txt', lines: ['hi'] },
        { kind: 'delete', path: 'd.txt' },
        {
          kind: 'update',
          path: 'u.txt',
          moveTo: 'v.txt',
          hunks: [
            [
              { op: ' ', text: 'keep' },
              { op: '-', text: 'old' },
              { op: '+', text: 'new' }
            ],
            [
              { op: '-', text: 'x' },
              { op: '+', text: 'y' }
            ]
          ]
        }
      ]
    })
  })

  it('rejects text that is not a patch, naming the line', () => {
    expect(parsePatch('hello')).toMatchObject({ ok: false, error: expect.stringContaining('Begin Patch') })
    expect(parsePatch('*** Begin Patch\n*** Add File: a\nno plus\n*** End Patch')).toMatchObject({ ok: false, error: expect.stringContaining('line 3') })
  })
})

describe('Seam calls as Codex tools', () => {
  let dir = ''
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'seam-codex-view-'))
    await writeFile(path.join(dir, 'existing.txt'), 'a\nb\n')
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('Bash shows only {command}; an updatedInput replaces the command and keeps Seam-only arguments', () => {
    const args = { command: 'ls', timeout: 5000 }
    const view = presentToolCall('Bash', args, dir)
    expect(view).toMatchObject({ toolName: 'Bash', toolInput: { command: 'ls' } })
    expect(applyUpdatedInput('Bash', args, view, { command: 'ls -a', extra: 1 }, dir)).toEqual({ ok: true, args: { command: 'ls -a', timeout: 5000 } })
    expect(applyUpdatedInput('Bash', args, view, { cmd: 'x' }, dir)).toMatchObject({ ok: false })
    expect(blockedText(view, 'no')).toBe('Command blocked by PreToolUse hook: no. Command: ls')
  })

  it('Write of an existing file is a whole-file update; paths inside the working directory are relative', () => {
    const view = presentToolCall('Write', { file_path: path.join(dir, 'existing.txt'), content: 'c\n' }, dir)
    expect(view.toolInput).toEqual({ command: '*** Begin Patch\n*** Update File: existing.txt\n@@\n-a\n-b\n+c\n*** End Patch' })
    const rewritten = applyUpdatedInput('Write', { file_path: path.join(dir, 'existing.txt'), content: 'c\n' }, view, { command: '*** Begin Patch\n*** Update File: existing.txt\n@@\n-a\n-b\n+safe\n*** End Patch' }, dir)
    expect(rewritten).toEqual({ ok: true, args: { file_path: path.join(dir, 'existing.txt'), content: 'safe\n' } })
  })

  it('Edit is an update hunk; a rewritten hunk becomes old_string/new_string, keeping replace_all', () => {
    const args = { file_path: 'src/a.ts', old_string: 'let x = 1', new_string: 'let x = 2', replace_all: true }
    const view = presentToolCall('Edit', args, dir)
    expect(view.toolName).toBe('apply_patch')
    expect(view.toolInput.command).toBe('*** Begin Patch\n*** Update File: src/a.ts\n@@\n-let x = 1\n+let x = 2\n*** End Patch')
    const patch = '*** Begin Patch\n*** Update File: src/a.ts\n@@\n context\n-let x = 1\n+let x = 3\n*** End Patch'
    expect(applyUpdatedInput('Edit', args, view, { command: patch }, dir)).toEqual({
      ok: true,
      args: { file_path: 'src/a.ts', old_string: 'context\nlet x = 1', new_string: 'context\nlet x = 3', replace_all: true }
    })
  })

  it('a rewritten patch a single Edit cannot express is refused', () => {
    const args = { file_path: 'a.txt', old_string: 'x', new_string: 'y' }
    const view = presentToolCall('Edit', args, dir)
    const two = '*** Begin Patch\n*** Update File: a.txt\n@@\n-x\n+y\n*** Delete File: b.txt\n*** End Patch'
    expect(applyUpdatedInput('Edit', args, view, { command: two }, dir)).toMatchObject({ ok: false, error: expect.stringContaining('2 files') })
    expect(applyUpdatedInput('Edit', args, view, { command: '*** Begin Patch\n*** Delete File: a.txt\n*** End Patch' }, dir)).toMatchObject({ ok: false })
  })

  it('other tools keep their name and arguments; updatedInput replaces the arguments whole', () => {
    const view = presentToolCall('Read', { file_path: 'a.txt', limit: 5 }, dir)
    expect(view).toMatchObject({ toolName: 'Read', toolInput: { file_path: 'a.txt', limit: 5 } })
    expect(applyUpdatedInput('Read', { file_path: 'a.txt', limit: 5 }, view, { file_path: 'b.txt' }, dir)).toEqual({ ok: true, args: { file_path: 'b.txt' } })
    expect(blockedText(view, 'no')).toBe('Tool call blocked by PreToolUse hook: no. Tool: Read')
  })
})
