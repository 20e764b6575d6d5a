// Benchmark: session start with 50 skills installed (issue 29). A session on the real agent loop
// (kernel, tools, prompt, the skills plugin, a session log on disk, the scripted model answering
// at once) from `send` of its first prompt to the end of that turn: session start (every skill
// root read, 50 SKILL.md parsed, the listing logged), the prompt's re-check, the request. Baseline,
// same run: the same session with the skills plugin loaded and no skill installed. Each round is a
// fresh kernel (as a new Seam process) with no parse cache; medians of 15 alternating rounds. A
// second line: the same with the cross-process parse cache warm (`<Seam home>/skills/parsed.json`,
// what every start after the first finds); a third: the next prompt of the same session (the files
// are stat'ed, not parsed again).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createLoopFixture } from '../src-main/agent/loop-fixture'
import skills from '../plugins/skills/index'
import { line, type BenchLine } from './measure'

const SKILLS = 50
const ROUNDS = 15

export async function run(): Promise<BenchLine[]> {
  const root = await mkdtemp(join(tmpdir(), 'seam-bench-skills-'))
  try {
    const withSkills = join(root, 'with')
    const without = join(root, 'without')
    await mkdir(join(without, 'home'), { recursive: true })
    for (let i = 0; i < SKILLS; i++) {
      const dir = join(withSkills, 'home', '.claude', 'skills', `skill-${String(i).padStart(2, '0')}`)
      await mkdir(dir, { recursive: true })
      const front = `description: Skill number ${i}, for tasks of kind ${i} in this project\nwhen_to_use: when the user asks about kind ${i}\nallowed-tools: Read, Bash(git status:*)\nargument-hint: [target]`
      await writeFile(join(dir, 'SKILL.md'), `---\n${front}\n---\n# Skill ${i}\n\n${'Instructions line.\n'.repeat(80)}`)
    }
    const first: Record<'with' | 'without' | 'cached', number[]> = { with: [], without: [], cached: [] }
    const next: Record<'with' | 'without' | 'cached', number[]> = { with: [], without: [], cached: [] }
    const cacheFile = join(root, 'seam-home', 'skills', 'parsed.json')
    for (let r = 0; r < ROUNDS + 1; r++) {
      const runs = [
        ['with', join(withSkills, 'home'), undefined],
        ['cached', join(withSkills, 'home'), cacheFile],
        ['without', join(without, 'home'), undefined]
      ] as const
      for (const [key, home, cache] of runs) {
        const times = await session(home, cache)
        if (r === 0) continue // warm-up: module loading, the JIT (and the parse cache's first write)
        first[key].push(times.first)
        next[key].push(times.next)
      }
    }
    return [
      line('skills', `session start to the end of its first turn, ${SKILLS} skills installed (vs none)`, median(first.with), 'ms', median(first.without)),
      line('skills', `session start to the end of its first turn, ${SKILLS} skills installed, parse cache warm (vs none)`, median(first.cached), 'ms', median(first.without)),
      line('skills', `a later prompt's turn, ${SKILLS} skills installed (vs none)`, median(next.with), 'ms', median(next.without))
    ]
  } finally {
    await rm(root, { recursive: true, force: true })
  }
}

async function session(home: string, parseCacheFile: string | undefined): Promise<{ first: number; next: number }> {
  const config = { home, codexHome: join(home, '.codex'), ...(parseCacheFile ? { parseCacheFile } : {}) }
  const fixture = await createLoopFixture({ script: () => ({ text: 'ok' }), setup: (kernel) => void kernel.plugin(skills, config) })
  try {
    const t0 = performance.now()
    fixture.agent.send('hello')
    await fixture.agent.whenIdle()
    const t1 = performance.now()
    fixture.agent.send('again')
    await fixture.agent.whenIdle()
    return { first: t1 - t0, next: performance.now() - t1 }
  } finally {
    await fixture.cleanup()
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}
