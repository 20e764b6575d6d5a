// zod-jitless.ts must run before any module builds a schema: a schema built earlier keeps zod's
// code generation, and before generating any, zod checks once that the process allows it, with
// `new Function("")`. So a built `seam run` (two model responses read, Bash run) must never make
// that empty function. The schemas of session events are compiled on purpose (zod's `compile`,
// src-main/session/event-check.ts): their functions have bodies and are not counted.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT, runSeamHeadless, useCliScratch } from '../../test-support/built-cli'
import { startFakeAnthropic } from '../../test-support/fake-anthropic.mjs'

/** A preload counting the empty functions made with `new Function("")`, printed to stderr at exit. */
function probeCounter(dir: string): string {
  const file = join(dir, 'count-probes.mjs')
  writeFileSync(
    file,
    `const F = globalThis.Function; let made = 0
globalThis.Function = new Proxy(F, { construct: (t, a) => (a.length === 1 && a[0] === '' && made++, Reflect.construct(t, a)) })
process.on('exit', () => process.stderr.write('\\n[probes] ' + made + '\\n'))
`
  )
  return file
}

function probes(stderr: string): number | undefined {
  const match = /\[probes\] (\d+)/.exec(stderr)
  return match ? Number(match[1]) : undefined
}

describe('zod without code generation in the built processes', () => {
  let dirs = { home: '', workspace: '' }
  useCliScratch('zod-jitless', (made) => (dirs = made))

  it('the counter sees the probe', () => {
    const child = spawnSync(process.execPath, ['--import', probeCounter(dirs.home), '-e', 'new Function(""); new Function("return 1")'], { encoding: 'utf8' })
    expect(probes(child.stderr), child.stderr).toBe(1)
  })

  it('a seam run of a Bash call and an answer never asks whether it may generate code', async () => {
    const counter = probeCounter(dirs.home)
    const server = await startFakeAnthropic([{ toolCalls: [{ name: 'Bash', args: { command: 'echo hi' } }] }, { text: 'Done.' }])
    try {
      const result = await runSeamHeadless(
        ['run', '--workspace', dirs.workspace, '--trust-workspace', '--provider', 'anthropic', '--base-url', server.url, '--api-key-env', 'FAKE_KEY', '--model', 'claude-test', '--approve', 'allow', 'say hi'],
        { cwd: dirs.workspace, home: dirs.home, env: { NODE_OPTIONS: `--import=${counter}` } }
      )
      expect(result.code, result.stderr).toBe(0)
      expect(result.stdout).toContain('Done.')
      expect(probes(result.stderr), result.stderr).toBe(0)
    } finally {
      await server.close()
    }
  })

  it('each entry (CLI, web host, Electron main) imports zod-jitless before anything else that builds a schema', () => {
    for (const entry of ['cli.js', 'web.js', 'index.js']) {
      const imports = readFileSync(join(REPO_ROOT, 'out', 'main', entry), 'utf8').match(/^import .*$/gm) ?? []
      const first = imports.findIndex((line) => /chunks\/zod-jitless-/.test(line))
      expect(first, `${entry} imports the zod-jitless chunk`).toBeGreaterThanOrEqual(0)
      // Only the bundler's runtime helpers may come before it.
      expect(imports.slice(0, first).every((line) => /rolldown-runtime/.test(line)), `${entry}: ${imports.slice(0, first + 1).join(' | ')}`).toBe(true)
    }
  })
})
