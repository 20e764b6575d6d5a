import { describe, expect, it } from 'vitest'
import { structuredPatch } from './line-diff'

const lines = (n: number, change?: Record<number, string>) =>
  Array.from({ length: n }, (_, i) => change?.[i + 1] ?? `line ${i + 1}`).join('\n') + '\n'

describe('structuredPatch', () => {
  it('is empty for identical text', () => {
    expect(structuredPatch('a\nb\n', 'a\nb\n')).toEqual([])
  })

  it('gives one hunk with three lines of context', () => {
    expect(structuredPatch(lines(10), lines(10, { 5: 'five' }))).toEqual([
      { oldStart: 2, oldLines: 7, newStart: 2, newLines: 7, lines: [' line 2', ' line 3', ' line 4', '-line 5', '+five', ' line 6', ' line 7', ' line 8'] }
    ])
  })

  it('splits distant changes into separate hunks and merges close ones', () => {
    const far = structuredPatch(lines(30), lines(30, { 2: 'two', 25: 'twenty-five' }))
    expect(far.map((h) => [h.oldStart, h.oldLines])).toEqual([
      [1, 5],
      [22, 7]
    ])
    const near = structuredPatch(lines(30), lines(30, { 2: 'two', 8: 'eight' }))
    expect(near).toHaveLength(1)
  })

  it('describes pure additions and deletions', () => {
    // jsdiff keeps an empty range's start 1-based; only its unified-diff text writes it one lower.
    expect(structuredPatch('', 'new\n')).toEqual([{ oldStart: 1, oldLines: 0, newStart: 1, newLines: 1, lines: ['+new'] }])
    expect(structuredPatch('a\nb\n', 'a\n')).toEqual([{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 1, lines: [' a', '-b'] }])
  })

  it('marks a last line without a newline', () => {
    expect(structuredPatch('a\nb\n', 'a\nb')).toEqual([
      { oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, lines: [' a', '-b', '+b', '\\ No newline at end of file'] }
    ])
  })

  it('past the edit cap reports the whole file replaced, in the shape jsdiff gives', () => {
    const before = 'a\nb\nc'
    const after = 'x\ny\n'
    expect(structuredPatch(before, after, 3, 1)).toEqual(structuredPatch(before, after))
    expect(structuredPatch(before, after, 3, 1)).toEqual([
      { oldStart: 1, oldLines: 3, newStart: 1, newLines: 2, lines: ['-a', '-b', '-c', '\\ No newline at end of file', '+x', '+y'] }
    ])
    expect(structuredPatch('', 'x', 3, 0)).toEqual(structuredPatch('', 'x'))
  })
})
