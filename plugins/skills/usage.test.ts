// Skill use counts kept by several sessions at once (the desktop app and `seam run`s each hold a
// SkillUsage on the same file): every use is counted, whoever read the file first.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { anotherProcessHolding } from '../../test-support/lock-holder'
import { SkillUsage } from './usage'

let dir: string
let file: string

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'seam-skill-usage-'))
  file = path.join(dir, 'skills', 'usage.json')
})

afterEach(() => rmSync(dir, { recursive: true, force: true }))

const counted = (name: string): number => JSON.parse(readFileSync(file, 'utf8')).skills[name].uses

describe('skill usage counted by sessions running at once', () => {
  it('two sessions that both read the counts before either used a skill count both uses', () => {
    const desktop = new SkillUsage(file)
    const cli = new SkillUsage(file)
    expect(desktop.uses('review')).toBe(0)
    expect(cli.uses('review')).toBe(0)
    desktop.record('review')
    cli.record('review')
    cli.record('deploy')
    desktop.record('review')
    expect(counted('review')).toBe(3)
    expect(counted('deploy')).toBe(1)
    expect(desktop.uses('review')).toBe(3)
    expect(desktop.problem).toBeUndefined()
  })

  it('waits for another process that holds the file, and counts on top of what it wrote', async () => {
    new SkillUsage(file).record('review')
    await anotherProcessHolding(`${file}.lock`, {
      holdMs: 300,
      args: [file],
      onTake: "const data = JSON.parse(fs.readFileSync(args[0], 'utf8'))",
      onRelease: 'data.skills.review.uses += 10; fs.writeFileSync(args[0], JSON.stringify(data))'
    })
    new SkillUsage(file).record('review')
    expect(counted('review')).toBe(12)
  })

  it('a broken file is counted from zero, said once, and replaced on the next use', () => {
    mkdirSync(path.dirname(file), { recursive: true })
    writeFileSync(file, '{not json')
    const usage = new SkillUsage(file)
    expect(usage.uses('review')).toBe(0)
    expect(usage.problem).toMatch(/is not JSON/)
    usage.record('review')
    expect(counted('review')).toBe(1)
  })
})
