// Ignore files as ripgrep reads them (what Claude Code's Glob and Grep run on): nested .gitignore
// inside a git repository, .git/info/exclude, the global excludes file, .ignore and .rgignore anywhere, negation, the
// deepest rule winning, and `include_ignored` turning it all off (.git stays out).
import fs from 'node:fs/promises'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { listFiles, walkFiles } from './file-walk'
import { createGlobTool, globTool, type GlobStructured } from './glob'
import { grepTool, type GrepStructured } from './grep'
import { makeExec, makeTempDir } from './test-exec'

let dir: string
beforeEach(async () => {
  dir = await makeTempDir()
})
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true })
})

async function write(name: string, content = `${name}\n`): Promise<void> {
  const full = path.join(dir, name)
  await fs.mkdir(path.dirname(full), { recursive: true })
  await fs.writeFile(full, content)
}

async function listed(root = dir, options: { includeIgnored?: boolean } = {}): Promise<string[]> {
  const files = await listFiles(root, '**/*', undefined, options)
  return files.map((file) => path.relative(dir, file)).sort()
}

describe('ignore files (ripgrep semantics, as Claude Code Glob/Grep)', () => {
  it('applies nested .gitignore files relative to their own folder, with negation and the deepest rule winning', async () => {
    await fs.mkdir(path.join(dir, '.git'))
    await write('.gitignore', '*.log\n!keep.log\nbuild/\n')
    await write('app.ts')
    await write('debug.log')
    await write('keep.log')
    await write('build/out.js')
    await write('pkg/.gitignore', 'secret.txt\n!*.log\n')
    await write('pkg/secret.txt')
    await write('pkg/trace.log')
    await write('pkg/deep/secret.txt')
    await write('other/secret.txt')
    expect(await listed()).toEqual(['.gitignore', 'app.ts', 'keep.log', 'other/secret.txt', 'pkg/.gitignore', 'pkg/trace.log'])
  })

  it('reads .git/info/exclude, and .gitignore only inside a git repository (as ripgrep does)', async () => {
    await write('.gitignore', 'a.txt\n')
    await write('a.txt')
    await write('b.txt')
    expect(await listed()).toEqual(['.gitignore', 'a.txt', 'b.txt'])
    await write('.git/info/exclude', 'b.txt\n')
    expect(await listed()).toEqual(['.gitignore'])
  })

  it('reads the global excludes file inside a git repository: core.excludesFile, else ~/.config/git/ignore; the repository\'s own files outrank it', async () => {
    const plainHome = await makeTempDir()
    const configuredHome = await makeTempDir()
    try {
      await write('notes.bak')
      await write('keep.bak')
      await write('scratch.tmp')
      await write('src/x.ts')
      const files = async (home: string) => (await walkFiles(dir, { env: { ...process.env, HOME: home, XDG_CONFIG_HOME: '', GIT_CONFIG_NOSYSTEM: '1' } })).files.map((f) => path.relative(dir, f)).sort()
      // git's default place, and only inside a repository.
      await fs.mkdir(path.join(plainHome, '.config', 'git'), { recursive: true })
      await fs.writeFile(path.join(plainHome, '.config', 'git', 'ignore'), '*.tmp\n')
      expect(await files(plainHome)).toEqual(['keep.bak', 'notes.bak', 'scratch.tmp', 'src/x.ts'])
      await fs.mkdir(path.join(dir, '.git'))
      expect(await files(plainHome)).toEqual(['keep.bak', 'notes.bak', 'src/x.ts'])
      // core.excludesFile in the user's git config (with ~) replaces the default place.
      await fs.mkdir(path.join(configuredHome, '.config', 'git'), { recursive: true })
      await fs.writeFile(path.join(configuredHome, '.config', 'git', 'ignore'), '*.tmp\n')
      await fs.writeFile(path.join(configuredHome, '.gitconfig'), '[core]\n\texcludesFile = ~/my-ignore\n')
      await fs.writeFile(path.join(configuredHome, 'my-ignore'), '*.bak\n')
      expect(await files(configuredHome)).toEqual(['scratch.tmp', 'src/x.ts'])
      await write('.git/info/exclude', '!keep.bak\n')
      expect(await files(configuredHome)).toEqual(['keep.bak', 'scratch.tmp', 'src/x.ts'])
    } finally {
      await fs.rm(plainHome, { recursive: true, force: true })
      await fs.rm(configuredHome, { recursive: true, force: true })
    }
  })

  it('honours .ignore and .rgignore with or without git; .ignore outranks .gitignore in the same folder', async () => {
    await write('.ignore', 'dist/\n!wanted.gen\n')
    await write('.rgignore', 'tmp.txt\n')
    await write('dist/bundle.js')
    await write('tmp.txt')
    await write('src/x.ts')
    expect(await listed()).toEqual(['.ignore', '.rgignore', 'src/x.ts'])
    await fs.mkdir(path.join(dir, '.git'))
    await write('.gitignore', '*.gen\n')
    await write('wanted.gen')
    await write('other.gen')
    expect(await listed()).toContain('wanted.gen')
    expect(await listed()).not.toContain('other.gen')
  })

  it('applies the rules of folders above the searched one, and searches an ignored folder it is pointed at', async () => {
    await fs.mkdir(path.join(dir, '.git'))
    await write('.gitignore', '*.log\ngenerated/\n')
    await write('sub/a.ts')
    await write('sub/a.log')
    await write('generated/code.ts')
    expect(await listed(path.join(dir, 'sub'))).toEqual(['sub/a.ts'])
    expect(await listed(path.join(dir, 'generated'))).toEqual(['generated/code.ts'])
  })

  it('include_ignored lists everything but version-control folders, which are never searched', async () => {
    await fs.mkdir(path.join(dir, '.git'))
    await write('.git/config')
    await write('.hg/store')
    await write('.gitignore', '*.log\n')
    await write('x.log')
    await write('node_modules/lib/index.js')
    expect(await listed(dir, { includeIgnored: true })).toEqual(['.gitignore', 'node_modules/lib/index.js', 'x.log'])
    expect(await listed()).toEqual(['.gitignore'])
  })

  it('stops at maxFiles and says the list is truncated; the shallowest files come first', async () => {
    await write('a/b/c/deep.txt')
    await write('top1.txt')
    await write('top2.txt')
    const result = await walkFiles(dir, { maxFiles: 2 })
    expect(result).toEqual({ files: [path.join(dir, 'top1.txt'), path.join(dir, 'top2.txt')], truncated: true })
  })

  it('Glob and Grep leave ignored files out unless include_ignored is true; their tool_response keys stay Claude Code\'s', async () => {
    await fs.mkdir(path.join(dir, '.git'))
    await write('.gitignore', 'out/\n')
    await write('src/a.ts', 'needle\n')
    await write('out/a.ts', 'needle\n')
    const glob = await globTool.execute({ pattern: '**/*.ts' }, makeExec(dir))
    expect((glob.structured as GlobStructured).filenames).toEqual([path.join(dir, 'src/a.ts')])
    expect(Object.keys(glob.structured as object)).toEqual(['filenames', 'durationMs', 'numFiles', 'truncated'])
    const globAll = await globTool.execute({ pattern: '**/*.ts', include_ignored: true }, makeExec(dir))
    expect([...(globAll.structured as GlobStructured).filenames].sort()).toEqual([path.join(dir, 'out/a.ts'), path.join(dir, 'src/a.ts')])

    const grep = await grepTool.execute({ pattern: 'needle' }, makeExec(dir))
    expect(grep.structured).toEqual({ mode: 'files_with_matches', filenames: [path.join(dir, 'src/a.ts')], numFiles: 1 })
    const grepAll = await grepTool.execute({ pattern: 'needle', include_ignored: true, output_mode: 'count' }, makeExec(dir))
    expect((grepAll.structured as GrepStructured).numFiles).toBe(2)

    // The builtin-tools option `respectIgnoreFiles: false` makes include_ignored the default; a call can still ask for the rules.
    const lenient = createGlobTool({ respectIgnoreFiles: false })
    expect((await lenient.execute({ pattern: '**/*.ts' }, makeExec(dir))).structured).toMatchObject({ numFiles: 2 })
    expect((await lenient.execute({ pattern: '**/*.ts', include_ignored: false }, makeExec(dir))).structured).toMatchObject({ numFiles: 1 })
  })

  it('a pattern without ** does not descend past its depth; one naming node_modules walks it', async () => {
    await write('top.ts')
    await write('a/nested.ts')
    await write('node_modules/pkg/index.ts')
    expect((await listFiles(dir, '*.ts')).map((f) => path.relative(dir, f))).toEqual(['top.ts'])
    expect((await listFiles(dir, '**/node_modules/**/*.ts')).map((f) => path.relative(dir, f))).toEqual(['node_modules/pkg/index.ts'])
  })
})
