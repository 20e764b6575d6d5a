// The packaged app's Electron fuses (issue 13: Electron). The configuration is read as the
// packaging step uses it, then flipped into a file carrying a real fuse wire (the sentinel and
// the V1 wire layout Electron binaries embed), and read back with @electron/fuses.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FuseState, FuseV1Options, getCurrentFuseWire } from '@electron/fuses'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import afterPack, { flipSeamFuses, needsAdHocResign, packagedExecutable, SEAM_FUSES } from './fuses.mjs'

const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'
let dir: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'seam-fuses-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

describe('Electron fuses of the packaged app', () => {
  it('turn off RunAsNode, NODE_OPTIONS and inspect arguments, turn on cookie encryption, ASAR integrity and only-load-from-ASAR', () => {
    expect(SEAM_FUSES[FuseV1Options.RunAsNode]).toBe(false)
    expect(SEAM_FUSES[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(false)
    expect(SEAM_FUSES[FuseV1Options.EnableNodeCliInspectArguments]).toBe(false)
    expect(SEAM_FUSES[FuseV1Options.EnableCookieEncryption]).toBe(true)
    expect(SEAM_FUSES[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(true)
    expect(SEAM_FUSES[FuseV1Options.OnlyLoadAppFromAsar]).toBe(true)
    expect(SEAM_FUSES[FuseV1Options.GrantFileProtocolExtraPrivileges]).toBe(false)
  })

  it('decide every fuse the library knows (a new fuse must be decided, not inherited)', () => {
    expect(SEAM_FUSES.strictlyRequireAllFuses).toBe(true)
    const known = Object.values(FuseV1Options).filter((v): v is number => typeof v === 'number')
    for (const fuse of known) expect(typeof SEAM_FUSES[fuse as FuseV1Options], FuseV1Options[fuse]).toBe('boolean')
  })

  it('are written into a binary\'s fuse wire', async () => {
    const binary = join(dir, 'seam')
    const wire = Buffer.from([1, 9, ...'101100001'].map((c) => (typeof c === 'number' ? c : c.charCodeAt(0))))
    await writeFile(binary, Buffer.concat([Buffer.alloc(1024, 7), Buffer.from(SENTINEL), wire, Buffer.alloc(64, 7)]))
    expect(await flipSeamFuses(binary)).toBe(1)
    const read = await getCurrentFuseWire(binary)
    expect(read[FuseV1Options.RunAsNode]).toBe(FuseState.DISABLE)
    expect(read[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(FuseState.DISABLE)
    expect(read[FuseV1Options.EnableNodeCliInspectArguments]).toBe(FuseState.DISABLE)
    expect(read[FuseV1Options.EnableCookieEncryption]).toBe(FuseState.ENABLE)
    expect(read[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(FuseState.ENABLE)
    expect(read[FuseV1Options.OnlyLoadAppFromAsar]).toBe(FuseState.ENABLE)
    // The bytes around the wire are untouched.
    const bytes = await readFile(binary)
    expect(bytes.subarray(0, 1024).every((b) => b === 7)).toBe(true)
  })

  it('as the afterPack hook: flips the packaged executable, re-signs ad hoc only for macOS arm64, and fails clearly without one (issue 30)', async () => {
    const context = (electronPlatformName: string, arch: number) => ({ appOutDir: dir, electronPlatformName, arch, packager: { appInfo: { productFilename: 'Seam' }, executableName: 'seam' } })
    // electron-builder's Arch: x64 = 1, arm64 = 3, universal = 4.
    expect(needsAdHocResign(context('darwin', 3))).toBe(true)
    expect(needsAdHocResign(context('darwin', 4))).toBe(true)
    expect(needsAdHocResign(context('darwin', 1))).toBe(false)
    expect(needsAdHocResign(context('linux', 3))).toBe(false)
    expect(packagedExecutable(context('win32', 1))).toBe(join(dir, 'Seam.exe'))
    expect(packagedExecutable(context('darwin', 3))).toBe(join(dir, 'Seam.app'))
    const wire = Buffer.from([1, 9, ...'101100001'].map((c) => (typeof c === 'number' ? c : c.charCodeAt(0))))
    await writeFile(join(dir, 'seam'), Buffer.concat([Buffer.from(SENTINEL), wire]))
    await afterPack(context('linux', 1))
    expect((await getCurrentFuseWire(join(dir, 'seam')))[FuseV1Options.RunAsNode]).toBe(FuseState.DISABLE)
    await expect(afterPack(context('win32', 1))).rejects.toThrow(`fuses: no packaged executable at ${join(dir, 'Seam.exe')}`)
  })
})
