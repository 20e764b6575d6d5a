import { describe, expect, it } from 'vitest'
import { bundleLockfile, type VendoredPackage } from './plugin-lockfile'

// A Seam tree in miniature: `b` hoisted, a second `b` nested under `c`, a workspace link for the
// SDK, a platform binary only some machines install, and a package nothing in the bundle reaches.
const seamLock = {
  name: 'seam',
  lockfileVersion: 3,
  packages: {
    '': { name: 'seam', devDependencies: { a: '1.0.0', c: '2.0.0', unrelated: '1.0.0' } },
    'node_modules/@seam/sdk': { resolved: 'packages/sdk', link: true },
    'node_modules/a': { version: '1.0.0', integrity: 'sha512-a', dev: true, dependencies: { b: '^1.0.0' }, optionalDependencies: { '@x/bin-other': '1.0.0' } },
    'node_modules/b': { version: '1.2.0', integrity: 'sha512-b1', dev: true },
    'node_modules/c': { version: '2.0.0', integrity: 'sha512-c', dev: true, dependencies: { b: '^2.0.0' }, peerDependencies: { a: '1.x', d: '*' }, peerDependenciesMeta: { d: { optional: true } } },
    'node_modules/c/node_modules/b': { version: '2.1.0', integrity: 'sha512-b2', dev: true },
    'node_modules/unrelated': { version: '1.0.0', integrity: 'sha512-u', dev: true }
  }
}

const sdk: VendoredPackage = {
  spec: 'file:vendor/seam-sdk-0.1.0.tgz',
  tarball: Buffer.from('the tarball'),
  manifest: { name: '@seam/sdk', version: '0.1.0', dependencies: { a: '1.0.0' } }
}

const bundle = { name: 'my-bundle', version: '0.1.0', devDependencies: { '@seam/sdk': sdk.spec, c: '2.0.0' } }

describe('a new bundle\'s lockfile, cut from Seam\'s', () => {
  it('holds the bundle\'s packages at their places in Seam\'s tree, the SDK from its tarball, and nothing else', () => {
    const result = bundleLockfile(JSON.stringify(seamLock), bundle, [sdk])
    expect(result.ok).toBe(true)
    if (!result.ok) return
    const lock = JSON.parse(result.text) as { lockfileVersion: number; packages: Record<string, Record<string, unknown>> }
    expect(lock.lockfileVersion).toBe(3)
    expect(Object.keys(lock.packages)).toEqual(['', 'node_modules/@seam/sdk', 'node_modules/a', 'node_modules/b', 'node_modules/c', 'node_modules/c/node_modules/b'])
    expect(lock.packages['']).toMatchObject({ name: 'my-bundle', devDependencies: bundle.devDependencies })
    expect(lock.packages['node_modules/@seam/sdk']).toMatchObject({ version: '0.1.0', resolved: sdk.spec, dependencies: { a: '1.0.0' } })
    expect(lock.packages['node_modules/@seam/sdk']?.integrity).toMatch(/^sha512-[A-Za-z0-9+/]+=*$/)
    expect(lock.packages['node_modules/c/node_modules/b']).toMatchObject({ version: '2.1.0', integrity: 'sha512-b2', dev: true })
  })

  it('writes none, saying why, when a package is missing or Seam has another version', () => {
    const missing = bundleLockfile(JSON.stringify(seamLock), { ...bundle, devDependencies: { ...bundle.devDependencies, e: '1.0.0' } }, [sdk])
    expect(missing).toEqual({ ok: false, reason: "e@1.0.0 (needed by my-bundle) is not in Seam's lockfile" })
    const other = bundleLockfile(JSON.stringify(seamLock), { ...bundle, devDependencies: { ...bundle.devDependencies, c: '3.0.0' } }, [sdk])
    expect(other).toEqual({ ok: false, reason: 'c@3.0.0 (needed by my-bundle): Seam has 2.0.0' })
  })

  it('a lockfile that is not JSON, or too old to list packages, is named', () => {
    expect(bundleLockfile('{', bundle, [sdk])).toMatchObject({ ok: false, reason: expect.stringContaining("Seam's lockfile is not JSON") })
    expect(bundleLockfile(JSON.stringify({ lockfileVersion: 1, dependencies: {} }), bundle, [sdk])).toMatchObject({ ok: false, reason: expect.stringContaining('lockfileVersion') })
  })
})
