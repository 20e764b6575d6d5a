// The trusted page is found on the real file system: an install folder with [, ], ~ and %, and
// a probe of whether that file system ignores case.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { statSync, type Stats } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { appPageFor, fileSystemIgnoresCase } from './app-page'
import { isTrustedSender } from './security'

let root: string
let rendererFile: string

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'seam-app-page-'))
  const dir = join(root, 'se[am] ~tools', '100%', 'out', 'renderer')
  await mkdir(dir, { recursive: true })
  rendererFile = join(dir, 'index.html')
  await writeFile(rendererFile, '<!doctype html>')
})

afterEach(async () => {
  await rm(root, { recursive: true, force: true })
})

describe('appPageFor', () => {
  it('trusts the built renderer file, found in a folder named with [, ], ~ and %', () => {
    const page = appPageFor({ rendererFile })
    expect(page).toMatchObject({ kind: 'file', file: rendererFile })
    const chromiumStyle = 'file://' + rendererFile.split('/').map((part) => part.replaceAll(' ', '%20')).join('/')
    for (const url of [chromiumStyle, pathToFileURL(rendererFile).href]) {
      expect(isTrustedSender({ url, parent: null }, page), url).toBe(true)
    }
    expect(isTrustedSender({ url: pathToFileURL(join(root, 'index.html')).href, parent: null }, page)).toBe(false)
  })

  it('trusts the dev server origin in development', () => {
    expect(appPageFor({ rendererFile, devServerUrl: 'http://localhost:5173/' })).toEqual({ kind: 'server', origin: 'http://localhost:5173/' })
  })

  it('uses Windows paths on Windows', () => {
    const stat = () => {
      throw new Error('ENOENT')
    }
    const page = appPageFor({ rendererFile: 'C:\\Seam\\out\\renderer\\index.html', platform: 'win32', stat })
    expect(page).toEqual({ kind: 'file', file: 'C:\\Seam\\out\\renderer\\index.html', platform: 'win32', ignoreCase: true })
  })
})

describe('fileSystemIgnoresCase', () => {
  it('asks the file system: here the swapped-case name is another (missing) file', () => {
    const swapped = join(rendererFile, '..', 'INDEX.HTML')
    let sensitive = true
    try {
      statSync(swapped)
      sensitive = false
    } catch {}
    expect(fileSystemIgnoresCase(rendererFile, 'linux')).toBe(!sensitive)
  })

  it('says "ignores case" when both spellings are the same file, and not when they are two files', async () => {
    const same = { dev: 1, ino: 7 } as Stats
    expect(fileSystemIgnoresCase('/x/index.html', 'linux', () => same)).toBe(true)
    let n = 0
    expect(fileSystemIgnoresCase('/x/index.html', 'darwin', () => ({ dev: 1, ino: ++n }) as Stats)).toBe(false)
  })

  it("falls back to the platform's default when the name has no letters or cannot be read", () => {
    const missing = () => {
      throw new Error('ENOENT')
    }
    expect(fileSystemIgnoresCase('/x/1234', 'darwin', missing)).toBe(true)
    expect(fileSystemIgnoresCase('/x/1234', 'linux', missing)).toBe(false)
    expect(fileSystemIgnoresCase('C:\\x\\index.html', 'win32', missing)).toBe(true)
  })
})
