// Issue 31: the one line of a tool card names what the call acted on and what came of it.
import { describe, expect, it } from 'vitest'
import { verdictAllowed } from '../test/events'
import { resultSummary, toolTarget } from './tool-summary'
import type { ToolCardItem, ToolResultView } from './transcript-types'

const card = (name: string, args: Record<string, unknown>, result?: Partial<ToolResultView>): ToolCardItem => ({
  kind: 'tool', key: `tool:t:${name}`, seq: 1, turnId: 't', callId: 'c', name, args: args as ToolCardItem['args'], status: result ? (result.isError ? 'error' : 'done') : 'running',
  ...(result ? { result: { content: '', isError: false, durationMs: 1, verdict: verdictAllowed, ...result } } : {})
})

describe('toolTarget', () => {
  it.each([
    [{ file_path: '/w/src/a.ts' }, 'src/a.ts'],
    [{ file_path: '/elsewhere/b.ts' }, '/elsewhere/b.ts'],
    [{ command: 'npm  test\n -- x' }, 'npm test -- x'],
    [{ pattern: 'TODO', path: '/w/src' }, 'TODO in src'],
    [{ pattern: '**/*.ts' }, '**/*.ts'],
    [{ url: 'https://example.com/docs/page?q=1' }, 'example.com/docs/page'],
    [{ query: 'vitest config' }, 'vitest config'],
    [{}, '']
  ])('%j -> %s', (args, expected) => {
    expect(toolTarget(args, '/w')).toBe(expected)
  })

  it('shortens a long target to one line of at most 120 characters', () => {
    const target = toolTarget({ command: 'x'.repeat(500) }, undefined)
    expect(target).toHaveLength(120)
    expect(target.endsWith('…')).toBe(true)
  })
})

describe('resultSummary', () => {
  it('counts the lines an Edit added and removed', () => {
    const edit = card('Edit', { file_path: '/w/a' }, { structured: { filePath: '/w/a', oldString: 'b', newString: 'B\nC', originalFile: 'a\nb\nc\n' } })
    expect(resultSummary(edit, 'done')).toEqual({ text: '+2 −1', tone: 'success' })
  })

  it.each<[string, Partial<ToolResultView>, string, string]>([
    ['Bash', { content: 'ok', structured: { stdout: 'ok', stderr: '', interrupted: false } }, 'exit 0', 'muted'],
    ['Bash', { content: 'Exit code 127\nsh: nope: not found', isError: true }, 'exit 127', 'danger'],
    ['Bash', { content: 'Command running in background', structured: { backgroundTaskId: 'b1', interrupted: false } }, 'in background (b1)', 'muted'],
    ['Grep', { content: 'x', structured: { mode: 'content', numMatches: 24, numFiles: 3 } }, '24 matches', 'muted'],
    ['Grep', { content: 'x', structured: { mode: 'files_with_matches', numFiles: 1, filenames: ['a'] } }, '1 file', 'muted'],
    ['Glob', { content: 'a\nb', structured: { numFiles: 2, filenames: ['a', 'b'] } }, '2 files', 'muted'],
    ['Read', { content: '1\ta', structured: { type: 'text', file: { numLines: 40 } } }, '40 lines', 'muted'],
    ['Read', { content: 'File does not exist.', isError: true }, 'File does not exist.', 'danger'],
    ['mcp__x__echo', { content: 'Echo: hi' }, 'Echo: hi', 'muted']
  ])('%s %j -> %s', (name, result, text, tone) => {
    const item = card(name, {}, result)
    expect(resultSummary(item, item.status)).toEqual({ text, tone })
  })

  it('a denied call says why, a timed-out one says so, a call without result says nothing', () => {
    expect(resultSummary({ ...card('Bash', {}), statusReason: 'Denied by the user' }, 'denied')).toEqual({ text: 'Denied by the user', tone: 'warning' })
    expect(resultSummary(card('Bash', {}, { content: 'killed', isError: true, code: 'TIMEOUT' }), 'timeout')).toEqual({ text: 'timed out', tone: 'danger' })
    expect(resultSummary(card('Bash', {}), 'running')).toBeNull()
  })
})
