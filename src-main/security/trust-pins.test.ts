// The pin store on its own (issue 13: Trust): hashes cover the content, review tells approved,
// new and changed apart, and a damaged pin file is never overwritten.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { TrustPins, trustItemHash, type TrustItem } from './trust-pins'

let dir: string
const ws = '/srv/project'
const item = (command: string, over: Partial<TrustItem> = {}): TrustItem => ({ source: 'Claude Code hooks', file: `${ws}/.claude/settings.json`, event: 'PreToolUse', matcher: 'Bash', command, ...over })

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'seam-pins-'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

describe('TrustPins', () => {
  it('hashes the content: command, event, matcher and the full definition each count; the workspace folder does not', () => {
    const base = trustItemHash(item('a'), ws)
    expect(trustItemHash(item('b'), ws)).not.toBe(base)
    expect(trustItemHash(item('a', { event: 'Stop' }), ws)).not.toBe(base)
    expect(trustItemHash(item('a', { matcher: '.*' }), ws)).not.toBe(base)
    expect(trustItemHash(item('a', { content: '{"timeout":1}' }), ws)).not.toBe(base)
    expect(trustItemHash(item('a', { file: '/moved/.claude/settings.json' }), '/moved')).toBe(base)
  })

  it('reviews items as approved, new, or changed (with the approved text), and persists approvals', () => {
    const file = join(dir, 'trust-pins.json')
    const pins = new TrustPins(file)
    pins.approve(ws, [item('a'), item('x', { event: 'Stop', matcher: undefined })], new Set([trustItemHash(item('a'), ws), trustItemHash(item('x', { event: 'Stop', matcher: undefined }), ws)]))
    const reviewed = new TrustPins(file).review(ws, [item('a'), item('y', { event: 'Stop', matcher: undefined }), item('z', { event: 'SessionStart', matcher: undefined })])
    expect(reviewed.map((r) => [r.command, r.status, r.previous])).toEqual([
      ['a', 'approved', undefined],
      ['y', 'changed', 'x'],
      ['z', 'new', undefined]
    ])
  })

  it('approving drops pins of removed items, so a removed command coming back is new again', () => {
    const pins = new TrustPins(join(dir, 'trust-pins.json'))
    pins.approve(ws, [item('a')], new Set([trustItemHash(item('a'), ws)]))
    pins.approve(ws, [item('b')], new Set([trustItemHash(item('b'), ws)]))
    expect(pins.review(ws, [item('a')])[0].status).not.toBe('approved')
  })

  it('a damaged pin file trusts nothing and is not overwritten', async () => {
    const file = join(dir, 'trust-pins.json')
    await writeFile(file, '{"version": 1, "workspaces": {"/w": [{"hash": "nope"}]}}')
    const pins = new TrustPins(file)
    expect(pins.loadError).toMatch(/trust-pins\.json/)
    expect(pins.approvedHashes('/w').size).toBe(0)
    expect(() => pins.approve('/w', [item('a')], new Set())).toThrow(/will not overwrite/)
    expect(await readFile(file, 'utf8')).toContain('"nope"')
  })
})
