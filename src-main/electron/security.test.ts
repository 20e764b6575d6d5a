import { describe, expect, it } from 'vitest'
import { isAppUrl, isSafeExternalUrl, isTrustedSender } from './security'

const fileApp = 'seam://app/index.html'
const diskPage = 'file:///opt/seam/out/renderer/index.html'
const devApp = 'http://localhost:5173/'
const top = (url: string) => ({ url, parent: null })

describe('isTrustedSender', () => {
  it('accepts the top-level app page (the seam://app build and the dev server)', () => {
    expect(isTrustedSender(top(fileApp), fileApp)).toBe(true)
    expect(isTrustedSender(top(`${fileApp}#/sessions/x`), fileApp)).toBe(true)
    expect(isTrustedSender(top('seam://app/sessions/x'), fileApp)).toBe(true)
    expect(isTrustedSender(top('http://localhost:5173/some/route?x=1'), devApp)).toBe(true)
  })

  it('refuses subframes even when they show the app URL', () => {
    expect(isTrustedSender({ url: fileApp, parent: { url: fileApp } }, fileApp)).toBe(false)
    expect(isTrustedSender({ url: 'http://localhost:5173/', parent: {} }, devApp)).toBe(false)
  })

  it('refuses missing frames and other pages', () => {
    expect(isTrustedSender(null, fileApp)).toBe(false)
    expect(isTrustedSender(undefined, fileApp)).toBe(false)
    expect(isTrustedSender(top('file:///tmp/evil/index.html'), fileApp)).toBe(false)
    expect(isTrustedSender(top('seam://app.evil/index.html'), fileApp)).toBe(false)
    expect(isTrustedSender(top('seam://user@app/index.html'), fileApp)).toBe(false)
    expect(isTrustedSender(top('seam-plugin://bundles/x/client.js'), fileApp)).toBe(false)
    expect(isTrustedSender(top('https://example.com/'), fileApp)).toBe(false)
    expect(isTrustedSender(top('about:blank'), fileApp)).toBe(false)
    expect(isTrustedSender(top('not a url'), fileApp)).toBe(false)
  })

  it('refuses look-alike origins that a prefix test would let through', () => {
    expect(isTrustedSender(top('http://localhost:5173.attacker.com/'), devApp)).toBe(false)
    expect(isTrustedSender(top('http://localhost:51730/'), devApp)).toBe(false)
    expect(isTrustedSender(top('https://localhost:5173/'), devApp)).toBe(false)
    expect(isTrustedSender(top('http://user:pw@localhost:5173/'), devApp)).toBe(false)
    const example = 'https://example.com/'
    expect(isTrustedSender(top('https://example.com.attacker.com/'), example)).toBe(false)
    expect(isTrustedSender(top('https://example.com@attacker.com/'), example)).toBe(false)
  })
})

describe('isAppUrl', () => {
  it('matches the app origin regardless of path, hash and query', () => {
    expect(isAppUrl(`${fileApp}?a=1#b`, fileApp)).toBe(true)
    expect(isAppUrl('seam://app/other.html', fileApp)).toBe(true)
  })
  it('never trusts a file:// page, not even the built renderer opened from disk (issue 13: Electron)', () => {
    expect(isAppUrl(diskPage, fileApp)).toBe(false)
    expect(isAppUrl(diskPage, diskPage)).toBe(false)
    expect(isTrustedSender(top(diskPage), diskPage)).toBe(false)
  })
  it('never matches when the app URL itself is not http(s) or file', () => {
    expect(isAppUrl('data:text/html,x', 'data:text/html,x')).toBe(false)
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
