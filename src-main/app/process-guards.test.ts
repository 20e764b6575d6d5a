// Errors nothing caught, in the desktop main process and web mode: logged with their stack,
// reported (host log, dialog), and the process keeps running.
import { EventEmitter } from 'node:events'
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { describeUncaught, installProcessGuards, type UncaughtKind } from './process-guards'

describe('process guards', () => {
  it('logs and reports both kinds, survives a failing reporter, and uninstalls', () => {
    const target = new EventEmitter()
    const logged: string[] = []
    const reported: Array<[UncaughtKind, unknown]> = []
    const remove = installProcessGuards({
      target: target as unknown as NodeJS.Process,
      log: (m) => logged.push(m),
      report: (kind, error) => {
        reported.push([kind, error])
        if (kind === 'unhandledRejection') throw new Error('dialog failed')
      }
    })
    const boom = new Error('boom')
    target.emit('uncaughtException', boom)
    target.emit('unhandledRejection', 'plain reason')
    expect(reported).toEqual([
      ['uncaughtException', boom],
      ['unhandledRejection', 'plain reason']
    ])
    expect(logged[0]).toMatch(/^\[seam\] uncaughtException: Error: boom\n\s+at /)
    expect(logged[1]).toBe('[seam] unhandledRejection: plain reason')
    expect(logged[2]).toBe('[seam] could not report the unhandledRejection: Error: dialog failed')
    remove()
    expect(target.listenerCount('uncaughtException')).toBe(0)
    expect(target.listenerCount('unhandledRejection')).toBe(0)
  })

  it('describes hostile values without throwing', () => {
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    expect(describeUncaught(cyclic, true)).toBe('[object Object]')
    expect(describeUncaught({ code: 1 }, false)).toBe('{"code":1}')
    expect(describeUncaught(undefined, false)).toBe('undefined')
  })

  it('a real Node process keeps running after an uncaught exception and an unhandled rejection', async () => {
    // This module has no imports: Node 20 runs it once its types are stripped.
    const dir = await mkdtemp(join(tmpdir(), 'seam-guards-'))
    const source = await readFile(new URL('./process-guards.ts', import.meta.url), 'utf8')
    const compiled = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText
    await writeFile(join(dir, 'process-guards.mjs'), compiled)
    const script = `
      import { installProcessGuards } from ${JSON.stringify(join(dir, 'process-guards.mjs'))}
      installProcessGuards()
      setTimeout(() => { throw new Error('from a timer') }, 0)
      Promise.reject(new Error('nobody awaited this'))
      setTimeout(() => { console.log('still running'); process.exit(0) }, 50)
    `
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c))
    child.stderr.on('data', (c: Buffer) => (stderr += c))
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    await rm(dir, { recursive: true, force: true })
    expect(stderr).toContain('[seam] uncaughtException: Error: from a timer')
    expect(stderr).toContain('[seam] unhandledRejection: Error: nobody awaited this')
    expect(stdout).toBe('still running\n')
    expect(code).toBe(0)
  })
})
