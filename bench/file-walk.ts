// Glob and Grep over a tree with and without ignore files (issue 16): ms per call, best of
// alternating rounds, on a generated tree of 2,000 source files plus a 10,000-file build folder.
// - glob-ignored-pruned: Glob `**/*.ts` where .gitignore excludes build/ (never entered), against
//   the same tree without the ignore file (build/ walked and listed).
// - glob-rules-overhead: Glob `**/*.ts` with 40 .gitignore rules that match nothing (every path
//   tested, nothing pruned) against the same tree without rules.
// - glob-walker: the listing alone (`listFiles`, include_ignored: no rules read) against
//   tinyglobby, which the tools used before, with the same options (dot files, no symlinks,
//   .git/node_modules skipped). Glob's newest-first sort (a stat per file) is left out of both.
// - grep-ignored-pruned: Grep `needle` (files_with_matches) with build/ ignored against without.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { glob } from 'tinyglobby'
import { listFiles } from '../src-main/tools/builtin/file-walk'
import { globTool } from '../src-main/tools/builtin/glob'
import { grepTool } from '../src-main/tools/builtin/grep'
import { makeExec } from '../src-main/tools/builtin/test-exec'
import { line, type BenchLine } from './measure'

async function makeTree(root: string): Promise<void> {
  await mkdir(join(root, '.git'), { recursive: true })
  for (let d = 0; d < 100; d++) {
    const dir = join(root, 'src', `mod${d}`)
    await mkdir(dir, { recursive: true })
    for (let f = 0; f < 20; f++) await writeFile(join(dir, `file${f}.ts`), `export const value${f} = ${d * f}\n${f === 7 ? 'const needle = 1\n' : ''}`)
  }
  for (let d = 0; d < 100; d++) {
    const dir = join(root, 'build', `chunk${d}`)
    await mkdir(dir, { recursive: true })
    for (let f = 0; f < 100; f++) await writeFile(join(dir, `out${f}.ts`), `var needle${f}=1\n`)
  }
}

async function msPerCall(fn: () => Promise<unknown>, rounds: number): Promise<number> {
  let best = Infinity
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint()
    await fn()
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e6)
  }
  return best
}

/** ms per call of `subject` and `baseline`, alternating rounds (load hits both alike), best of each. */
async function compareMs(subject: () => Promise<unknown>, baseline: () => Promise<unknown>, rounds = 7): Promise<{ value: number; baseline: number }> {
  await subject()
  await baseline()
  let value = Infinity
  let base = Infinity
  for (let r = 0; r < rounds; r++) {
    base = Math.min(base, await msPerCall(baseline, 1))
    value = Math.min(value, await msPerCall(subject, 1))
  }
  return { value, baseline: base }
}

export async function run(): Promise<BenchLine[]> {
  const root = await mkdtemp(join(tmpdir(), 'seam-bench-walk-'))
  try {
    await makeTree(root)
    const exec = makeExec(root)
    const globTs = async () => globTool.execute({ pattern: '**/*.ts' }, exec)
    const lines: BenchLine[] = []
    const ignoreFile = join(root, '.gitignore')

    const setIgnore = (text: string | undefined) => (text === undefined ? rm(ignoreFile, { force: true }) : writeFile(ignoreFile, text))
    const pruned = await compareMs(
      async () => (await setIgnore('build/\n'), globTs()),
      async () => (await setIgnore(undefined), globTs())
    )
    lines.push(line('file-walk', 'glob-ignored-pruned', pruned.value, 'ms', pruned.baseline))

    const rules = Array.from({ length: 40 }, (_, i) => `*.gen${i}\n/nothing${i}/\n`).join('')
    await mkdir(join(root, 'spare'), { recursive: true })
    const overhead = await compareMs(
      async () => (await setIgnore(rules), globTs()),
      async () => (await setIgnore(undefined), globTs())
    )
    lines.push(line('file-walk', 'glob-rules-overhead', overhead.value, 'ms', overhead.baseline))

    await setIgnore(undefined)
    const walker = await compareMs(
      () => listFiles(root, '**/*.ts', undefined, { includeIgnored: true }),
      () => glob('**/*.ts', { cwd: root, absolute: true, dot: true, onlyFiles: true, followSymbolicLinks: false, expandDirectories: false, ignore: ['**/.git/**', '**/node_modules/**'] })
    )
    lines.push(line('file-walk', 'glob-walker', walker.value, 'ms', walker.baseline))

    const grep = async () => grepTool.execute({ pattern: 'needle' }, exec)
    const grepPruned = await compareMs(
      async () => (await setIgnore('build/\n'), grep()),
      async () => (await setIgnore(undefined), grep()),
      5
    )
    lines.push(line('file-walk', 'grep-ignored-pruned', grepPruned.value, 'ms', grepPruned.baseline))
    return lines
  } finally {
    await rm(root, { recursive: true, force: true })
  }
}
