import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { decodeUrlPath, isAppUrl, isSafeExternalUrl, isTrustedSender, type AppPage } from './security'

const fileApp = 'file:///opt/seam/out/renderer/index.html'
const filePage: AppPage = { kind: 'file', file: '/opt/seam/out/renderer/index.html', platform: 'posix', ignoreCase: false }
const devPage: AppPage = { kind: 'server', origin: 'http://localhost:5173/' }
const top = (url: string) => ({ url, parent: null })

describe('isTrustedSender', () => {
  it('accepts the top-level app page (file:// build and dev server)', () => {
    expect(isTrustedSender(top(fileApp), filePage)).toBe(true)
    expect(isTrustedSender(top(`${fileApp}#/sessions/x`), filePage)).toBe(true)
    expect(isTrustedSender(top('http://localhost:5173/some/route?x=1'), devPage)).toBe(true)
  })

  it('refuses subframes even when they show the app URL', () => {
    expect(isTrustedSender({ url: fileApp, parent: { url: fileApp } }, filePage)).toBe(false)
    expect(isTrustedSender({ url: 'http://localhost:5173/', parent: {} }, devPage)).toBe(false)
  })

  it('refuses missing frames and other pages', () => {
    expect(isTrustedSender(null, filePage)).toBe(false)
    expect(isTrustedSender(undefined, filePage)).toBe(false)
    expect(isTrustedSender(top('file:///tmp/evil/index.html'), filePage)).toBe(false)
    expect(isTrustedSender(top('file:///opt/seam/out/renderer/index.html.evil'), filePage)).toBe(false)
    expect(isTrustedSender(top('file://remote-host/opt/seam/out/renderer/index.html'), filePage)).toBe(false)
    expect(isTrustedSender(top('file:///opt/seam/out/renderer/index.html%00'), filePage)).toBe(false)
    expect(isTrustedSender(top('https://example.com/'), filePage)).toBe(false)
    expect(isTrustedSender(top('about:blank'), filePage)).toBe(false)
    expect(isTrustedSender(top('not a url'), filePage)).toBe(false)
  })

  it('refuses look-alike origins that a prefix test would let through', () => {
    expect(isTrustedSender(top('http://localhost:5173.attacker.com/'), devPage)).toBe(false)
    expect(isTrustedSender(top('http://localhost:51730/'), devPage)).toBe(false)
    expect(isTrustedSender(top('https://localhost:5173/'), devPage)).toBe(false)
    expect(isTrustedSender(top('http://user:pw@localhost:5173/'), devPage)).toBe(false)
    const example: AppPage = { kind: 'server', origin: 'https://example.com/' }
    expect(isTrustedSender(top('https://example.com.attacker.com/'), example)).toBe(false)
    expect(isTrustedSender(top('https://example.com@attacker.com/'), example)).toBe(false)
  })
})

