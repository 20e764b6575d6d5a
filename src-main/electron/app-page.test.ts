// Which page the shell trusts (issue 13: Electron): the seam://app origin for a built app, the
// dev server's origin in development; never a file on disk, whatever its path.
import { describe, expect, it } from 'vitest'
import { appPageFor } from './app-page'
import { isTrustedSender } from './security'

describe('appPageFor', () => {
  it('trusts the app origin for a built app, and no file:// page', () => {
    const page = appPageFor({})
    expect(page).toEqual({ kind: 'app' })
    expect(isTrustedSender({ url: 'seam://app/index.html', parent: null }, page)).toBe(true)
    for (const url of ['file:///opt/seam/out/renderer/index.html', 'file:///home/ana/se[am]%20~x/100%/out/renderer/index.html']) {
      expect(isTrustedSender({ url, parent: null }, page), url).toBe(false)
    }
  })

  it('trusts the dev server origin in development', () => {
    expect(appPageFor({ devServerUrl: 'http://localhost:5173/' })).toEqual({ kind: 'server', origin: 'http://localhost:5173/' })
  })
})
