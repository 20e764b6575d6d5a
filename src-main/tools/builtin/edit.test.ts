import fs from 'node:fs/promises'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { editTool, replaceExact, type EditStructured } from './edit'
import { makeExec, makeTempDir } from './test-exec'

let dir: string
let target: string
beforeEach(async () => {
  dir = await makeTempDir()
  target = path.join(dir, 'code.ts')
  await fs.writeFile(target, 'const a = 1\nconst b = 2\nconst a2 = 1\n')
})
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true })
})

describe('Edit', () => {
  it('replaces a unique string and reports Claude Code structured fields', async () => {
    const out = await editTool.execute({ file_path: target, old_string: 'b = 2', new_string: 'b = 3' }, makeExec(dir))
    expect(out.isError).toBeUndefined()
    expect(out.content).toBe(`The file ${target} has been updated successfully.`)
    expect(await fs.readFile(target, 'utf8')).toBe('const a = 1\nconst b = 3\nconst a2 = 1\n')
    const structured = out.structured as EditStructured
    expect(structured).toMatchObject({
      filePath: target,
      oldString: 'b = 2',
      newString: 'b = 3',
      originalFile: 'const a = 1\nconst b = 2\nconst a2 = 1\n',
      replaceAll: false,
      userModified: false
    })
    expect(structured.structuredPatch).toEqual([
      { oldStart: 1, oldLines: 3, newStart: 1, newLines: 3, lines: [' const a = 1', '-const b = 2', '+const b = 3', ' const a2 = 1'] }
    ])
  })

  it('refuses an ambiguous string, saying how many matches there are', async () => {
    const out = await editTool.execute({ file_path: target, old_string: '= 1', new_string: '= 9' }, makeExec(dir))
    expect(out.isError).toBe(true)
    expect(out.content).toContain('occurs 2 times')
    expect(out.content).toContain('replace_all')
    expect(await fs.readFile(target, 'utf8')).toBe('const a = 1\nconst b = 2\nconst a2 = 1\n')
  })

  it('replaces every occurrence with replace_all', async () => {
    const out = await editTool.execute({ file_path: target, old_string: '= 1', new_string: '= 9', replace_all: true }, makeExec(dir))
    expect(out.isError).toBeUndefined()
    expect(await fs.readFile(target, 'utf8')).toBe('const a = 9\nconst b = 2\nconst a2 = 9\n')
    expect((out.structured as EditStructured).replaceAll).toBe(true)
  })

  it.each([
    ['a string that is not there', { old_string: 'nope', new_string: 'x' }, 'String to replace not found in file'],
    ['identical old and new strings', { old_string: 'b = 2', new_string: 'b = 2' }, 'old_string and new_string are identical'],
    ['an empty old_string on a file with content', { old_string: '', new_string: 'x' }, 'already has content']
  ])('refuses %s', async (_label, args, message) => {
    const out = await editTool.execute({ file_path: target, ...args }, makeExec(dir))
    expect(out.isError).toBe(true)
    expect(out.content).toContain(message)
  })

  it('reports a missing file', async () => {
    const out = await editTool.execute({ file_path: path.join(dir, 'missing.ts'), old_string: 'a', new_string: 'b' }, makeExec(dir))
    expect(out).toMatchObject({ isError: true, content: `File does not exist: ${path.join(dir, 'missing.ts')}` })
  })

  it('creates a new file when old_string is empty', async () => {
    const created = path.join(dir, 'new/file.txt')
    const out = await editTool.execute({ file_path: created, old_string: '', new_string: 'fresh\n' }, makeExec(dir))
    expect(out.content).toBe(`File created successfully at: ${created}`)
    expect(await fs.readFile(created, 'utf8')).toBe('fresh\n')
  })

  it('keeps $ sequences in new_string literal', async () => {
    await editTool.execute({ file_path: target, old_string: 'b = 2', new_string: "b = '$&$1'" }, makeExec(dir))
    expect(await fs.readFile(target, 'utf8')).toContain("const b = '$&$1'")
  })

  it('matches LF strings against a CRLF file and keeps CRLF', () => {
    expect(replaceExact('one\r\ntwo\r\nthree\r\n', 'one\ntwo', 'uno\ndos', false)).toBe('uno\r\ndos\r\nthree\r\n')
  })
})
