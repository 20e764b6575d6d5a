import { describe, expect, it } from 'vitest'
import { markdownBlocks, splitMarkdownBlocks } from './markdown-blocks'

describe('splitMarkdownBlocks', () => {
  it('splits at blank lines but keeps fenced code (with its blank lines) in one block', () => {
    const text = 'Intro line\nsecond line\n\n\n```js\nconst a = 1\n\nconst b = 2\n```\n\n- item\n- item 2\n\n~~~\nx\n\n'
    expect(splitMarkdownBlocks(text)).toEqual(['Intro line\nsecond line', '```js\nconst a = 1\n\nconst b = 2\n```', '- item\n- item 2', '~~~\nx\n\n'])
  })

  it('an unterminated fence (still streaming) keeps the rest in its block', () => {
    expect(splitMarkdownBlocks('a\n\n```\ncode\n\nmore')).toEqual(['a', '```\ncode\n\nmore'])
  })
})

describe('markdownBlocks', () => {
  it('joins what a blank line does not end: a list item after a list (one loose list) and an indented block', () => {
    expect(markdownBlocks('Intro\n\n- a\n- b\n\n- c\n\n  more of c\n\nAfter')).toEqual(['Intro', '- a\n- b\n\n- c\n\n  more of c', 'After'])
    expect(markdownBlocks('1. one\n\n2. two\n\n    indented')).toEqual(['1. one\n\n2. two\n\n    indented'])
  })

  it('keeps text with link reference or footnote definitions, or HTML blocks, whole', () => {
    for (const text of ['See [the docs][d].\n\n[d]: https://example.com', 'A note[^1].\n\n[^1]: The note.', 'a\n\n<!-- a\n\ncomment -->\n\nb']) {
      expect(markdownBlocks(text)).toEqual([text])
    }
  })
})
