import { describe, expect, it } from 'vitest'
import { splitMarkdownBlocks } from './markdown-blocks'

describe('splitMarkdownBlocks', () => {
  it('splits at blank lines but keeps fenced code (with its blank lines) in one block', () => {
    const text = 'Intro line\nsecond line\n\n\n```js\nconst a = 1\n\nconst b = 2\n```\n\n- item\n- item 2\n\n~~~\nx\n\n'
    expect(splitMarkdownBlocks(text)).toEqual(['Intro line\nsecond line', '```js\nconst a = 1\n\nconst b = 2\n```', '- item\n- item 2', '~~~\nx\n\n'])
  })

  it('an unterminated fence (still streaming) keeps the rest in its block', () => {
    expect(splitMarkdownBlocks('a\n\n```\ncode\n\nmore')).toEqual(['a', '```\ncode\n\nmore'])
  })
})