describe('isAppUrl: the built app compared as a file path, not as URL text', () => {
  it('matches the same file regardless of hash and query', () => {
    expect(isAppUrl(`${fileApp}?a=1#b`, filePage)).toBe(true)
    expect(isAppUrl('file:///opt/seam/out/renderer/other.html', filePage)).toBe(false)
  })

  // An install path with every character on which Chromium's loadFile URL and Node's
  // pathToFileURL disagree: the same file, whichever way the URL spells it.
  const odd = '/home/ana/apps/se[am] ~tools/100%/out/renderer/index.html'
  const oddPage: AppPage = { kind: 'file', file: odd, platform: 'posix', ignoreCase: false }

  it('accepts a path with [, ], ~ and % however the URL escapes it', () => {
    for (const url of [
      'file:///home/ana/apps/se[am]%20~tools/100%/out/renderer/index.html', // as Chromium keeps it
      'file:///home/ana/apps/se%5Bam%5D%20%7Etools/100%25/out/renderer/index.html', // fully escaped
      pathToFileURL(odd).href,
      `${pathToFileURL(odd).href}#/sessions/1`
    ]) {
      expect(isAppUrl(url, oddPage), url).toBe(true)
      expect(isTrustedSender(top(url), oddPage), url).toBe(true)
    }
  })

  it('still refuses the neighbours of such a path', () => {
    for (const url of [
      'file:///home/ana/apps/se[am]%20~tools/100%/out/renderer/index.htm',
      'file:///home/ana/apps/se[am]%20~tools/100/out/renderer/index.html',
      'file:///home/ana/apps/seam%20~tools/100%/out/renderer/index.html',
      'file:///home/ana/apps/se[am]%20~tools/100%25%25/out/renderer/index.html'
    ]) {
      expect(isAppUrl(url, oddPage), url).toBe(false)
    }
  })

  it('compares case-insensitively only where the file system ignores case', () => {
    const upper = 'file:///HOME/ana/apps/se[am]%20~tools/100%/out/renderer/INDEX.html'
    expect(isAppUrl(upper, oddPage)).toBe(false)
    expect(isAppUrl(upper, { ...oddPage, ignoreCase: true })).toBe(true)
  })

  it('on Windows: drive-letter case, backslashes, and a UNC host that is not the app', () => {
    const windows: AppPage = { kind: 'file', file: 'C:\\Users\\Ana\\Se[am]~1\\100%\\out\\renderer\\index.html', platform: 'win32', ignoreCase: true }
    expect(isAppUrl('file:///C:/Users/Ana/Se[am]~1/100%/out/renderer/index.html', windows)).toBe(true)
    expect(isAppUrl('file:///c:/users/ana/se%5Bam%5D~1/100%25/out/renderer/index.html', windows)).toBe(true)
    expect(isAppUrl('file:///D:/Users/Ana/Se[am]~1/100%/out/renderer/index.html', windows)).toBe(false)
    expect(isAppUrl('file://evil/C:/Users/Ana/Se[am]~1/100%/out/renderer/index.html', windows)).toBe(false)
    expect(isAppUrl('file:///Users/Ana/Se[am]~1/100%/out/renderer/index.html', windows)).toBe(false)
    expect(isAppUrl('file:///C:/Users/Ana/Se[am]~1/100%/out/renderer/index.html', { ...windows, ignoreCase: false })).toBe(true)
    // A drive letter's case never matters; the rest does in a case-sensitive folder.
    expect(isAppUrl('file:///c:/Users/Ana/Se[am]~1/100%/out/renderer/index.html', { ...windows, ignoreCase: false })).toBe(true)
    expect(isAppUrl('file:///c:/users/Ana/Se[am]~1/100%/out/renderer/index.html', { ...windows, ignoreCase: false })).toBe(false)
  })

  it('never matches when the dev-server origin is not http(s)', () => {
    expect(isAppUrl('data:text/html,x', { kind: 'server', origin: 'data:text/html,x' })).toBe(false)
  })
})

describe('decodeUrlPath', () => {
  it('decodes valid escapes as UTF-8 and keeps a lone % as itself', () => {
    expect(decodeUrlPath('/a%20b/%E2%9C%93/100%/x%zz/%4')).toBe('/a b/✓/100%/x%zz/%4')
    expect(decodeUrlPath('/[ä]~')).toBe('/[ä]~')
  })
})

describe('isSafeExternalUrl', () => {
  it('accepts plain https links', () => {
    expect(isSafeExternalUrl('https://github.com/org/repo')).toBe(true)
  })
  it('refuses other schemes, credentials and junk', () => {
    for (const url of [
      'http://example.com',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://host/share',
      'ms-msdt:/id',
      'https://user:pass@example.com/',
      'https://',
      'not a url',
      `https://example.com/${'a'.repeat(5000)}`
    ]) {
      expect(isSafeExternalUrl(url), url).toBe(false)
    }
  })
})
