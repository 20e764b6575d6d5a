// What the built CLI evaluates at start: every module of every chunk it imports statically. The UI
// contract (src-shared/contract/ipc.ts, with the contracts it composes) builds about 1,200 zod
// schemas, a quarter of what a `seam` process built at start, for requests only the web host and
// the Electron main serve: the CLI must not import it, not even for one constant of it (those live
// in small modules of their own: setting-kinds.ts, session-page.ts).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../test-support/built-cli'

const OUT = join(REPO_ROOT, 'out', 'main')

/** The source modules (from the bundler's `// path` markers) of `entry` and of every chunk it imports statically, transitively. */
function modulesLoadedAtStart(entry: string): Set<string> {
  const modules = new Set<string>()
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    const text = readFileSync(file, 'utf8')
    for (const [, source] of text.matchAll(/^\/\/ ((?:src-main|src-shared|plugins|packages)\/\S+\.tsx?)$/gm)) modules.add(source!)
    for (const [, chunk] of text.matchAll(/^import\b[^;]*?from "(\.{1,2}\/[^"]+\.js)";?$/gm)) visit(join(file, '..', chunk!))
  }
  visit(join(OUT, entry))
  return modules
}

describe('the modules a built entry evaluates at start', () => {
  it('the web host evaluates the UI contract (so its marker is there to be found)', () => {
    expect(modulesLoadedAtStart('web.js')).toContain('src-shared/contract/ipc.ts')
  })

  it('the CLI does not: it reads the provider kinds, approval modes and session page size from their own modules', () => {
    const cli = modulesLoadedAtStart('cli.js')
    for (const contract of ['ipc', 'worktrees', 'checkpoints', 'tasks', 'subagents', 'claude-plugins']) expect(cli).not.toContain(`src-shared/contract/${contract}.ts`)
    expect(cli).toContain('src-shared/contract/setting-kinds.ts')
    expect(cli).toContain('src-main/app/runtime.ts')
  })
})
