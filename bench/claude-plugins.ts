// Benchmark: session start with 10 Claude Code plugins installed (issue 29). A session on the real
// agent loop through the SDK's test host (workspace service, Seam home on disk) with the
// claude-plugins, skills and hooks-claude plugins, from `send` of its first prompt to the end of
// that turn: the catalog reads `installed_plugins.json`, verifies each copy's content hash, reads
// the ten manifests, components and hooks files; the skills plugin reads the plugins' skills; the
// hooks bridge loads their hooks (a PreToolUse hook each: it does not fire on a turn without
// tools). Baseline, same run: the same plugins loaded with nothing installed. The plugins have no
// MCP server (a server is a process whose start is the mcp bench's subject). Each round is a fresh
// host (nothing cached, as a new Seam process); medians of 15 alternating rounds.
// A second line, same run and same baseline: the 10 plugins AND 50 personal skills
// (~/.claude/skills, as bench/skills.ts writes them) installed together, every SKILL.md parsed
// (no parse cache, as a first start).
// A third line (issue 29, plugin LSP servers): each plugin also declares an LSP server in its
// `.lsp.json`, and the lsp plugin is loaded, against the second line's setup without the lsp plugin:
// servers start on first use of a file they serve, so a session start spawns nothing.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestHost } from '../packages/sdk/testing'
import claudePlugins from '../plugins/claude-plugins/index'
import { PluginManager } from '../plugins/claude-plugins/manager'
import { PluginStore } from '../plugins/claude-plugins/store'
import hooksClaude from '../plugins/hooks-claude/index'
import lsp from '../plugins/lsp/index'
import skills from '../plugins/skills/index'
import { line, type BenchLine } from './measure'

const PLUGINS = 10
const SKILLS = 50
const ROUNDS = 15

export async function run(): Promise<BenchLine[]> {
  const root = await mkdtemp(join(tmpdir(), 'seam-bench-claude-plugins-'))
  try {
    const market = join(root, 'market')
    const entries = []
    for (let i = 0; i < PLUGINS; i++) {
      const name = `plugin-${i}`
      const dir = join(market, 'plugins', name)
      await put(join(dir, '.claude-plugin', 'plugin.json'), JSON.stringify({ name, version: '1.0.0', description: `Plugin ${i}` }))
      for (let c = 0; c < 3; c++) await put(join(dir, 'commands', `cmd-${c}.md`), `---\ndescription: Command ${c}\n---\nDo thing ${c} with $ARGUMENTS.\n`)
      await put(join(dir, 'agents', 'helper.md'), `---\nname: helper\ndescription: Helps with ${i}\n---\nYou help.\n`)
      for (let s = 0; s < 2; s++) await put(join(dir, 'skills', `skill-${s}`, 'SKILL.md'), `---\nname: skill-${s}\ndescription: Skill ${s} of plugin ${i}\n---\n${'Instructions.\n'.repeat(40)}`)
      await put(join(dir, 'hooks', 'hooks.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/guard.sh' }] }] } }))
      await put(join(dir, 'guard.sh'), '#!/bin/sh\nexit 0\n')
      await put(join(dir, '.lsp.json'), JSON.stringify({ [`lang-${i}`]: { command: '${CLAUDE_PLUGIN_ROOT}/server.sh', args: ['--stdio'], extensionToLanguage: { [`.l${i}`]: `lang-${i}` } } }))
      entries.push({ name, source: `./plugins/${name}` })
    }
    await put(join(market, '.claude-plugin', 'marketplace.json'), JSON.stringify({ name: 'bench-market', owner: { name: 'bench' }, plugins: entries }))
    const withHome = join(root, 'with-home')
    const withoutHome = join(root, 'without-home')
    await mkdir(withoutHome, { recursive: true })
    const manager = new PluginManager(new PluginStore(withHome), () => [], () => {})
    await manager.addMarketplace({ source: 'directory', path: market })
    for (const entry of entries) await manager.install(`${entry.name}@bench-market`)
    const userSettings = join(root, 'claude-settings.json')
    await writeFile(userSettings, '{}')
    const skillsHome = join(root, 'skills-home')
    for (let i = 0; i < SKILLS; i++) {
      const front = `description: Skill number ${i}, for tasks of kind ${i} in this project\nwhen_to_use: when the user asks about kind ${i}\nallowed-tools: Read, Bash(git status:*)\nargument-hint: [target]`
      await put(join(skillsHome, '.claude', 'skills', `skill-${String(i).padStart(2, '0')}`, 'SKILL.md'), `---\n${front}\n---\n# Skill ${i}\n\n${'Instructions line.\n'.repeat(80)}`)
    }

    const times: Record<'with' | 'both' | 'lsp' | 'without', number[]> = { with: [], both: [], lsp: [], without: [] }
    const runs = [
      ['with', withHome, join(root, 'user-home'), false],
      ['both', withHome, skillsHome, false],
      ['lsp', withHome, skillsHome, true],
      ['without', withoutHome, join(root, 'user-home'), false]
    ] as const
    for (let r = 0; r < ROUNDS + 1; r++) {
      for (const [key, seamHome, home, withLsp] of runs) {
        const ms = await sessionStart(seamHome, userSettings, home, withLsp)
        if (r > 0) times[key].push(ms) // round 0 warms up module loading and the JIT
      }
    }
    return [
      line('claude-plugins', `session start to the end of its first turn, ${PLUGINS} Claude Code plugins installed (vs none)`, median(times.with), 'ms', median(times.without)),
      line('claude-plugins', `session start to the end of its first turn, ${SKILLS} skills and ${PLUGINS} Claude Code plugins installed together (vs none)`, median(times.both), 'ms', median(times.without)),
      line('claude-plugins', `session start to the end of its first turn, ${SKILLS} skills and ${PLUGINS} plugins with an LSP server each, the lsp plugin loaded (vs the same without it)`, median(times.lsp), 'ms', median(times.both))
    ]
  } finally {
    await rm(root, { recursive: true, force: true })
  }
}

async function sessionStart(seamHome: string, userSettingsPath: string, home: string, withLsp: boolean): Promise<number> {
  const host = await createTestHost({
    builtinTools: false,
    script: () => ({ text: 'ok' }),
    plugins: [
      [claudePlugins, { seamHome, userSettingsPath }],
      [skills, { home, codexHome: join(home, '.codex') }],
      [hooksClaude, { userSettingsPath }],
      ...(withLsp ? [[lsp, {}] as const] : [])
    ]
  })
  try {
    const t0 = performance.now()
    await host.run('hello')
    return performance.now() - t0
  } finally {
    await host.cleanup()
  }
}

async function put(file: string, text: string): Promise<void> {
  await mkdir(join(file, '..'), { recursive: true })
  await writeFile(file, text, { mode: file.endsWith('.sh') ? 0o755 : 0o644 })
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}
