// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { MarkdownText } from './MarkdownText'

afterEach(cleanup)

declare global {
  var __pwned: number | undefined
}

describe('MarkdownText', () => {
  it('renders Markdown with code blocks', () => {
    const { container } = render(<MarkdownText text={'# Title\n\nSome **bold** and `code`.\n\n```ts\nconst a = 1\n```\n'} />)
    expect(container.querySelector('h1')?.textContent).toBe('Title')
    expect(container.querySelector('strong')?.textContent).toBe('bold')
    expect(container.querySelector('pre code')?.textContent).toBe('const a = 1\n')
    expect(container.querySelector('pre code')?.className).toBe('language-ts')
  })

  it('never turns raw HTML into elements: <script> and <img onerror> show as text and do not run', () => {
    globalThis.__pwned = 0
    const text = 'Before <script>globalThis.__pwned = 1</script> after\n\n<img src="x" onerror="globalThis.__pwned = 2">\n\n<div onclick="x()">block</div>'
    const { container } = render(<MarkdownText text={text} />)
    expect(container.querySelector('script')).toBeNull()
    expect(container.querySelector('img')).toBeNull()
    expect(container.querySelector('div[onclick]')).toBeNull()
    expect(container.querySelector('[onerror]')).toBeNull()
    expect(container.textContent).toContain('<script>globalThis.__pwned = 1</script>')
    expect(container.textContent).toContain('<img src="x" onerror="globalThis.__pwned = 2">')
    expect(globalThis.__pwned).toBe(0)
  })

  it('drops javascript: URLs and opens links outside the app', () => {
    const { container } = render(<MarkdownText text={'[bad](javascript:alert(1)) and [good](https://example.com)'} />)
    const links = [...container.querySelectorAll('a')]
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['', 'https://example.com'])
    expect(links[1].getAttribute('rel')).toBe('noopener noreferrer')
    expect(links[1].getAttribute('target')).toBe('_blank')
  })

  it('shows Markdown images as text instead of loading them', () => {
    const { container } = render(<MarkdownText text={'![diagram](https://example.com/a.png)'} />)
    expect(container.querySelector('img')).toBeNull()
    expect(container.textContent).toContain('[image: diagram]')
  })
})
