import fs from 'node:fs/promises'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { writeTool, type WriteStructured } from './write'
import { makeExec, makeTempDir } from './test-exec'

let dir: string
beforeEach(async () => {
  dir = await makeTempDir()
})
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true })
})

describe('Write', () => {
  it('creates missing parent directories and reports a create', async () => {
    const target = path.join(dir, 'deep/er/new.txt')
    const out = await writeTool.execute({ file_path: target, content: 'hello\n' }, makeExec(dir))
    expect(out.isError).toBeUndefined()
    expect(out.content).toBe(`File created successfully at: ${target}`)
    expect(await fs.readFile(target, 'utf8')).toBe('hello\n')
    expect(out.structured).toEqual({ type: 'create', filePath: target, content: 'hello\n', originalFile: null, structuredPatch: [], userModified: false })
  })

  it('reports an update with the original content and a patch', async () => {
    const target = path.join(dir, 'f.txt')
    await fs.writeFile(target, 'a\nb\nc\n')
    const out = await writeTool.execute({ file_path: 'f.txt', content: 'a\nB\nc\n' }, makeExec(dir))
    const structured = out.structured as WriteStructured
    expect(structured.type).toBe('update')
    expect(structured.originalFile).toBe('a\nb\nc\n')
    expect(structured.structuredPatch).toEqual([{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 3, lines: [' a', '-b', '+B', ' c'] }])
    expect(await fs.readFile(target, 'utf8')).toBe('a\nB\nc\n')
  })

  it('keeps the permission bits of a replaced file and leaves no temp files behind', async () => {
    const target = path.join(dir, 'run.sh')
    await fs.writeFile(target, 'old')
    await fs.chmod(target, 0o750)
    await writeTool.execute({ file_path: target, content: 'new' }, makeExec(dir))
    expect((await fs.stat(target)).mode & 0o777).toBe(0o750)
    expect(await fs.readdir(dir)).toEqual(['run.sh'])
  })

  it('writes through a symlink to the file it points at', async () => {
    const real = path.join(dir, 'real.txt')
    await fs.writeFile(real, 'old')
    await fs.symlink(real, path.join(dir, 'link.txt'))
    await writeTool.execute({ file_path: path.join(dir, 'link.txt'), content: 'new' }, makeExec(dir))
    expect((await fs.lstat(path.join(dir, 'link.txt'))).isSymbolicLink()).toBe(true)
    expect(await fs.readFile(real, 'utf8')).toBe('new')
  })

  it('refuses to write over a directory', async () => {
    await fs.mkdir(path.join(dir, 'sub'))
    const out = await writeTool.execute({ file_path: path.join(dir, 'sub'), content: 'x' }, makeExec(dir))
    expect(out).toMatchObject({ isError: true })
    expect(out.content).toContain('is a directory')
  })

  it('says when a parent path is a file', async () => {
    await fs.writeFile(path.join(dir, 'plain'), '')
    const out = await writeTool.execute({ file_path: path.join(dir, 'plain/child.txt'), content: 'x' }, makeExec(dir))
    expect(out.isError).toBe(true)
    expect(out.content).toMatch(/not a directory|already exists/)
  })
})
