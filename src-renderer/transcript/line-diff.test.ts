import { describe, expect, it } from 'vitest'
import { applyEdit, diffHunks, diffLines, patchHunks, wordChanges } from './line-diff'
import { fileChange } from './ToolDiff'

const signs = (before: string, after: string) => diffLines(before, after).map((l) => `${l.kind === 'add' ? '+' : l.kind === 'del' ? '-' : ' '}${l.text}`)

describe('line diff', () => {
  it('marks removed and added lines with line numbers', () => {
    expect(signs('a\nb\nc\n', 'a\nB\nc\nd\n')).toEqual([' a', '-b', '+B', ' c', '+d'])
    const lines = diffLines('a\nb\n', 'a\nx\nb\n')
    expect(lines[1]).toEqual({ kind: 'add', text: 'x', newNo: 2 })
    expect(lines[2]).toEqual({ kind: 'same', text: 'b', oldNo: 2, newNo: 3 })
  })

  it('a new file is all additions; identical text has no changes', () => {
    expect(signs('', 'x\ny')).toEqual(['+x', '+y'])
    expect(diffHunks(diffLines('same\n', 'same\n'))).toEqual([])
  })

  it('past the edit cap the middle shows as removed then added', () => {
    expect(signs('p\na\nb\ns', 'p\nc\nd\ns').length).toBe(6)
    expect(diffLines('p\na\nb\ns', 'p\nb\nc\ns').map((l) => l.kind)).toEqual(['same', 'del', 'same', 'add', 'same'])
    const capped = diffLines('p\na\nb\ns', 'p\nb\nc\ns', 1)
    expect(capped.map((l) => l.kind)).toEqual(['same', 'del', 'del', 'add', 'add', 'same'])
    expect(capped.map((l) => [l.oldNo, l.newNo])).toEqual([[1, 1], [2, undefined], [3, undefined], [undefined, 2], [undefined, 3], [4, 4]])
    expect(signs('a\nb\n', 'a\nb')).toEqual([' a', ' b'])
  })

  it('hunks keep 3 lines of context and count what they skip', () => {
    const before = Array.from({ length: 20 }, (_, i) => `l${i}`).join('\n')
    const after = before.replace('l10', 'L10')
    const hunks = diffHunks(diffLines(before, after))
    expect(hunks).toHaveLength(1)
    expect(hunks[0].skipped).toBe(7)
    expect(hunks[0].lines.map((l) => l.text)).toEqual(['l7', 'l8', 'l9', 'l10', 'L10', 'l11', 'l12', 'l13'])
  })

  it('applyEdit replaces literally, once or everywhere', () => {
    expect(applyEdit('a $& a', 'a', 'b', false)).toBe('b $& a')
    expect(applyEdit('a $& a', 'a', '$1', true)).toBe('$1 $& $1')
    expect(applyEdit('', '', 'new', false)).toBe('new')
  })

  it('reads Edit and Write structured results; anything else has no diff', () => {
    expect(fileChange('Edit', { filePath: '/f', oldString: 'x', newString: 'y', originalFile: 'x\n', replaceAll: false })).toEqual({ filePath: '/f', before: 'x\n', after: 'y\n' })
    expect(fileChange('Write', { type: 'create', filePath: '/g', content: 'hi', originalFile: null })).toEqual({ filePath: '/g', before: '', after: 'hi' })
    expect(fileChange('Write', { filePath: '/g' })).toBeNull()
    expect(fileChange('Bash', { stdout: '' })).toBeNull()
  })
})

describe('patchHunks (a worktree review: git\'s unified patch in the same viewer)', () => {
  it('numbers lines as the patch does and counts the unchanged lines skipped between hunks', () => {
    const patch = [
      'diff --git a/f.txt b/f.txt',
      'index 1111111..2222222 100644',
      '--- a/f.txt',
      '+++ b/f.txt',
      '@@ -1,2 +1,2 @@',
      '-one',
      '+ONE',
      ' two',
      '@@ -10,2 +10,3 @@',
      ' ten',
      '+ten and a half',
      ' eleven',
      ''
    ].join('\n')
    expect(patchHunks(patch)).toEqual([
      { skipped: 0, lines: [{ kind: 'del', text: 'one', oldNo: 1 }, { kind: 'add', text: 'ONE', newNo: 1 }, { kind: 'same', text: 'two', oldNo: 2, newNo: 2 }] },
      { skipped: 7, lines: [{ kind: 'same', text: 'ten', oldNo: 10, newNo: 10 }, { kind: 'add', text: 'ten and a half', newNo: 11 }, { kind: 'same', text: 'eleven', oldNo: 11, newNo: 12 }] }
    ])
  })
})

describe('changed words (issue 29: diffAddedWord / diffRemovedWord have something to colour)', () => {
  it('pairs a removed line with the added one after it and marks only the words that differ', () => {
    const lines = diffLines('const port = 8080\nkeep\n', 'const port = 9090\nkeep\n')
    const words = wordChanges(lines)
    expect(words.get(0)).toEqual([{ text: 'const port = ', changed: false }, { text: '8080', changed: true }])
    expect(words.get(1)).toEqual([{ text: 'const port = ', changed: false }, { text: '9090', changed: true }])
    expect(words.has(2)).toBe(false)
  })

  it('leaves unpaired lines and lines with nothing in common to their line colour', () => {
    const words = wordChanges(diffLines('alpha\n', 'omega\nextra line\n'))
    expect(words.size).toBe(0)
  })
})
