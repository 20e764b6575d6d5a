import fs from 'node:fs/promises'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createGrepTool, grepTool, type GrepStructured } from './grep'
import { makeExec, makeTempDir } from './test-exec'

let dir: string
let a: string
let b: string
beforeEach(async () => {
  dir = await makeTempDir()
  a = await file('src/a.ts', 'import x\nconst Value = 1\nfunction go() {}\nconst other = 2\n', 100)
  b = await file('src/b.py', 'value = 3\nprint(value)\n', 0)
})
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true })
})

async function file(name: string, content: string | Buffer, age = 0): Promise<string> {
  const full = path.join(dir, name)
  await fs.mkdir(path.dirname(full), { recursive: true })
  await fs.writeFile(full, content)
  const when = new Date(Date.now() - age * 1000)
  await fs.utimes(full, when, when)
  return full
}

describe('Grep', () => {
  it('lists matching files newest first by default', async () => {
    const out = await grepTool.execute({ pattern: 'value', '-i': true }, makeExec(dir))
    expect(out.content).toBe(`Found 2 files\n${b}\n${a}`)
    expect(out.structured).toEqual({ mode: 'files_with_matches', numFiles: 2, filenames: [b, a] })
  })

  it('is case-sensitive unless -i is set', async () => {
    const out = await grepTool.execute({ pattern: 'Value' }, makeExec(dir))
    expect((out.structured as GrepStructured).filenames).toEqual([a])
  })

  it('shows matching lines with numbers in content mode', async () => {
    const out = await grepTool.execute({ pattern: 'const \\w+', output_mode: 'content' }, makeExec(dir))
    expect(out.content).toBe(`${a}:2:const Value = 1\n${a}:4:const other = 2`)
    expect(out.structured).toMatchObject({ mode: 'content', numLines: 2 })
  })

  it('omits line numbers when -n is false', async () => {
    const out = await grepTool.execute({ pattern: 'print', output_mode: 'content', '-n': false }, makeExec(dir))
    expect(out.content).toBe(`${b}:print(value)`)
  })

  it('shows context lines with -C, -A and -B, separating groups with --', async () => {
    const context = await grepTool.execute({ pattern: 'go\\(', output_mode: 'content', '-C': 1, path: 'src/a.ts' }, makeExec(dir))
    expect(context.content).toBe(`${a}-2-const Value = 1\n${a}:3:function go() {}\n${a}-4-const other = 2`)
    await file('gaps.txt', 'm1\nx\nx\nx\nx\nm2\n')
    const after = await grepTool.execute({ pattern: '^m', output_mode: 'content', '-A': 1, path: 'gaps.txt' }, makeExec(dir))
    const g = path.join(dir, 'gaps.txt')
    expect(after.content).toBe(`${g}:1:m1\n${g}-2-x\n--\n${g}:6:m2`)
    const before = await grepTool.execute({ pattern: 'm2', output_mode: 'content', '-B': 2, path: 'gaps.txt' }, makeExec(dir))
    expect(before.content).toBe(`${g}-4-x\n${g}-5-x\n${g}:6:m2`)
  })

  it('counts matching lines per file', async () => {
    const out = await grepTool.execute({ pattern: 'value', output_mode: 'count', '-i': true }, makeExec(dir))
    expect(out.content).toBe(`${a}:1\n${b}:2\n\nFound 3 total occurrences across 2 files.`)
    expect(out.structured).toMatchObject({ mode: 'count', numFiles: 2, numMatches: 3 })
  })

  it('filters by glob and by type', async () => {
    const byGlob = await grepTool.execute({ pattern: '=', glob: '*.py' }, makeExec(dir))
    expect((byGlob.structured as GrepStructured).filenames).toEqual([b])
    const byType = await grepTool.execute({ pattern: '=', type: 'ts' }, makeExec(dir))
    expect((byType.structured as GrepStructured).filenames).toEqual([a])
    const braces = await grepTool.execute({ pattern: '=', glob: 'src/**/*.{ts,py}' }, makeExec(dir))
    expect((braces.structured as GrepStructured).numFiles).toBe(2)
  })

  it('matches across lines in multiline mode', async () => {
    const out = await grepTool.execute({ pattern: 'import x.*function', multiline: true, output_mode: 'content' }, makeExec(dir))
    expect(out.content).toBe(`${a}:1:import x\n${a}:2:const Value = 1\n${a}:3:function go() {}`)
    const single = await grepTool.execute({ pattern: 'import x.*function' }, makeExec(dir))
    expect(single.content).toBe('No files found')
  })

  it('applies head_limit', async () => {
    const out = await grepTool.execute({ pattern: '.', output_mode: 'content', head_limit: 2 }, makeExec(dir))
    expect(out.content.split('\n')).toHaveLength(2)
  })

  it('skips binary files, oversized files, node_modules and .git', async () => {
    await file('bin.dat', Buffer.concat([Buffer.from('needle'), Buffer.from([0, 1, 2])]))
    await file('big.txt', `needle\n${'y'.repeat(2000)}`)
    await file('node_modules/m/index.js', 'needle')
    await file('.git/config', 'needle')
    const small = await file('small.txt', 'needle')
    const out = await createGrepTool({ grepMaxFileBytes: 1000 }).execute({ pattern: 'needle' }, makeExec(dir))
    expect((out.structured as GrepStructured).filenames).toEqual([small])
  })

  it.each([
    ['an invalid regex', { pattern: '(' }, 'Invalid regular expression'],
    ['an unknown type', { pattern: 'x', type: 'cobol' }, 'Unknown type "cobol"'],
    ['a missing path', { pattern: 'x', path: 'nowhere' }, 'Path does not exist'],
    ['an escaping glob', { pattern: 'x', glob: '../*.ts' }, 'cannot be absolute or contain ".."']
  ])('reports %s', async (_label, args, message) => {
    const out = await grepTool.execute(args, makeExec(dir))
    expect(out.isError).toBe(true)
    expect(out.content).toContain(message)
  })

  it('accepts a leading (?i) like ripgrep', async () => {
    const out = await grepTool.execute({ pattern: '(?i)VALUE =' }, makeExec(dir))
    expect((out.structured as GrepStructured).filenames).toEqual([b, a])
  })
})
