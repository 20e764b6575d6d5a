// The SDK's API is versioned: a change a plugin can observe needs a new version (and a CHANGELOG
// entry). api.txt records the API of the version in package.json; this test recomputes it.
//   SEAM_SDK_API_UPDATE=1 npx vitest run packages/sdk/api.test.ts
// records the API after a version bump (it refuses to record a change under the same version).
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { apiSurface } from './api-surface'
import { checkApiRecord, formatApiRecord, parseApiRecord } from './api-record'

const here = import.meta.dirname
const recordFile = path.join(here, 'api.txt')
const version = (JSON.parse(readFileSync(path.join(here, 'package.json'), 'utf8')) as { version: string }).version

describe('API record rules', () => {
  const recorded = { version: '1.0.0', api: 'interface A\n  x: number\n' }
  it('passes when the API and the version are those recorded', () => {
    expect(checkApiRecord(recorded, { version: '1.0.0', api: recorded.api }, '## 1.0.0')).toEqual({ ok: true })
  })
  it('fails when the API changed and the version did not', () => {
    const result = checkApiRecord(recorded, { version: '1.0.0', api: 'interface A\n  x: string\n' }, '## 1.0.0')
    expect(result).toMatchObject({ ok: false, canRecord: false })
    expect(!result.ok && result.error).toMatch(/changed without a version bump.*\n.*- +x: number\n.*\+ +x: string/s)
  })
  it('asks to record a bumped version, and only once the changelog has its entry', () => {
    const bumped = { version: '1.1.0', api: 'interface A\n  x: string\n' }
    expect(checkApiRecord(recorded, bumped, '## 1.0.0')).toMatchObject({ ok: false, canRecord: false, error: expect.stringMatching(/CHANGELOG\.md has no "## 1\.1\.0"/) })
    expect(checkApiRecord(recorded, bumped, '## 1.1.0\n## 1.0.0')).toMatchObject({ ok: false, canRecord: true })
  })
  it('round-trips the record file', () => {
    expect(parseApiRecord(formatApiRecord(recorded))).toEqual(recorded)
  })
})

describe('@seam/sdk API', () => {
  it('is the API recorded for this version in api.txt (a change needs a version bump and a CHANGELOG entry)', () => {
    const current = { version, api: apiSurface(here) }
    const recorded = parseApiRecord(readFileSync(recordFile, 'utf8'))
    const changelog = readFileSync(path.join(here, 'CHANGELOG.md'), 'utf8')
    const result = checkApiRecord(recorded, current, changelog)
    if (!result.ok && result.canRecord && process.env.SEAM_SDK_API_UPDATE === '1') {
      writeFileSync(recordFile, formatApiRecord(current))
      return
    }
    expect(result.ok ? '' : result.error).toBe('')
  }, 120_000)
})
