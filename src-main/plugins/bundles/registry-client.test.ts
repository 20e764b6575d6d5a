// Choosing a version from a registry document (issue 18: Sharing): the highest in the range whose
// engines.seam admits this Seam, refusals that list what exists, dist-tags, and the lock's
// optional registry record.
import { createHash } from 'node:crypto'
import { mkdtemp, rm, mkdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { readLock } from './lockfile'
import { chooseVersion, parseRegistrySpec, verifyTarball, type Packument } from './registry-client'

function packument(versions: Record<string, string | null>, tags: Record<string, string>): Packument {
  return {
    name: 'pkg',
    registry: 'https://r.example/',
    'dist-tags': tags,
    versions: Object.fromEntries(
      Object.entries(versions).map(([version, seam]) => [
        version,
        { version, ...(seam === null ? {} : { engines: { seam } }), dist: { tarball: `https://r.example/pkg/-/pkg-${version}.tgz`, integrity: 'sha512-x' } }
      ])
    )
  }
}

const doc = packument({ '1.0.0': '>=0.1.0', '1.2.0': '>=0.1.0', '1.3.0': '>=5.0.0', '2.0.0': '>=5.0.0', '2.1.0-beta.1': '>=0.1.0', '0.9.0': null }, { latest: '2.0.0', beta: '2.1.0-beta.1' })

describe('parseRegistrySpec', () => {
  it('reads bare names, ranges, versions, tags and scopes', () => {
    expect(parseRegistrySpec('pkg')).toEqual({ name: 'pkg', requested: '', kind: 'tag', fetchSpec: 'latest' })
    expect(parseRegistrySpec('@acme/pkg@^1.2')).toEqual({ name: '@acme/pkg', requested: '^1.2', kind: 'range', fetchSpec: '^1.2' })
    expect(parseRegistrySpec('pkg@1.2.0')).toMatchObject({ kind: 'version', fetchSpec: '1.2.0' })
    expect(parseRegistrySpec('pkg@beta')).toMatchObject({ kind: 'tag', fetchSpec: 'beta' })
  })

  it('refuses what is not a registry package', () => {
    expect(() => parseRegistrySpec('github:me/repo')).toThrow(/not a registry package/)
    expect(() => parseRegistrySpec('Bad Name')).toThrow()
  })
})

describe('chooseVersion', () => {
  it('a range takes its highest version whose engines.seam admits this Seam', () => {
    expect(chooseVersion(doc, parseRegistrySpec('pkg@^1.0.0'), '0.1.0')).toMatchObject({ version: { version: '1.2.0' }, range: '^1.0.0' })
    expect(chooseVersion(doc, parseRegistrySpec('pkg@^1.0.0'), '5.0.0')).toMatchObject({ version: { version: '1.3.0' } })
  })

  it('a bare name takes `latest` when it fits, else the highest fitting release, and records ^version', () => {
    expect(chooseVersion(doc, parseRegistrySpec('pkg'), '5.0.0')).toMatchObject({ version: { version: '2.0.0' }, range: '^2.0.0' })
    // 2.1.0-beta.1 fits too, but a prerelease is never picked for a bare name.
    expect(chooseVersion(doc, parseRegistrySpec('pkg'), '0.1.0')).toMatchObject({ version: { version: '1.2.0' }, range: '^1.2.0' })
  })

  it('a tag takes the version it points at, and is refused when that version does not fit', () => {
    expect(chooseVersion(doc, parseRegistrySpec('pkg@beta'), '0.1.0')).toMatchObject({ version: { version: '2.1.0-beta.1' }, range: 'beta' })
    expect(() => chooseVersion(doc, parseRegistrySpec('pkg@latest'), '0.1.0')).toThrow('pkg@latest is 2.0.0 (engines.seam >=5.0.0), which does not admit Seam 0.1.0; versions that work with Seam 0.1.0: 2.1.0-beta.1, 1.2.0, 1.0.0')
    expect(() => chooseVersion(doc, parseRegistrySpec('pkg@nightly'), '0.1.0')).toThrow('pkg has no dist-tag "nightly" in https://r.example/ (tags: latest, beta)')
  })

  it('refuses a range with no fitting version, listing each with its engines.seam (or none declared)', () => {
    expect(() => chooseVersion(doc, parseRegistrySpec('pkg@<1.0.0'), '0.1.0')).toThrow('no version of pkg matching <1.0.0 admits Seam 0.1.0: 0.9.0 (engines.seam not declared)')
    expect(() => chooseVersion(doc, parseRegistrySpec('pkg@^3'), '0.1.0')).toThrow('pkg has no version matching ^3 in https://r.example/ (versions: 0.9.0, 1.0.0, 1.2.0, 1.3.0, 2.0.0, 2.1.0-beta.1)')
  })
})

describe('verifyTarball', () => {
  it('checks the strongest sha2 that dist.integrity lists', () => {
    const data = Buffer.from('bytes')
    const sha512 = `sha512-${createHash('sha512').update(data).digest('base64')}`
    const sha1 = `sha1-${createHash('sha1').update(data).digest('base64')}`
    expect(verifyTarball(data, { tarball: 'https://r/x.tgz', integrity: `${sha1} ${sha512}` }, 'x@1.0.0')).toEqual({ data, integrity: sha512 })
    expect(() => verifyTarball(Buffer.from('other'), { tarball: 'https://r/x.tgz', integrity: sha512 }, 'x@1.0.0')).toThrow(`expected ${sha512}, got sha512-`)
  })
})

describe('lock.json registry record', () => {
  it('old locks without it still read; a malformed one names the field', async () => {
    const home = await mkdtemp(path.join(tmpdir(), 'seam-lock-'))
    try {
      await mkdir(path.join(home, 'plugins'))
      const base = { name: 'a', version: '1.0.0', integrity: 'sha512-AAAA', source: '/x.tgz', installedAt: 'now', enabled: true }
      await writeFile(path.join(home, 'plugins/lock.json'), JSON.stringify({ lockfileVersion: 1, bundles: [base] }))
      expect(await readLock(home)).toEqual([base])
      await writeFile(path.join(home, 'plugins/lock.json'), JSON.stringify({ lockfileVersion: 1, bundles: [{ ...base, registry: { url: 'not a url', requested: '', range: '^1', integrity: 'sha512-AAAA' } }] }))
      await expect(readLock(home)).rejects.toThrow('bundles[0].registry.url: Invalid URL')
    } finally {
      await rm(home, { recursive: true, force: true })
    }
  })
})
