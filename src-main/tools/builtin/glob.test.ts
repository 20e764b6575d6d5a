import fs from 'node:fs/promises'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createGlobTool, globTool, type GlobStructured } from './glob'
import { makeExec, makeTempDir } from './test-exec'

let dir: string
beforeEach(async () => {
  dir = await makeTempDir()
})
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true })
})

/** Creates `name` with an mtime `age` seconds in the past. */
async function file(name: string, age = 0): Promise<string> {
  const full = path.join(dir, name)
  await fs.mkdir(path.dirname(full), { recursive: true })
  await fs.writeFile(full, name)
  const when = new Date(Date.now() - age * 1000)
  await fs.utimes(full, when, when)
  return full
}

describe('Glob', () => {
  it('returns absolute paths, most recently modified first', async () => {
    const old = await file('src/old.ts', 300)
    const newest = await file('src/deep/newest.ts', 0)
    const middle = await file('middle.ts', 100)
    await file('notes.md', 0)
    const out = await globTool.execute({ pattern: '**/*.ts' }, makeExec(dir))
    expect(out.content).toBe([newest, middle, old].join('\n'))
    expect(out.structured).toMatchObject({ filenames: [newest, middle, old], numFiles: 3, truncated: false })
  })

  it('searches under path and accepts an absolute pattern', async () => {
    const inside = await file('pkg/a.js')
    await file('other/b.js')
    const byPath = await globTool.execute({ pattern: '*.js', path: 'pkg' }, makeExec(dir))
    expect((byPath.structured as GlobStructured).filenames).toEqual([inside])
    const absolute = await globTool.execute({ pattern: `${dir}/pkg/*.js` }, makeExec('/'))
    expect((absolute.structured as GlobStructured).filenames).toEqual([inside])
  })

  it('skips node_modules and .git unless the pattern names them, and includes dot files', async () => {
    const dot = await file('.env.js')
    await file('node_modules/lib/index.js')
    await file('.git/hooks/pre-commit.js')
    const out = await globTool.execute({ pattern: '**/*.js' }, makeExec(dir))
    expect((out.structured as GlobStructured).filenames).toEqual([dot])
    const named = await globTool.execute({ pattern: 'node_modules/**/*.js' }, makeExec(dir))
    expect((named.structured as GlobStructured).filenames).toEqual([path.join(dir, 'node_modules/lib/index.js')])
  })

  it('caps the results and says so', async () => {
    for (let i = 0; i < 5; i++) await file(`f${i}.txt`, i * 10)
    const out = await createGlobTool({ globMaxResults: 3 }).execute({ pattern: '*.txt' }, makeExec(dir))
    const structured = out.structured as GlobStructured
    expect(structured).toMatchObject({ numFiles: 3, truncated: true })
    expect(structured.filenames).toEqual(['f0.txt', 'f1.txt', 'f2.txt'].map((name) => path.join(dir, name)))
    expect(out.content).toContain('Showing the 3 most recently modified of 5 matches')
  })

  it('says when nothing matches', async () => {
    const out = await globTool.execute({ pattern: '**/*.nothing' }, makeExec(dir))
    expect(out).toMatchObject({ content: 'No files found', structured: { filenames: [], numFiles: 0 } })
  })

  it.each([
    ['a missing path', { pattern: '*', path: 'missing' }, 'Directory does not exist'],
    ['a file as path', { pattern: '*', path: 'plain.txt' }, 'is not a directory'],
    ['".." after a wildcard', { pattern: '*/../../x' }, 'uses ".." after a wildcard']
  ])('refuses %s', async (_label, args, message) => {
    await file('plain.txt')
    const out = await globTool.execute(args, makeExec(dir))
    expect(out.isError).toBe(true)
    expect(out.content).toContain(message)
  })
})
