import fs from 'node:fs/promises'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createReadTool, readTool, type ReadStructured } from './read'
import { makeExec, makeTempDir } from './test-exec'

let dir: string
beforeEach(async () => {
  dir = await makeTempDir()
})
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true })
})

async function file(name: string, content: string | Buffer): Promise<string> {
  const full = path.join(dir, name)
  await fs.mkdir(path.dirname(full), { recursive: true })
  await fs.writeFile(full, content)
  return full
}

describe('Read', () => {
  it('numbers lines as Claude Code does and reports its tool_response, counting lines as it counts them (claude-code-hooks.md §6 PostToolUse)', async () => {
    const full = await file('a.txt', 'alpha\nbeta\r\ngamma\n')
    const out = await readTool.execute({ file_path: full }, makeExec(dir))
    expect(out.isError).toBeUndefined()
    expect(out.content).toBe('1\talpha\n2\tbeta\n3\tgamma\n4\t')
    const structured: ReadStructured = { type: 'text', file: { filePath: full, content: 'alpha\nbeta\ngamma\n', numLines: 4, startLine: 1, totalLines: 4 } }
    expect(JSON.stringify(out.structured)).toBe(JSON.stringify(structured))
  })

  it('"hello\\n" is two lines and its content keeps the trailing newline (Claude Code counts this way)', async () => {
    const full = await file('hello.txt', 'hello\n')
    const out = await readTool.execute({ file_path: full }, makeExec(dir))
    expect(out.content).toBe('1\thello\n2\t')
    expect(out.structured).toEqual({ type: 'text', file: { filePath: full, content: 'hello\n', numLines: 2, startLine: 1, totalLines: 2 } })
  })

  it('resolves a relative file_path against the working directory', async () => {
    await file('sub/b.txt', 'hello')
    const out = await readTool.execute({ file_path: 'sub/b.txt' }, makeExec(dir))
    expect(out.content).toBe('1\thello')
    expect((out.structured as ReadStructured).file.filePath).toBe(path.join(dir, 'sub/b.txt'))
  })

  it('returns the window given by offset and limit, numbered from offset', async () => {
    const full = await file('long.txt', Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n'))
    const out = await readTool.execute({ file_path: full, offset: 10, limit: 3 }, makeExec(dir))
    expect(out.content).toBe('10\tline 10\n11\tline 11\n12\tline 12\n\n(Showing lines 10-12 of 50. Use offset and limit to read other lines.)')
    expect((out.structured as ReadStructured).file).toMatchObject({ numLines: 3, startLine: 10, totalLines: 50, content: 'line 10\nline 11\nline 12' })
  })

  it('applies the default line limit', async () => {
    const full = await file('long.txt', Array.from({ length: 30 }, (_, i) => `l${i + 1}`).join('\n'))
    const out = await createReadTool({ readDefaultLimit: 20 }).execute({ file_path: full }, makeExec(dir))
    expect((out.structured as ReadStructured).file).toMatchObject({ numLines: 20, totalLines: 30 })
    expect(out.content).toContain('Showing lines 1-20 of 30')
  })

  it('cuts lines longer than the limit', async () => {
    const full = await file('wide.txt', 'x'.repeat(5000))
    const out = await readTool.execute({ file_path: full }, makeExec(dir))
    expect(out.content).toBe(`1\t${'x'.repeat(2000)}… [line cut at 2000 characters]`)
  })

  it('says when offset is past the end and when the file is empty', async () => {
    const full = await file('short.txt', 'one\ntwo\n')
    const past = await readTool.execute({ file_path: full, offset: 9 }, makeExec(dir))
    expect(past.content).toContain('has 3 lines; offset 9 is past the end')
    const empty = await readTool.execute({ file_path: await file('empty.txt', '') }, makeExec(dir))
    expect(empty.content).toContain('exists but is empty')
  })

  it.each([
    ['a missing file', 'nope.txt', 'File does not exist: '],
    ['a directory', '.', 'is a directory, not a file'],
    ['a binary file', 'bin.dat', 'is a binary file']
  ])('refuses %s clearly', async (_label, name, message) => {
    await file('bin.dat', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]))
    const out = await readTool.execute({ file_path: path.join(dir, name) }, makeExec(dir))
    expect(out.isError).toBe(true)
    expect(out.content).toContain(message)
  })

  it('is declared concurrent and free of side effects', () => {
    expect(readTool).toMatchObject({ name: 'Read', concurrent: true, sideEffects: false })
  })
})
