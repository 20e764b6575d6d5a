// Which transcript row a search match opens at (issue 17: a result opens the session at the match).
import { describe, expect, it } from 'vitest'
import { rowIndexForSeq } from './search-hit'
import type { TranscriptItem } from './transcript-types'

const row = (seq: number): TranscriptItem => ({ kind: 'context', key: `k${seq}`, seq, text: '', source: 'test' })

describe('rowIndexForSeq', () => {
  it('is the row of the event, or the last row that starts before it (a tool card holds its result), or -1', () => {
    const items = [row(2), row(3), row(7), row(12)]
    expect(rowIndexForSeq(items, 7)).toBe(2)
    expect(rowIndexForSeq(items, 9)).toBe(2)
    expect(rowIndexForSeq(items, 40)).toBe(3)
    expect(rowIndexForSeq(items, 1)).toBe(-1)
  })
})
